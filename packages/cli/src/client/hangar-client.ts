import { stat } from "node:fs/promises";
import { basename } from "node:path";
import {
  mediaTypeFor,
  type BuildContext,
  type CompleteRequest,
  type CompleteResponse,
  type PackageMetadata,
  type PresignRequest,
  type PresignResponse,
  type UploadResult,
} from "./api-types";
import {
  HangarAbortError,
  HangarApiError,
  HangarAuthError,
  HangarClientError,
  HangarFileError,
  HangarNetworkError,
  HangarRateLimitError,
  HangarRejectedError,
  HangarRequestError,
  HangarTimeoutError,
  describeNetworkFailure,
  isRefusedUploadAddress,
  type ApiErrorInit,
  type UploadStep,
} from "./client-errors";
import { fetchJsonPost, nodeJsonPost, type HttpAnswer, type JsonPost } from "./json-transport";
import { putFile, storageRefusal } from "./put-file";
import { anySignal } from "./any-signal";
import { VERSION } from "../version";
import {
  defaultRetryOptions,
  parseRetryAfter,
  retryDelayMs,
  serverWaitMs,
  systemRetryClock,
  type RetryClock,
  type RetryOptions,
} from "./retry-policy";

export const CLIENT_VERSION = VERSION;

const PRESIGN_PATH = "/api/upload/api-key/presign";
const COMPLETE_PATH = "/api/upload/api-key/complete";
/** Storage checks expiry when a PUT starts; this keeps clock skew and slow connects on our side. */
const ADDRESS_EXPIRY_MARGIN_MS = 30_000;
/** The spec's validity, for a presign answer whose expireAt we cannot read. */
const PRESIGN_VALIDITY_MS = 15 * 60_000;

export interface HangarClientOptions {
  /** Base address of the service, e.g. https://abc.execute-api.eu-west-1.amazonaws.com */
  url: string;
  clientId: string;
  clientSecret: string;
  /**
   * For presign and complete (the PUT always streams through node:http). Default: node:http(s),
   * which keeps undici and its WebAssembly parser out of the process (see json-transport.ts).
   */
  fetch?: typeof fetch;
  retry?: Partial<RetryOptions>;
  /** Time and randomness of retries; tests inject one that does not wait. */
  clock?: RetryClock;
  userAgent?: string;
}

export interface UploadProgress {
  sentBytes: number;
  totalBytes: number;
  /** 1 for the first PUT; a retried PUT starts again from byte 0 with the next number. */
  attempt: number;
  /** A resumed multipart upload: bytes stored by an earlier run (counted in sentBytes, not sent now). */
  resumedBytes?: number;
}

/** Multipart (parallel, resumable parts) for big files; see README "Multipart uploads". */
export interface MultipartOptions {
  /** Files of at least this many bytes go in parts (default 64 MiB); past one PUT's 5 GiB always. */
  thresholdBytes?: number;
  /** Parts sent at once (default 4). */
  parallel?: number;
  /**
   * Directory for resume state (the CLI passes the user's cache directory); without one an
   * interrupted upload starts over.
   */
  cacheDir?: string;
}

export const DEFAULT_MULTIPART_THRESHOLD = 64 * 1024 ** 2;
export const DEFAULT_PARALLEL_PARTS = 4;
/** S3's largest single PUT. */
const MAX_SINGLE_PUT = 5 * 1024 ** 3;

export interface RetryNotice {
  step: UploadStep;
  /** 1-based number of the retry about to happen. */
  retry: number;
  maxRetries: number;
  delayMs: number;
  error: HangarClientError;
}

export interface UploadOptions {
  /** Name announced to the service (default: the file's base name); must end in .apk or .ipa. */
  fileName?: string;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
  /** Called as each step starts (a re-presign for a refused address calls it again). */
  onStep?: (step: UploadStep) => void;
  /** Release notes and CI context sent with complete (a service that predates them ignores them). */
  context?: BuildContext;
  multipart?: MultipartOptions;
  /** A multipart upload continues one an earlier run left unfinished. */
  onResume?: (resume: { storedParts: number; partCount: number; storedBytes: number }) => void;
}

/** One upload's cancellation and time budget. */
interface Run {
  signal: AbortSignal;
  userSignal: AbortSignal | undefined;
  budget: AbortSignal;
  deadline: number;
  options: UploadOptions;
}

/**
 * Client of the Hangar upload API: presign → PUT the file to storage → complete, with bounded
 * retries. Never reads the file into memory; the secret only ever travels in the Authorization
 * header of presign and complete (never to storage, never into messages).
 */
export class HangarClient {
  readonly baseUrl: string;
  readonly retry: RetryOptions;
  private readonly clientId: string;
  private readonly clientSecret: string;
  private readonly transport: JsonPost;
  private readonly clock: RetryClock;
  private readonly userAgent: string;
  /** Errors a retry loop already gave up on: an enclosing loop (PUT around a re-presign) must not retry them again. */
  private readonly givenUp = new WeakSet<object>();

  constructor(options: HangarClientOptions) {
    let base: URL;
    try {
      base = new URL(options.url);
    } catch {
      throw new TypeError("url must be an absolute http(s) address");
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") throw new TypeError("url must be an absolute http(s) address");
    if (!options.clientId) throw new TypeError("clientId is required");
    if (!options.clientSecret) throw new TypeError("clientSecret is required");
    base.search = "";
    base.hash = "";
    this.baseUrl = base.toString().replace(/\/+$/, "");
    this.clientId = options.clientId;
    this.clientSecret = options.clientSecret;
    this.transport = options.fetch ? fetchJsonPost(options.fetch) : nodeJsonPost;
    this.retry = { ...defaultRetryOptions, ...options.retry };
    this.clock = options.clock ?? systemRetryClock;
    this.userAgent = options.userAgent ?? `hangar-cli/${CLIENT_VERSION} node/${process.versions.node}`;
  }

  async upload(path: string, options: UploadOptions = {}): Promise<UploadResult> {
    const fileName = options.fileName ?? basename(path);
    const fileType = mediaTypeFor(fileName);
    if (!fileType) throw new HangarFileError(path, `${fileName}: only .apk and .ipa files can be uploaded`);
    const fileSize = await regularFileSize(path);
    const declared: PresignRequest = { fileName, fileSize, fileType };

    const budgetController = new AbortController();
    const budgetTimer = setTimeout(() => budgetController.abort(new Error("time budget exhausted")), this.retry.timeoutMs);
    const run: Run = {
      signal: options.signal ? anySignal([options.signal, budgetController.signal]) : budgetController.signal,
      userSignal: options.signal,
      budget: budgetController.signal,
      deadline: this.clock.now() + this.retry.timeoutMs,
      options,
    };
    const started = this.clock.now();
    const timings = { presignMs: 0, putMs: 0, completeMs: 0, totalMs: 0 };
    const timed = async <T>(field: "presignMs" | "completeMs", work: () => Promise<T>): Promise<T> => {
      const from = this.clock.now();
      try {
        return await work();
      } finally {
        timings[field] += this.clock.now() - from;
      }
    };

    try {
      this.throwIfStopped("presign", run);
      const threshold = options.multipart?.thresholdBytes ?? DEFAULT_MULTIPART_THRESHOLD;
      if (fileSize >= threshold || fileSize > MAX_SINGLE_PUT) {
        const parts = await this.uploadInParts(path, declared, run);
        // The same answer and timings as a single PUT's: --json and GitHub outputs keep their shape.
        const completed = readComplete(parts.completed);
        const { installUrl: _decidedBelow, ...answer } = completed;
        return { ...answer, ...installLinks(completed), timings: { ...parts.timings, totalMs: this.clock.now() - started } };
      }
      let address = await timed("presignMs", () => this.presign(declared, run));
      let freshAddressNeeded = false;
      let attempt = 0;
      const putStarted = this.clock.now();
      const presignBeforePut = timings.presignMs;
      await this.withRetries("put", run, async () => {
        if (freshAddressNeeded || this.clock.now() >= expiryOf(address, this.clock.now()) - ADDRESS_EXPIRY_MARGIN_MS) {
          address = await timed("presignMs", () => this.presign(declared, run));
          freshAddressNeeded = false;
        }
        attempt += 1;
        options.onStep?.("put");
        try {
          await this.put(path, fileSize, address, run, attempt);
        } catch (error) {
          if (isRefusedUploadAddress(error)) freshAddressNeeded = true;
          throw error;
        }
      });
      // A re-presign inside the PUT loop is presign time, not PUT time.
      timings.putMs = this.clock.now() - putStarted - (timings.presignMs - presignBeforePut);
      const completed = await timed("completeMs", () => this.complete({ ...declared, key: address.key, ...options.context }, run));
      timings.totalMs = this.clock.now() - started;
      // installLinks decides the install link (a server's own included): none for an uninstallable build.
      const { installUrl: _decidedBelow, ...answer } = completed;
      return { ...answer, ...installLinks(completed), timings };
    } finally {
      clearTimeout(budgetTimer);
    }
  }

  /** Loaded on first use: small uploads and `hangar --version` never parse the multipart code. */
  private async uploadInParts(path: string, declared: PresignRequest, run: Run) {
    const { uploadInParts } = await import("./multipart-upload");
    const options = run.options;
    const onProgress = options.onProgress;
    return uploadInParts({
      path,
      declared,
      context: options.context,
      parallel: options.multipart?.parallel ?? DEFAULT_PARALLEL_PARTS,
      cacheDir: options.multipart?.cacheDir,
      identity: `${this.baseUrl} ${this.clientId}`,
      signal: run.signal,
      stallTimeoutMs: this.retry.stallTimeoutMs,
      now: () => this.clock.now(),
      call: (step, route, body, announce = true) =>
        this.withRetries(step, run, async () => {
          if (announce) options.onStep?.(step);
          return this.post(step, route, body, run);
        }),
      retrying: (step, attempt) => this.withRetries(step, run, attempt),
      onProgress: onProgress && ((p) => onProgress({ ...p, attempt: 1 })),
      onStep: options.onStep,
      onResume: options.onResume,
    });
  }

  private presign(body: PresignRequest, run: Run): Promise<PresignResponse> {
    return this.withRetries("presign", run, async () => {
      run.options.onStep?.("presign");
      return readPresign(await this.post("presign", PRESIGN_PATH, body, run));
    });
  }

  private complete(body: CompleteRequest, run: Run): Promise<CompleteResponse> {
    // Safe to repeat: the service answers a repeated complete exactly like the first.
    return this.withRetries("complete", run, async () => {
      run.options.onStep?.("complete");
      return readComplete(await this.post("complete", COMPLETE_PATH, body, run));
    });
  }

  private async put(path: string, size: number, address: PresignResponse, run: Run, attempt: number): Promise<void> {
    const onProgress = run.options.onProgress;
    onProgress?.({ sentBytes: 0, totalBytes: size, attempt });
    const answer = await putFile({
      url: address.uploadUrl,
      path,
      size,
      signal: run.signal,
      stallTimeoutMs: this.retry.stallTimeoutMs,
      ...(onProgress ? { onProgress: (sentBytes: number) => onProgress({ sentBytes, totalBytes: size, attempt }) } : {}),
    });
    if (answer.status === 200) return;
    throw storageRefusal(answer, this.clock.now());
  }

  /** POST a JSON body to the service; the parsed 200 answer, or a typed error. */
  private async post(step: UploadStep, path: string, body: unknown, run: Run): Promise<unknown> {
    const timeout = AbortSignal.timeout(this.retry.requestTimeoutMs);
    let response: HttpAnswer;
    try {
      response = await this.transport(
        `${this.baseUrl}${path}`,
        {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-Client-ID": this.clientId,
          Authorization: `Bearer ${this.clientSecret}`,
          "User-Agent": this.userAgent,
        },
        JSON.stringify(body),
        anySignal([run.signal, timeout]),
      );
    } catch (error) {
      if (run.signal.aborted) throw error;
      const reason = timeout.aborted
        ? `no answer within ${Math.round(this.retry.requestTimeoutMs / 1000)} s`
        : describeNetworkFailure(error);
      throw new HangarNetworkError(step, reason, { cause: error });
    }
    if (response.status !== 200) throw apiError(step, response, this.clock.now());
    try {
      return JSON.parse(response.text) as unknown;
    } catch {
      throw invalidAnswer(step, "the answer is not JSON", response);
    }
  }

  /** Runs `attempt` until it succeeds, fails for good, or the retry count or time budget is spent. */
  private async withRetries<T>(step: UploadStep, run: Run, attempt: () => Promise<T>): Promise<T> {
    for (let retry = 0; ; retry++) {
      this.throwIfStopped(step, run);
      let error: unknown;
      try {
        return await attempt();
      } catch (caught) {
        error = caught;
      }
      this.throwIfStopped(step, run, error);
      if (!(error instanceof HangarClientError) || this.givenUp.has(error)) throw error;
      const delayMs = retry < this.retry.maxRetries ? retryDelayMs(error, retry, this.retry, this.clock.random) : undefined;
      if (delayMs === undefined || this.clock.now() + delayMs >= run.deadline) {
        this.givenUp.add(error);
        throw error;
      }
      run.options.onRetry?.({ step, retry: retry + 1, maxRetries: this.retry.maxRetries, delayMs, error });
      if (delayMs > 0) {
        try {
          await this.clock.sleep(delayMs, run.signal);
        } catch (interrupted) {
          this.throwIfStopped(step, run, interrupted);
          throw interrupted;
        }
      }
    }
  }

  /** After the caller aborted or the budget ran out, every failure is reported as that. */
  private throwIfStopped(step: UploadStep, run: Run, cause?: unknown): void {
    if (run.userSignal?.aborted) throw new HangarAbortError();
    if (run.budget.aborted) throw new HangarTimeoutError(step, this.retry.timeoutMs, { cause });
  }
}

async function regularFileSize(path: string): Promise<number> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (error as Error).message;
    throw new HangarFileError(path, `cannot read ${path}: ${why}`, { cause: error });
  }
  if (!info.isFile()) throw new HangarFileError(path, `${path} is not a regular file`);
  if (info.size === 0) throw new HangarFileError(path, `${path} is empty`);
  return info.size;
}

function expiryOf(address: PresignResponse, now: number): number {
  const at = Date.parse(address.expireAt);
  return Number.isNaN(at) ? now + PRESIGN_VALIDITY_MS : at;
}

function apiError(step: UploadStep, response: HttpAnswer, now: number): HangarApiError {
  const { status, text } = response;
  let body: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed && typeof parsed.error === "object" && parsed.error !== null) body = parsed.error as Record<string, unknown>;
  } catch {
    // Not our JSON (a gateway's or proxy's page): fall back to the status.
  }
  const { code, message, requestId, ...details } = body ?? {};
  const location = response.headers.get("location");
  const init: ApiErrorInit = {
    step,
    status,
    code: typeof code === "string" ? code : `http_${status}`,
    message:
      typeof message === "string"
        ? message
        : status >= 300 && status < 400
          ? `the service redirected to ${location ?? "another address"}; point the URL there`
          : text.trim().slice(0, 200) || response.statusText || "no details",
    requestId: typeof requestId === "string" ? requestId : (response.headers.get("apigw-requestid") ?? undefined),
    details,
    // X-RateLimit-Reset is on every answer; it only means "wait" on a 429.
    retryAfterMs: status === 429 ? serverWaitMs(response.headers, now) : parseRetryAfter(response.headers.get("retry-after"), now),
  };
  if (status === 401 || status === 403) return new HangarAuthError(init);
  if (status === 429) return new HangarRateLimitError(init);
  if (status === 422 || (status === 409 && (init.code === "upload_mismatch" || init.code === "size_mismatch"))) {
    return new HangarRejectedError(init);
  }
  // A tester group named by --groups that the workspace does not have: the request's fault (exit 2).
  if (status === 400 || status === 413 || status === 415 || (status === 404 && init.code === "group_not_found") || (status >= 300 && status < 400)) {
    return new HangarRequestError(init);
  }
  return new HangarApiError(init);
}

function invalidAnswer(step: UploadStep, message: string, response?: HttpAnswer): HangarApiError {
  return new HangarApiError({
    step,
    status: response?.status ?? 200,
    code: "invalid_response",
    message,
    requestId: response?.headers.get("apigw-requestid") ?? undefined,
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readPresign(json: unknown): PresignResponse {
  if (!isRecord(json)) throw invalidAnswer("presign", "the answer is not a JSON object");
  const { fileId, key, uploadUrl, expireAt } = json;
  if (typeof fileId !== "string" || typeof key !== "string" || typeof uploadUrl !== "string" || typeof expireAt !== "string") {
    throw invalidAnswer("presign", "the answer lacks fileId, key, uploadUrl or expireAt");
  }
  if (!/^https?:\/\//i.test(uploadUrl)) throw invalidAnswer("presign", "uploadUrl is not an http(s) address");
  return { fileId, key, uploadUrl, expireAt };
}

function readComplete(json: unknown): CompleteResponse {
  if (!isRecord(json)) throw invalidAnswer("complete", "the answer is not a JSON object");
  const { fileId, userKey, downloadUrl, shareUrl, message, metadata } = json;
  if (typeof fileId !== "string" || typeof userKey !== "string" || typeof downloadUrl !== "string" || typeof shareUrl !== "string") {
    throw invalidAnswer("complete", "the answer lacks fileId, userKey, downloadUrl or shareUrl");
  }
  const meta = isRecord(metadata) ? metadata : {};
  const text = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));
  const packageMetadata: PackageMetadata = {
    ...meta,
    appName: text(meta["appName"]),
    bundleId: text(meta["bundleId"]),
    version: text(meta["version"]),
  };
  return { ...json, message: text(message), fileId, userKey, downloadUrl, shareUrl, metadata: packageMetadata };
}

/**
 * The share link's QR code (an SVG the service draws) and, for iOS builds, the itms-services link
 * that installs over the air, derived from shareUrl when the service does not send them itself.
 * A build the service says testers cannot install (`metadata.installable: false`) gets no install
 * link: a CI step would otherwise post a link that fails on every phone. Its `installable` and
 * `reason` are repeated at the top of the result (absent when an older service does not say).
 */
export function installLinks(completed: CompleteResponse): { qrCodeUrl: string; installUrl?: string; installable?: boolean; reason?: string } {
  const qrCodeUrl = typeof completed.qrCodeUrl === "string" ? completed.qrCodeUrl : `${completed.shareUrl}/qr.svg`;
  const { installable, reason } = completed.metadata;
  const said =
    installable === false
      ? { installable: false, ...(typeof reason === "string" ? { reason } : {}) }
      : installable === true
        ? { installable: true }
        : {};
  if (completed.metadata["platform"] !== "ios" || installable === false) return { qrCodeUrl, ...said };
  const installUrl =
    typeof completed.installUrl === "string"
      ? completed.installUrl
      : `itms-services://?action=download-manifest&url=${encodeURIComponent(`${completed.shareUrl}/manifest.plist`)}`;
  return { qrCodeUrl, installUrl, ...said };
}
