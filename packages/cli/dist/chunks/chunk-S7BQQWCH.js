import {
  VERSION
} from "./chunk-3WA5LAVB.js";
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
  anySignal,
  defaultRetryOptions,
  describeNetworkFailure,
  isRefusedUploadAddress,
  parseRetryAfter,
  putFile,
  retryDelayMs,
  serverWaitMs,
  storageRefusal,
  systemRetryClock
} from "./chunk-3VOYXSK4.js";
import {
  EXIT_FAILURE,
  EXIT_OK,
  EXIT_USAGE,
  UsageError,
  parseCommandArgs,
  usageText
} from "./chunk-OA5U4LFR.js";

// src/commands/upload.ts
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename as basename2, isAbsolute, join } from "node:path";

// src/config/config-file.ts
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
var MAX_CONFIG_BYTES = 64 * 1024;
var KEYS = {
  HANGAR_URL: "url",
  HANGAR_CLIENT_ID: "clientId",
  HANGAR_CLIENT_SECRET: "clientSecret",
  url: "url",
  clientId: "clientId",
  clientSecret: "clientSecret"
};
function loadConfigFile(path) {
  const { text, mode } = readSmallFile(path);
  const warnings = [];
  if (process.platform !== "win32" && (mode & 63) !== 0) {
    const octal = (mode & 511).toString(8).padStart(3, "0");
    warnings.push(`${path} can be read by other users (mode ${octal}); run: chmod 600 ${path}`);
  }
  const body = text.replace(/^\uFEFF/, "");
  const json = /\.json$/i.test(path) || /^\s*[{[]/.test(body);
  const settings = json ? parseJson(path, body) : parseDotenv(path, body);
  return { settings, warnings };
}
function readSmallFile(path) {
  let fd;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    const code = error.code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code ?? "cannot open";
    throw new UsageError(`cannot read the config file ${path}: ${why}`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new UsageError(`the config file ${path} is not a regular file`);
    if (info.size > MAX_CONFIG_BYTES) throw new UsageError(`the config file ${path} is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
    const buffer = Buffer.alloc(info.size);
    let filled = 0;
    while (filled < buffer.length) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { text: buffer.subarray(0, filled).toString("utf8"), mode: info.mode };
  } finally {
    closeSync(fd);
  }
}
function parseJson(path, text) {
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`the config file ${path} is not valid JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`the config file ${path} must hold a JSON object`);
  }
  const settings = {};
  for (const [key, value] of Object.entries(parsed)) {
    const field = Object.hasOwn(KEYS, key) ? KEYS[key] : void 0;
    if (!field) continue;
    if (typeof value !== "string") throw new UsageError(`the config file ${path}: "${key}" must be a string`);
    settings[field] = value;
  }
  return settings;
}
function parseDotenv(path, text) {
  const settings = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) throw new UsageError(`the config file ${path}: line ${index + 1} is not NAME=value`);
    const [, name, rest] = match;
    const value = dotenvValue(rest);
    if (value === void 0) throw new UsageError(`the config file ${path}: line ${index + 1} has an unclosed quote`);
    const field = Object.hasOwn(KEYS, name) && name.startsWith("HANGAR_") ? KEYS[name] : void 0;
    if (field) settings[field] = value;
  });
  return settings;
}
function dotenvValue(rest) {
  if (rest.startsWith("'")) {
    const end = rest.indexOf("'", 1);
    return end < 0 ? void 0 : rest.slice(1, end);
  }
  if (rest.startsWith('"')) {
    const quoted = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    return quoted ? quoted[1].replace(/\\(.)/g, (_, c) => c === "n" ? "\n" : c) : void 0;
  }
  return rest.replace(/\s+#.*$/, "").trim();
}

// src/client/api-types.ts
var APK_MEDIA_TYPE = "application/vnd.android.package-archive";
var GENERIC_MEDIA_TYPE = "application/octet-stream";
function mediaTypeFor(fileName) {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".apk")) return APK_MEDIA_TYPE;
  if (lower.endsWith(".ipa")) return GENERIC_MEDIA_TYPE;
  return void 0;
}

// src/client/hangar-client.ts
import { stat } from "node:fs/promises";
import { basename } from "node:path";

// src/client/json-transport.ts
import http from "node:http";
import https from "node:https";
var MAX_ANSWER_BYTES = 1 << 20;
var nodeJsonPost = (url, headers, body, signal) => new Promise((resolve, reject) => {
  const target = new URL(url);
  const send = target.protocol === "https:" ? https.request : http.request;
  const payload = Buffer.from(body, "utf8");
  const request = send(target, {
    method: "POST",
    headers: { ...headers, "Content-Length": String(payload.length) },
    signal
  });
  request.on("error", reject);
  request.on("response", (res) => {
    const chunks = [];
    let size = 0;
    res.on("data", (chunk) => {
      if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
      size += chunk.length;
    });
    res.on("error", reject);
    res.on("end", () => {
      const raw = res.headers;
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? "",
        headers: {
          get: (name) => {
            const value = raw[name.toLowerCase()];
            return value === void 0 ? null : Array.isArray(value) ? value.join(", ") : value;
          }
        },
        text: Buffer.concat(chunks).toString("utf8").slice(0, MAX_ANSWER_BYTES)
      });
    });
  });
  request.end(payload);
});
function fetchJsonPost(fetchImpl) {
  return async (url, headers, body, signal) => {
    const response = await fetchImpl(url, { method: "POST", headers, body, redirect: "manual", signal });
    return { status: response.status, statusText: response.statusText, headers: response.headers, text: await response.text() };
  };
}

// src/client/hangar-client.ts
var CLIENT_VERSION = VERSION;
var PRESIGN_PATH = "/api/upload/api-key/presign";
var COMPLETE_PATH = "/api/upload/api-key/complete";
var ADDRESS_EXPIRY_MARGIN_MS = 3e4;
var PRESIGN_VALIDITY_MS = 15 * 6e4;
var DEFAULT_MULTIPART_THRESHOLD = 64 * 1024 ** 2;
var DEFAULT_PARALLEL_PARTS = 4;
var MAX_SINGLE_PUT = 5 * 1024 ** 3;
var HangarClient = class {
  baseUrl;
  retry;
  clientId;
  clientSecret;
  transport;
  clock;
  userAgent;
  /** Errors a retry loop already gave up on: an enclosing loop (PUT around a re-presign) must not retry them again. */
  givenUp = /* @__PURE__ */ new WeakSet();
  constructor(options) {
    let base;
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
  async upload(path, options = {}) {
    const fileName = options.fileName ?? basename(path);
    const fileType = mediaTypeFor(fileName);
    if (!fileType) throw new HangarFileError(path, `${fileName}: only .apk and .ipa files can be uploaded`);
    const fileSize = await regularFileSize(path);
    const declared = { fileName, fileSize, fileType };
    const budgetController = new AbortController();
    const budgetTimer = setTimeout(() => budgetController.abort(new Error("time budget exhausted")), this.retry.timeoutMs);
    const run2 = {
      signal: options.signal ? anySignal([options.signal, budgetController.signal]) : budgetController.signal,
      userSignal: options.signal,
      budget: budgetController.signal,
      deadline: this.clock.now() + this.retry.timeoutMs,
      options
    };
    const started = this.clock.now();
    const timings = { presignMs: 0, putMs: 0, completeMs: 0, totalMs: 0 };
    const timed = async (field, work) => {
      const from = this.clock.now();
      try {
        return await work();
      } finally {
        timings[field] += this.clock.now() - from;
      }
    };
    try {
      this.throwIfStopped("presign", run2);
      const threshold = options.multipart?.thresholdBytes ?? DEFAULT_MULTIPART_THRESHOLD;
      if (fileSize >= threshold || fileSize > MAX_SINGLE_PUT) {
        const parts = await this.uploadInParts(path, declared, run2);
        const completed2 = readComplete(parts.completed);
        const { installUrl: _decidedBelow2, ...answer2 } = completed2;
        return { ...answer2, ...installLinks(completed2), timings: { ...parts.timings, totalMs: this.clock.now() - started } };
      }
      let address = await timed("presignMs", () => this.presign(declared, run2));
      let freshAddressNeeded = false;
      let attempt = 0;
      const putStarted = this.clock.now();
      const presignBeforePut = timings.presignMs;
      await this.withRetries("put", run2, async () => {
        if (freshAddressNeeded || this.clock.now() >= expiryOf(address, this.clock.now()) - ADDRESS_EXPIRY_MARGIN_MS) {
          address = await timed("presignMs", () => this.presign(declared, run2));
          freshAddressNeeded = false;
        }
        attempt += 1;
        options.onStep?.("put");
        try {
          await this.put(path, fileSize, address, run2, attempt);
        } catch (error) {
          if (isRefusedUploadAddress(error)) freshAddressNeeded = true;
          throw error;
        }
      });
      timings.putMs = this.clock.now() - putStarted - (timings.presignMs - presignBeforePut);
      const completed = await timed("completeMs", () => this.complete({ ...declared, key: address.key, ...options.context }, run2));
      timings.totalMs = this.clock.now() - started;
      const { installUrl: _decidedBelow, ...answer } = completed;
      return { ...answer, ...installLinks(completed), timings };
    } finally {
      clearTimeout(budgetTimer);
    }
  }
  /** Loaded on first use: small uploads and `hangar --version` never parse the multipart code. */
  async uploadInParts(path, declared, run2) {
    const { uploadInParts } = await import("./multipart-upload-33LUD6FV.js");
    const options = run2.options;
    const onProgress = options.onProgress;
    return uploadInParts({
      path,
      declared,
      context: options.context,
      parallel: options.multipart?.parallel ?? DEFAULT_PARALLEL_PARTS,
      cacheDir: options.multipart?.cacheDir,
      identity: `${this.baseUrl} ${this.clientId}`,
      signal: run2.signal,
      stallTimeoutMs: this.retry.stallTimeoutMs,
      now: () => this.clock.now(),
      call: (step, route, body, announce = true) => this.withRetries(step, run2, async () => {
        if (announce) options.onStep?.(step);
        return this.post(step, route, body, run2);
      }),
      retrying: (step, attempt) => this.withRetries(step, run2, attempt),
      onProgress: onProgress && ((p) => onProgress({ ...p, attempt: 1 })),
      onStep: options.onStep,
      onResume: options.onResume
    });
  }
  presign(body, run2) {
    return this.withRetries("presign", run2, async () => {
      run2.options.onStep?.("presign");
      return readPresign(await this.post("presign", PRESIGN_PATH, body, run2));
    });
  }
  complete(body, run2) {
    return this.withRetries("complete", run2, async () => {
      run2.options.onStep?.("complete");
      return readComplete(await this.post("complete", COMPLETE_PATH, body, run2));
    });
  }
  async put(path, size, address, run2, attempt) {
    const onProgress = run2.options.onProgress;
    onProgress?.({ sentBytes: 0, totalBytes: size, attempt });
    const answer = await putFile({
      url: address.uploadUrl,
      path,
      size,
      signal: run2.signal,
      stallTimeoutMs: this.retry.stallTimeoutMs,
      ...onProgress ? { onProgress: (sentBytes) => onProgress({ sentBytes, totalBytes: size, attempt }) } : {}
    });
    if (answer.status === 200) return;
    throw storageRefusal(answer, this.clock.now());
  }
  /** POST a JSON body to the service; the parsed 200 answer, or a typed error. */
  async post(step, path, body, run2) {
    const timeout = AbortSignal.timeout(this.retry.requestTimeoutMs);
    let response;
    try {
      response = await this.transport(
        `${this.baseUrl}${path}`,
        {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-Client-ID": this.clientId,
          Authorization: `Bearer ${this.clientSecret}`,
          "User-Agent": this.userAgent
        },
        JSON.stringify(body),
        anySignal([run2.signal, timeout])
      );
    } catch (error) {
      if (run2.signal.aborted) throw error;
      const reason = timeout.aborted ? `no answer within ${Math.round(this.retry.requestTimeoutMs / 1e3)} s` : describeNetworkFailure(error);
      throw new HangarNetworkError(step, reason, { cause: error });
    }
    if (response.status !== 200) throw apiError(step, response, this.clock.now());
    try {
      return JSON.parse(response.text);
    } catch {
      throw invalidAnswer(step, "the answer is not JSON", response);
    }
  }
  /** Runs `attempt` until it succeeds, fails for good, or the retry count or time budget is spent. */
  async withRetries(step, run2, attempt) {
    for (let retry = 0; ; retry++) {
      this.throwIfStopped(step, run2);
      let error;
      try {
        return await attempt();
      } catch (caught) {
        error = caught;
      }
      this.throwIfStopped(step, run2, error);
      if (!(error instanceof HangarClientError) || this.givenUp.has(error)) throw error;
      const delayMs = retry < this.retry.maxRetries ? retryDelayMs(error, retry, this.retry, this.clock.random) : void 0;
      if (delayMs === void 0 || this.clock.now() + delayMs >= run2.deadline) {
        this.givenUp.add(error);
        throw error;
      }
      run2.options.onRetry?.({ step, retry: retry + 1, maxRetries: this.retry.maxRetries, delayMs, error });
      if (delayMs > 0) {
        try {
          await this.clock.sleep(delayMs, run2.signal);
        } catch (interrupted) {
          this.throwIfStopped(step, run2, interrupted);
          throw interrupted;
        }
      }
    }
  }
  /** After the caller aborted or the budget ran out, every failure is reported as that. */
  throwIfStopped(step, run2, cause) {
    if (run2.userSignal?.aborted) throw new HangarAbortError();
    if (run2.budget.aborted) throw new HangarTimeoutError(step, this.retry.timeoutMs, { cause });
  }
};
async function regularFileSize(path) {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = error.code;
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : error.message;
    throw new HangarFileError(path, `cannot read ${path}: ${why}`, { cause: error });
  }
  if (!info.isFile()) throw new HangarFileError(path, `${path} is not a regular file`);
  if (info.size === 0) throw new HangarFileError(path, `${path} is empty`);
  return info.size;
}
function expiryOf(address, now) {
  const at = Date.parse(address.expireAt);
  return Number.isNaN(at) ? now + PRESIGN_VALIDITY_MS : at;
}
function apiError(step, response, now) {
  const { status, text } = response;
  let body;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.error === "object" && parsed.error !== null) body = parsed.error;
  } catch {
  }
  const { code, message, requestId, ...details } = body ?? {};
  const location = response.headers.get("location");
  const init = {
    step,
    status,
    code: typeof code === "string" ? code : `http_${status}`,
    message: typeof message === "string" ? message : status >= 300 && status < 400 ? `the service redirected to ${location ?? "another address"}; point the URL there` : text.trim().slice(0, 200) || response.statusText || "no details",
    requestId: typeof requestId === "string" ? requestId : response.headers.get("apigw-requestid") ?? void 0,
    details,
    // X-RateLimit-Reset is on every answer; it only means "wait" on a 429.
    retryAfterMs: status === 429 ? serverWaitMs(response.headers, now) : parseRetryAfter(response.headers.get("retry-after"), now)
  };
  if (status === 401 || status === 403) return new HangarAuthError(init);
  if (status === 429) return new HangarRateLimitError(init);
  if (status === 422 || status === 409 && (init.code === "upload_mismatch" || init.code === "size_mismatch")) {
    return new HangarRejectedError(init);
  }
  if (status === 400 || status === 413 || status === 415 || status === 404 && init.code === "group_not_found" || status >= 300 && status < 400) {
    return new HangarRequestError(init);
  }
  return new HangarApiError(init);
}
function invalidAnswer(step, message, response) {
  return new HangarApiError({
    step,
    status: response?.status ?? 200,
    code: "invalid_response",
    message,
    requestId: response?.headers.get("apigw-requestid") ?? void 0
  });
}
var isRecord = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function readPresign(json) {
  if (!isRecord(json)) throw invalidAnswer("presign", "the answer is not a JSON object");
  const { fileId, key, uploadUrl, expireAt } = json;
  if (typeof fileId !== "string" || typeof key !== "string" || typeof uploadUrl !== "string" || typeof expireAt !== "string") {
    throw invalidAnswer("presign", "the answer lacks fileId, key, uploadUrl or expireAt");
  }
  if (!/^https?:\/\//i.test(uploadUrl)) throw invalidAnswer("presign", "uploadUrl is not an http(s) address");
  return { fileId, key, uploadUrl, expireAt };
}
function readComplete(json) {
  if (!isRecord(json)) throw invalidAnswer("complete", "the answer is not a JSON object");
  const { fileId, userKey, downloadUrl, shareUrl, message, metadata } = json;
  if (typeof fileId !== "string" || typeof userKey !== "string" || typeof downloadUrl !== "string" || typeof shareUrl !== "string") {
    throw invalidAnswer("complete", "the answer lacks fileId, userKey, downloadUrl or shareUrl");
  }
  const meta = isRecord(metadata) ? metadata : {};
  const text = (v) => typeof v === "string" ? v : v === void 0 || v === null ? "" : String(v);
  const packageMetadata = {
    ...meta,
    appName: text(meta["appName"]),
    bundleId: text(meta["bundleId"]),
    version: text(meta["version"])
  };
  return { ...json, message: text(message), fileId, userKey, downloadUrl, shareUrl, metadata: packageMetadata };
}
function installLinks(completed) {
  const qrCodeUrl = typeof completed.qrCodeUrl === "string" ? completed.qrCodeUrl : `${completed.shareUrl}/qr.svg`;
  const { installable, reason } = completed.metadata;
  const said = installable === false ? { installable: false, ...typeof reason === "string" ? { reason } : {} } : installable === true ? { installable: true } : {};
  if (completed.metadata["platform"] !== "ios" || installable === false) return { qrCodeUrl, ...said };
  const installUrl = typeof completed.installUrl === "string" ? completed.installUrl : `itms-services://?action=download-manifest&url=${encodeURIComponent(`${completed.shareUrl}/manifest.plist`)}`;
  return { qrCodeUrl, installUrl, ...said };
}

// src/client/github-output.ts
import { randomBytes } from "node:crypto";
import { appendFileSync } from "node:fs";
function formatGithubOutput(values, makeDelimiter = () => `ghadelimiter_${randomBytes(16).toString("hex")}`) {
  let text = "";
  for (const [name, value] of Object.entries(values)) {
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new Error(`invalid output name: ${name}`);
    let delimiter = makeDelimiter();
    for (let tries = 0; value.includes(delimiter) || name.includes(delimiter); tries++) {
      if (tries >= 10) throw new Error(`cannot find a delimiter for output ${name}`);
      delimiter = makeDelimiter();
    }
    text += `${name}<<${delimiter}
${value}
${delimiter}
`;
  }
  return text;
}
function appendGithubOutput(path, values) {
  appendFileSync(path, formatGithubOutput(values), "utf8");
}

// ../inspect/src/format/format-bytes.ts
var UNITS = ["B", "kB", "MB", "GB", "TB"];
function formatBytes(bytes) {
  let value = bytes;
  let unit = 0;
  while (value >= 1e3 && unit < UNITS.length - 1) {
    value /= 1e3;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

// src/client/progress-reporter.ts
var REDRAW_MS = 100;
var LINE_PERCENT_STEP = 10;
var LINE_EVERY_MS = 5e3;
var BAR_WIDTH = 24;
var formatBytes2 = formatBytes;
function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) return "--";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s % 3600 / 60)).padStart(2, "0")}m`;
}
var ProgressReporter = class {
  constructor(options) {
    this.options = options;
    this.tty = options.tty ?? options.stream.isTTY === true;
    this.now = options.now ?? Date.now;
  }
  tty;
  now;
  attempt = 0;
  attemptStarted = 0;
  lastDraw = -Infinity;
  lastLineAt = 0;
  lastLineStep = -1;
  barShown = false;
  update(progress) {
    const now = this.now();
    if (progress.attempt !== this.attempt) {
      this.attempt = progress.attempt;
      this.attemptStarted = now;
      this.lastLineAt = now;
      this.lastLineStep = -1;
    }
    const done = progress.sentBytes >= progress.totalBytes;
    const elapsed = (now - this.attemptStarted) / 1e3;
    const rate = elapsed > 0 ? Math.max(0, progress.sentBytes - (progress.resumedBytes ?? 0)) / elapsed : 0;
    const eta = rate > 0 ? (progress.totalBytes - progress.sentBytes) / rate : Infinity;
    const fraction = progress.totalBytes > 0 ? progress.sentBytes / progress.totalBytes : 1;
    const percent = Math.floor(fraction * 100);
    if (this.tty) {
      if (!done && now - this.lastDraw < REDRAW_MS) return;
      this.lastDraw = now;
      const filled = Math.round(fraction * BAR_WIDTH);
      const bar = "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled);
      const line = `${this.options.label} [${bar}] ${String(percent).padStart(3)}% ${formatBytes2(progress.sentBytes)}/${formatBytes2(progress.totalBytes)} ${formatBytes2(rate)}/s ETA ${done ? "0s" : formatDuration(eta)}`;
      const width = this.options.stream.columns || 100;
      this.options.stream.write(`\r\x1B[2K${line.slice(0, Math.max(20, width - 1))}`);
      this.barShown = true;
      if (done) this.endBar();
      return;
    }
    const step = Math.floor(percent / LINE_PERCENT_STEP);
    const stepReached = step > this.lastLineStep && (step > 0 || done);
    if (!stepReached && now - this.lastLineAt < LINE_EVERY_MS) return;
    if (progress.sentBytes === 0 && !done) return;
    this.lastLineStep = Math.max(this.lastLineStep, step);
    this.lastLineAt = now;
    this.options.stream.write(
      `uploading ${this.options.label}: ${percent}% (${formatBytes2(progress.sentBytes)} of ${formatBytes2(progress.totalBytes)}, ${formatBytes2(rate)}/s${done ? "" : `, ETA ${formatDuration(eta)}`})
`
    );
  }
  /** A message of its own line (a retry notice), without tearing the bar. */
  note(message) {
    this.endBar();
    this.options.stream.write(`${message}
`);
  }
  endBar() {
    if (!this.barShown) return;
    this.barShown = false;
    this.options.stream.write("\n");
  }
};

// src/client/redact.ts
var MIN_SECRET_LENGTH = 4;
function createRedactor(secrets) {
  const literal = secrets.filter((s) => typeof s === "string" && s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of literal) out = out.split(secret).join("***");
    return out.replace(/(Bearer\s+)[^\s"',;]+/gi, "$1***").replace(/([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature)=)[^&\s"']*/gi, "$1***");
  };
}

// src/client/build-changes.ts
var CHANGE_KINDS = [
  "version-changed",
  "build-number-decreased",
  "build-number-repeated",
  "size-changed",
  "min-os-raised",
  "min-os-lowered",
  "target-sdk-raised",
  "target-sdk-lowered",
  "permission-added",
  "permission-removed",
  "entitlement-added",
  "entitlement-removed",
  "signing-key-changed",
  "profile-kind-changed",
  "team-changed",
  "profile-expiry-changed",
  "profile-devices-changed"
];
var CHANGE_KIND_GROUPS = {
  "build-number-not-increased": ["build-number-decreased", "build-number-repeated"]
};
function parseChangeKinds(list) {
  const kinds = /* @__PURE__ */ new Set();
  const unknown = [];
  for (const raw of list.split(",")) {
    const name = raw.trim();
    if (!name) continue;
    if (CHANGE_KINDS.includes(name)) kinds.add(name);
    else if (Object.hasOwn(CHANGE_KIND_GROUPS, name)) for (const kind of CHANGE_KIND_GROUPS[name]) kinds.add(kind);
    else unknown.push(name);
  }
  return { kinds: [...kinds], unknown };
}
var SEVERITY_ORDER = { danger: 0, warning: 1, info: 2 };
function diffOf(answer) {
  const diff = answer.diff;
  if (diff === null) return null;
  if (typeof diff !== "object" || diff === void 0 || !Array.isArray(diff.changes)) return void 0;
  const changes = diff.changes.filter(
    (c) => typeof c === "object" && c !== null && typeof c.kind === "string" && typeof c.message === "string" && typeof c.severity === "string"
  );
  changes.sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 3) - (SEVERITY_ORDER[b.severity] ?? 3));
  return { previous: diff.previous, changes };
}
var describeChange = (c) => `${printable(c.kind)}: ${printable(c.message)}`;
function gatedChanges(diff, failOn) {
  return diff ? diff.changes.filter((c) => failOn.includes(c.kind)) : [];
}
var printable = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
var COLOR = { danger: "\x1B[31m", warning: "\x1B[33m", info: "\x1B[2m" };
var RESET = "\x1B[0m";
var buildName = (previous) => printable(`${previous.version}${previous.buildNumber ? ` (${previous.buildNumber})` : ""}`);
function formatChanges(diff, color) {
  if (diff === void 0) return "";
  if (diff === null) return "  Changes:   none to show (the first build of this app in the project)\n";
  if (diff.changes.length === 0) return `  Changes:   none since ${buildName(diff.previous)}
`;
  const lines = diff.changes.map((c) => {
    const label = c.severity.toUpperCase().padEnd(7);
    const painted = color && COLOR[c.severity] ? `${COLOR[c.severity]}${label}${RESET}` : label;
    return `    ${painted}  ${printable(c.message)} [${printable(c.kind)}]`;
  });
  return `  Changes since ${buildName(diff.previous)}:
${lines.join("\n")}
`;
}

// src/commands/upload.ts
var UPLOAD_EXIT = {
  ok: EXIT_OK,
  /** A bug or an unexpected failure: not one of the cases below. */
  internal: EXIT_FAILURE,
  usage: EXIT_USAGE,
  auth: 3,
  rateLimited: 4,
  server: 5,
  rejected: 6,
  /** Uploaded, but a change `--fail-on` names occurred (the release gate): the build stays available. */
  gate: 7,
  /** 128 + SIGINT, as shells report a Ctrl-C. */
  interrupted: 130,
  /** 128 + SIGTERM: a cancelled CI job (GitLab, Docker stop, a runner's timeout). */
  terminated: 143
};
var HELP = `Usage: hangar upload <file.apk|file.ipa> [options]

Uploads a build to Hangar (presign, PUT to storage, complete) and prints its share and
download links, app name, bundle id and version. The file is streamed, never loaded in memory.

Credentials (flags override the environment, which overrides the config file):
  --url <address>          HANGAR_URL            base address of the service
  --client-id <id>         HANGAR_CLIENT_ID
  --client-secret <secret> HANGAR_CLIENT_SECRET  prefer the variable: arguments are visible
                                                 to other processes on the machine
  --config <file>          HANGAR_CONFIG         JSON ({"url","clientId","clientSecret"}) or
                                                 dotenv (HANGAR_URL=...) file; keep it chmod 600

Options:
  --name <file name>       Name announced to the service (default: the file's name).
  --notes <text>           Release notes shown on the share page (at most 5,000 characters).
  --notes-file <file>      Read the release notes from a UTF-8 file ("-" reads stdin).
  --groups <names>         Send the build to these tester groups (names or ids, comma-separated:
                           --groups qa,beta); an unknown group fails before the build completes.
  --testers <addresses>    Send the build to these addresses too (comma-separated).
  --message <text>         A message to the testers in the build mail (at most 1,000 characters).
  --no-notify              Make the build available to them (their tester portal) without a mail.
  --no-verify              Do not check the file locally before uploading (by default a
                           file the service would refuse as not an APK/IPA is refused
                           here, exit 6, and nothing is sent).
  --no-ci-context          Do not send the branch, commit and CI run URL read from GitHub
                           Actions, GitLab CI or Bitrise variables (sent by default).
  --fail-on <kinds>        Release gate: exit 7 AFTER uploading when one of these changes since
                           the previous build of the app occurred (comma-separated kinds, e.g.
                           signing-key-changed,permission-added,build-number-not-increased;
                           docs/release-safety.md lists them). An unknown kind is a usage error
                           before anything is sent. The build stays uploaded, to inspect.
  --json                   Print the service's answer plus "timings" (ms) as JSON on stdout,
                           and nothing else there. A failure prints {"error":{...}}.
  --github-output          Append share_url, download_url, file_id, user_key, version,
                           app_name, bundle_id, qr_code_url (and install_url for an iOS
                           build testers can install), changes (JSON), danger_changes (a count)
                           and failed_changes (the kinds --fail-on caught) to $GITHUB_OUTPUT
                           (automatic when set).
  -q, --quiet              No progress and no retry notices (errors are still printed).
  -v, --verbose            Log each step and its timings to stderr (secrets redacted).
  --multipart-threshold <size>
                           HANGAR_MULTIPART_THRESHOLD: files of at least this size go in parallel
                           parts, resumable (default 64MiB; bytes, or with KiB, MiB, GiB). Files
                           past 5 GiB always do. Rerun the same command after a crash or a kill
                           and the parts already stored are not sent again (state in
                           HANGAR_CACHE_DIR, else $XDG_CACHE_HOME/hangar or ~/.cache/hangar; on
                           macOS ~/Library/Caches/hangar; removed once the upload completes).
  --parallel <n>           Parts sent at once (default ${DEFAULT_PARALLEL_PARTS}, at most 32).
  --max-retries <n>        Retries per step on 5xx, network errors and 429 (default ${defaultRetryOptions.maxRetries}).
  --timeout <seconds>      Time budget of the whole upload, retries included (default ${defaultRetryOptions.timeoutMs / 1e3}).
  -h, --help               Show this help.

Exit codes:
  0    uploaded
  1    unexpected internal error (a bug: please report it)
  2    usage: bad arguments or credentials setup, unreadable file, not .apk/.ipa, or a request
       the service refuses as such (400, 413 file too large, 415 file type)
  3    authentication: the service answered 401/403 (wrong or revoked key)
  4    rate limited: still 429 after the retries or the time budget
  5    server or network: 5xx or no answer after the retries, time budget spent, storage
       refusing the PUT, or any other unexpected answer
  6    package rejected: the local check or the service's 422 invalid_package (not an APK/IPA
       it can read; "reason" says why), 409 upload_mismatch/size_mismatch (final; retrying
       the same file will not help)
  7    release gate: uploaded, but a change named by --fail-on occurred (the message names the
       changes and the build's page); also when the service reported no diff to check
  130  interrupted (Ctrl-C / SIGINT); 143 on SIGTERM (a cancelled CI job). In-flight requests
       are aborted; nothing is left half-done on the client side
`;
function parseUploadArgs(args, env, secrets = []) {
  const parsed = parseCommandArgs(
    args,
    {
      url: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      config: { type: "string" },
      name: { type: "string" },
      notes: { type: "string" },
      "notes-file": { type: "string" },
      groups: { type: "string" },
      testers: { type: "string" },
      message: { type: "string" },
      "no-notify": { type: "boolean", default: false },
      "no-ci-context": { type: "boolean", default: false },
      "no-verify": { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      "github-output": { type: "boolean", default: false },
      quiet: { type: "boolean", short: "q", default: false },
      verbose: { type: "boolean", short: "v", default: false },
      "max-retries": { type: "string" },
      timeout: { type: "string" },
      "multipart-threshold": { type: "string" },
      parallel: { type: "string" },
      "fail-on": { type: "string" }
    },
    { missing: "missing the file to upload", tooMany: "give exactly one file to upload" }
  );
  if (parsed === "help") return "help";
  const { values, file } = parsed;
  const fileName = values.name ?? basename2(file);
  if (!mediaTypeFor(fileName)) throw new UsageError(`${fileName}: only .apk and .ipa files can be uploaded`);
  const configPath = values.config ?? (env.HANGAR_CONFIG || void 0);
  let fromFile = {};
  let config;
  if (configPath !== void 0) {
    if (configPath === "") throw new UsageError("--config needs a file path");
    const loaded = loadConfigFile(configPath);
    fromFile = loaded.settings;
    if (fromFile.clientSecret) secrets.push(fromFile.clientSecret);
    config = { path: configPath, used: [], warnings: loaded.warnings };
  }
  const pick = (flag, variable, fileValue) => {
    if (flag !== void 0) return flag;
    if (env[variable]) return env[variable];
    if (fileValue) config?.used.push(variable);
    return fileValue;
  };
  const url = pick(values.url, "HANGAR_URL", fromFile.url);
  const clientId = pick(values["client-id"], "HANGAR_CLIENT_ID", fromFile.clientId);
  const clientSecret = pick(values["client-secret"], "HANGAR_CLIENT_SECRET", fromFile.clientSecret);
  const missing = [
    !url && "HANGAR_URL (or --url)",
    !clientId && "HANGAR_CLIENT_ID (or --client-id)",
    !clientSecret && "HANGAR_CLIENT_SECRET (or --client-secret)"
  ].filter(Boolean);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(", ")}${config ? ` (not in ${config.path} either)` : ""}`);
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw new UsageError(`the service URL must be an http(s) address, got "${url}"`);
  const retry = {};
  if (values["max-retries"] !== void 0) {
    const n = Number(values["max-retries"]);
    if (!/^\d+$/.test(values["max-retries"]) || n > 100) throw new UsageError("--max-retries takes a whole number from 0 to 100");
    retry.maxRetries = n;
  }
  if (values.timeout !== void 0) {
    const seconds = Number(values.timeout);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 7 * 24 * 3600) {
      throw new UsageError("--timeout takes a positive number of seconds (at most a week)");
    }
    retry.timeoutMs = Math.round(seconds * 1e3);
  }
  const thresholdText = values["multipart-threshold"] ?? (env.HANGAR_MULTIPART_THRESHOLD || void 0);
  const thresholdBytes = thresholdText === void 0 ? DEFAULT_MULTIPART_THRESHOLD : parseSize(thresholdText);
  if (thresholdBytes === void 0 || thresholdBytes < 1) {
    throw new UsageError(`--multipart-threshold (HANGAR_MULTIPART_THRESHOLD) takes a size such as 64MiB or 100000000, got "${thresholdText}"`);
  }
  let parallel = DEFAULT_PARALLEL_PARTS;
  if (values.parallel !== void 0) {
    parallel = Number(values.parallel);
    if (!/^\d+$/.test(values.parallel) || parallel < 1 || parallel > 32) throw new UsageError("--parallel takes a whole number from 1 to 32");
  }
  if (values.notes !== void 0 && values["notes-file"] !== void 0) throw new UsageError("give --notes or --notes-file, not both");
  let releaseNotes = values.notes;
  if (values["notes-file"] !== void 0) {
    try {
      releaseNotes = readFileSync(values["notes-file"] === "-" ? 0 : values["notes-file"], "utf8");
    } catch (error) {
      throw new UsageError(`--notes-file: cannot read ${values["notes-file"]} (${error.code ?? error.message})`);
    }
  }
  releaseNotes = releaseNotes?.replace(/\r\n?/g, "\n").trim();
  if (releaseNotes !== void 0 && [...releaseNotes].length > MAX_NOTES) throw new UsageError(`release notes are ${[...releaseNotes].length} characters; at most ${MAX_NOTES} are accepted`);
  const distribute = distributeOf(values);
  const context = {
    ...values["no-ci-context"] ? {} : ciContext(env),
    ...releaseNotes ? { releaseNotes } : {},
    ...distribute ? { distribute } : {}
  };
  let failOn;
  if (values["fail-on"] !== void 0) {
    const { kinds, unknown } = parseChangeKinds(values["fail-on"]);
    if (unknown.length > 0) {
      throw new UsageError(`--fail-on: unknown change kind${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (known: ${[...CHANGE_KINDS, ...Object.keys(CHANGE_KIND_GROUPS)].join(", ")})`);
    }
    if (kinds.length === 0) throw new UsageError("--fail-on needs at least one change kind, e.g. signing-key-changed");
    failOn = kinds;
  }
  const githubOutput = env.GITHUB_OUTPUT || void 0;
  if (values["github-output"] && !githubOutput) throw new UsageError("--github-output needs the GITHUB_OUTPUT variable (set by GitHub Actions)");
  return {
    file,
    url,
    clientId,
    clientSecret,
    ...values.name !== void 0 ? { fileName: values.name } : {},
    ...Object.keys(context).length > 0 ? { context } : {},
    json: values.json === true,
    ...githubOutput ? { githubOutput } : {},
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    verify: values["no-verify"] !== true,
    retry,
    ...failOn ? { failOn } : {},
    multipart: { thresholdBytes, parallel, cacheDir: cacheDirectory(env) },
    ...config ? { config } : {}
  };
}
var SIZE_UNITS = { "": 1, b: 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 };
function parseSize(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? SIZE_UNITS[m[2].toLowerCase()] : void 0;
  return m && unit !== void 0 ? Math.round(Number(m[1]) * unit) : void 0;
}
function cacheDirectory(env, platform = process.platform, home = homedir()) {
  if (env.HANGAR_CACHE_DIR) return env.HANGAR_CACHE_DIR;
  if (platform === "darwin") return join(home, "Library", "Caches", "hangar");
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "hangar", "cache");
  return join(env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(home, ".cache"), "hangar");
}
function uploadExitCode(error) {
  if (error instanceof HangarAbortError) return UPLOAD_EXIT.interrupted;
  if (error instanceof UsageError || error instanceof HangarFileError || error instanceof HangarRequestError) return UPLOAD_EXIT.usage;
  if (error instanceof HangarAuthError) return UPLOAD_EXIT.auth;
  if (error instanceof HangarRateLimitError) return UPLOAD_EXIT.rateLimited;
  if (error instanceof HangarRejectedError || isRefusedPackage(error)) return UPLOAD_EXIT.rejected;
  if (error instanceof HangarApiError || error instanceof HangarNetworkError || error instanceof HangarTimeoutError) {
    return UPLOAD_EXIT.server;
  }
  return UPLOAD_EXIT.internal;
}
function hint(error) {
  if (error instanceof HangarAuthError) return "check HANGAR_CLIENT_ID and HANGAR_CLIENT_SECRET (the key may have been regenerated)";
  if (error instanceof HangarRateLimitError) return "the key's request budget is used up; space out uploads or use another key";
  if (error instanceof HangarRejectedError) return "the service cannot read this file as an APK/IPA; check the build artifact";
  if (isRefusedPackage(error)) return "nothing was uploaded: the service would refuse this file (422 invalid_package); check the build artifact, or --no-verify to send it anyway";
  if (isRefusedUploadAddress(error)) return "object storage refused every upload address; check the machine's clock";
  if (error instanceof HangarApiError && error.code === "group_not_found") return "the build was not completed: fix --groups (names or ids of the workspace's tester groups) and rerun";
  if (error instanceof HangarNetworkError) return "check HANGAR_URL and the network; rerunning may help";
  if (error instanceof HangarTimeoutError) return "raise --timeout for slow links or large files";
  return void 0;
}
function errorJson(error, exitCode) {
  const base = { message: error instanceof Error ? error.message : String(error), exitCode };
  if (error instanceof HangarApiError) {
    return { code: error.code, status: error.status, step: error.step, requestId: error.requestId, ...error.details, ...base };
  }
  if (isRefusedPackage(error)) return { code: error.code, reason: error.reason, step: "verify", ...base };
  const code = error instanceof UsageError ? "usage" : error instanceof HangarFileError ? "file_error" : error instanceof HangarTimeoutError ? "timeout" : error instanceof HangarNetworkError ? "network_error" : error instanceof HangarAbortError ? "interrupted" : "internal_error";
  const step = error instanceof HangarNetworkError || error instanceof HangarTimeoutError ? { step: error.step } : {};
  return { code, ...step, ...base };
}
var MAX_NOTES = 5e3;
var MAX_MESSAGE = 1e3;
var MAX_LIST = { groups: 100, testers: 1e3 };
var listOf = (text, flag) => {
  const items = [...new Set((text ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0))];
  if (items.length > MAX_LIST[flag]) throw new UsageError(`--${flag} names ${items.length}; at most ${MAX_LIST[flag]} are accepted`);
  return items;
};
function distributeOf(values) {
  const groups = listOf(values.groups, "groups");
  const testers = listOf(values.testers, "testers");
  const message = values.message?.replace(/\r\n?/g, "\n").trim();
  if (groups.length === 0 && testers.length === 0) {
    if (message || values["no-notify"]) throw new UsageError("--message and --no-notify need --groups or --testers");
    return void 0;
  }
  if (message !== void 0 && [...message].length > MAX_MESSAGE) throw new UsageError(`--message is ${[...message].length} characters; at most ${MAX_MESSAGE} are accepted`);
  return {
    ...groups.length > 0 ? { groups } : {},
    ...testers.length > 0 ? { testers } : {},
    ...message ? { message } : {},
    ...values["no-notify"] ? { notify: false } : {}
  };
}
function ciValue(value, max) {
  const v = value?.trim();
  return v && v.length <= max && !/[\u0000-\u001f\u007f]/.test(v) ? v : void 0;
}
var httpUrl = (value) => {
  const v = ciValue(value, 2048);
  return v && /^https?:\/\/[^/]/i.test(v) && URL.canParse(v) ? v : void 0;
};
function ciContext(env) {
  let found = {};
  if (env.GITHUB_ACTIONS === "true") {
    const run2 = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : void 0;
    found = { branch: env.GITHUB_HEAD_REF || env.GITHUB_REF_NAME, commit: env.GITHUB_SHA, ciUrl: run2 };
  } else if (env.GITLAB_CI === "true") {
    found = { branch: env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME || env.CI_COMMIT_REF_NAME, commit: env.CI_COMMIT_SHA, ciUrl: env.CI_JOB_URL || env.CI_PIPELINE_URL };
  } else if (env.BITRISE_IO === "true" || env.BITRISE_BUILD_URL) {
    found = { branch: env.BITRISE_GIT_BRANCH, commit: env.BITRISE_GIT_COMMIT || env.GIT_CLONE_COMMIT_HASH, ciUrl: env.BITRISE_BUILD_URL };
  }
  const branch = ciValue(found.branch, 255);
  const commit = ciValue(found.commit, 64);
  const ciUrl = httpUrl(found.ciUrl);
  return { ...branch ? { branch } : {}, ...commit ? { commit } : {}, ...ciUrl ? { ciUrl } : {} };
}
function githubOutputs(result, failed = []) {
  const changes = diffOf(result)?.changes ?? [];
  return {
    share_url: result.shareUrl,
    download_url: result.downloadUrl,
    file_id: result.fileId,
    user_key: result.userKey,
    version: result.metadata.version,
    app_name: result.metadata.appName,
    bundle_id: result.metadata.bundleId,
    ...typeof result.qrCodeUrl === "string" ? { qr_code_url: result.qrCodeUrl } : {},
    ...typeof result.installUrl === "string" ? { install_url: result.installUrl } : {},
    changes: JSON.stringify(changes),
    danger_changes: String(changes.filter((c) => c.severity === "danger").length),
    failed_changes: [...new Set(failed.map((c) => c.kind))].join(",")
  };
}
function gateFailure(result, failOn, dashboardUrl) {
  if (!failOn) return void 0;
  const diff = diffOf(result);
  const page = `${dashboardUrl.replace(/\/+$/, "")}/files/${encodeURIComponent(result.fileId)}`;
  if (diff === void 0) {
    return `hangar upload: release gate: uploaded, but the service reported no changes to check --fail-on against (it predates release gates)
  build: ${result.shareUrl}
`;
  }
  const caught = gatedChanges(diff, failOn);
  if (caught.length === 0) return void 0;
  return `hangar upload: release gate: --fail-on caught ${caught.length} change${caught.length === 1 ? "" : "s"} since ${diff.previous.version}${diff.previous.buildNumber ? ` (${diff.previous.buildNumber})` : ""}:
` + caught.map((c) => `  - ${describeChange(c)}
`).join("") + `  The build was uploaded and stays available to inspect: ${page} (share page ${result.shareUrl})
`;
}
var NOT_INSTALLABLE = {
  app_store_signed: "it is signed for App Store distribution, which iOS installs only from the App Store or TestFlight; upload an ad hoc, development or enterprise build",
  profile_expired: "its provisioning profile has expired; sign it with a current profile",
  no_devices: "its provisioning profile lists no devices; register the testers' devices and build again",
  no_profile: "it carries no provisioning profile; sign it for development, ad hoc or enterprise distribution"
};
function installWarning(result) {
  if (result.installable !== false) return void 0;
  const code = typeof result.reason === "string" ? result.reason : "unknown";
  const why = Object.hasOwn(NOT_INSTALLABLE, code) ? NOT_INSTALLABLE[code] : "the service says so";
  return `hangar upload: warning: uploaded, but testers cannot install this build from its link: ${why} (${code})
`;
}
function testersLine(distribution) {
  const d = distribution;
  if (!d || typeof d.recipients !== "number" || typeof d.queued !== "number") return [];
  const capped = typeof d.capped === "number" && d.capped > 0 ? `, ${d.capped} over the daily mail cap` : "";
  return [`  Testers:   ${d.recipients} (${d.queued} new mail${d.queued === 1 ? "" : "s"} queued${capped})`];
}
function summary(result, fileName, size, color) {
  const m = result.metadata;
  const build = typeof m["buildNumber"] === "string" && m["buildNumber"] !== "" ? ` (${m["buildNumber"]})` : "";
  return [
    `Uploaded ${fileName} (${formatBytes2(size)}) in ${(result.timings.totalMs / 1e3).toFixed(1)} s`,
    `  Name:      ${m.appName}`,
    `  Bundle ID: ${m.bundleId}`,
    `  Version:   ${m.version}${build}`,
    `  Share:     ${result.shareUrl}`,
    ...typeof result.qrCodeUrl === "string" ? [`  QR code:   ${result.qrCodeUrl}`] : [],
    `  Download:  ${result.downloadUrl}`,
    ...result.installable === false ? [`  Install:   not installable from the link (${typeof result.reason === "string" ? result.reason : "unknown"})`] : [],
    ...testersLine(result.distribution),
    ""
  ].join("\n") + formatChanges(diffOf(result), color);
}
var STEP_LABEL = {
  presign: "requesting an upload address",
  put: "sending the file to storage",
  complete: "completing (the service reads the package)"
};
async function run(args, io) {
  const env = io.env ?? process.env;
  const secrets = [env.HANGAR_CLIENT_SECRET, ...secretArguments(args)].filter((s) => s !== void 0);
  const redact = (text) => createRedactor(secrets)(text);
  const out = (text) => io.stdout(redact(text));
  const err = (text) => io.stderr(redact(text));
  let options;
  try {
    options = parseUploadArgs(args, env, secrets);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(usageText("upload", error, HELP));
    if (args.includes("--json")) out(`${JSON.stringify({ error: errorJson(error, UPLOAD_EXIT.usage) })}
`);
    return UPLOAD_EXIT.usage;
  }
  if (options === "help") {
    out(HELP);
    return UPLOAD_EXIT.ok;
  }
  const opts = options;
  const fileName = opts.fileName ?? basename2(opts.file);
  for (const warning of opts.config?.warnings ?? []) err(`hangar: warning: ${warning}
`);
  if (opts.verbose && opts.config) {
    const used = opts.config.used.length > 0 ? opts.config.used.join(", ") : "nothing (flags and variables took precedence)";
    err(`hangar: config ${opts.config.path}: ${used}
`);
  }
  const interrupt = new AbortController();
  let interrupts = 0;
  let stoppedBy;
  const onSignal = (name) => {
    interrupts += 1;
    stoppedBy ??= name;
    if (interrupts > 1) process.exit(name === "SIGTERM" ? UPLOAD_EXIT.terminated : UPLOAD_EXIT.interrupted);
    interrupt.abort(new HangarAbortError());
  };
  if (!io.signal) {
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  }
  const signal = io.signal ? anySignal([io.signal, interrupt.signal]) : interrupt.signal;
  const progress = opts.quiet ? void 0 : new ProgressReporter({
    stream: { write: (text) => err(text), isTTY: io.stderrIsTTY ?? process.stderr.isTTY === true, columns: io.stderrColumns ?? process.stderr.columns },
    label: fileName
  });
  const current = { step: "presign" };
  let size = 0;
  try {
    if (opts.verify) {
      if (opts.verbose) err("hangar: checking the package locally\n");
      const { checkPackage } = await import("./check-package-QXWNTBHA.js");
      await checkPackage(opts.file, fileName);
    }
    const client = new HangarClient({ url: opts.url, clientId: opts.clientId, clientSecret: opts.clientSecret, retry: opts.retry });
    const result = await client.upload(opts.file, {
      ...opts.fileName !== void 0 ? { fileName: opts.fileName } : {},
      ...opts.context ? { context: opts.context } : {},
      multipart: opts.multipart,
      onResume: ({ storedParts, partCount, storedBytes }) => {
        const line = `hangar: resuming: ${storedParts} of ${partCount} parts (${formatBytes2(storedBytes)}) already stored`;
        if (progress) progress.note(line);
        else if (opts.verbose) err(`${line}
`);
      },
      signal,
      onStep: (s) => {
        current.step = s;
        if (!opts.verbose) return;
        if (progress) progress.note(`hangar: ${STEP_LABEL[s]}`);
        else err(`hangar: ${STEP_LABEL[s]}
`);
      },
      onProgress: (p) => {
        size = p.totalBytes;
        progress?.update(p);
      },
      onRetry: (notice) => {
        if (opts.quiet) return;
        const wait = notice.delayMs >= 1e3 ? `in ${(notice.delayMs / 1e3).toFixed(1)} s` : notice.delayMs > 0 ? `in ${notice.delayMs} ms` : "now";
        const what = notice.error instanceof HangarRateLimitError ? "rate limited" : isRefusedUploadAddress(notice.error) ? "upload address refused, getting a new one" : withoutStep(notice.error.message, notice.step);
        progress.note(`hangar: ${notice.step} ${what}; retry ${notice.retry}/${notice.maxRetries} ${wait}`);
      }
    });
    progress?.endBar();
    if (opts.verbose) {
      const t = result.timings;
      err(`hangar: presign ${t.presignMs} ms, put ${t.putMs} ms, complete ${t.completeMs} ms, total ${t.totalMs} ms
`);
    }
    const caught = opts.failOn ? gatedChanges(diffOf(result) ?? null, opts.failOn) : [];
    if (opts.githubOutput) {
      try {
        appendGithubOutput(opts.githubOutput, githubOutputs(result, caught));
      } catch (error) {
        throw new UsageError(`uploaded, but could not write GITHUB_OUTPUT (${opts.githubOutput}): ${error.message}`);
      }
    }
    const warning = installWarning(result);
    if (warning) err(warning);
    const color = (io.stdoutIsTTY ?? process.stdout.isTTY === true) && !env.NO_COLOR;
    out(opts.json ? `${JSON.stringify(result, null, 2)}
` : summary(result, fileName, size, color));
    const gate = gateFailure(result, opts.failOn, opts.url);
    if (gate) {
      err(gate);
      return UPLOAD_EXIT.gate;
    }
    return UPLOAD_EXIT.ok;
  } catch (error) {
    progress?.endBar();
    const code = uploadExitCode(error);
    if (code === UPLOAD_EXIT.interrupted) {
      err(
        current.step === "complete" ? "hangar upload: interrupted while the service was completing the upload; it may still finish\n" : `hangar upload: interrupted while ${STEP_LABEL[current.step]}; the upload was not completed${size >= opts.multipart.thresholdBytes ? " (run the same command again to resume the upload)" : ""}
`
      );
    } else {
      const message = isRefusedPackage(error) ? `${fileName}: ${error.message} (invalid_package: ${error.reason})` : error instanceof Error ? error.message : String(error);
      const advice = hint(error);
      const fields = error instanceof HangarApiError ? describeFields(error.details["fields"], message) : void 0;
      const resumable = size >= opts.multipart.thresholdBytes && [UPLOAD_EXIT.server, UPLOAD_EXIT.rateLimited, UPLOAD_EXIT.internal].includes(code);
      err(
        `hangar upload: ${message}
${fields ? `  fields: ${fields}
` : ""}${advice ? `  ${advice}
` : ""}` + (resumable ? "  the parts stored so far are kept: run the same command again to resume the upload\n" : "")
      );
      if (code === UPLOAD_EXIT.internal && error instanceof Error && error.stack && opts.verbose) err(`${error.stack}
`);
    }
    const exitCode = code === UPLOAD_EXIT.interrupted && stoppedBy === "SIGTERM" ? UPLOAD_EXIT.terminated : code;
    if (opts.json) out(`${JSON.stringify({ error: errorJson(error, exitCode) })}
`);
    return exitCode;
  } finally {
    if (!io.signal) {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  }
}
function isRefusedPackage(error) {
  return error instanceof Error && error.name === "PackageRefusedError";
}
function withoutStep(message, step) {
  return message.startsWith(`${step}: `) ? message.slice(step.length + 2) : message;
}
function describeFields(fields, message) {
  if (!Array.isArray(fields)) return void 0;
  const cut = (text) => text.length > 200 ? `${text.slice(0, 199)}\u2026` : text;
  const parts = [];
  for (const entry of fields.slice(0, 10)) {
    let text;
    if (typeof entry === "string") text = entry;
    else if (typeof entry === "object" && entry !== null) {
      const { field, message: why } = entry;
      const name = typeof field === "string" && field !== "" ? field : "body";
      text = typeof why === "string" && why !== "" ? `${name}: ${why}` : name;
    }
    if (text !== void 0 && !message.includes(text)) parts.push(cut(text));
  }
  if (fields.length > 10) parts.push(`and ${fields.length - 10} more`);
  return parts.length > 0 ? parts.join("; ") : void 0;
}
function secretArguments(args) {
  const found = [];
  args.forEach((arg, i) => {
    if (arg === "--client-secret" && args[i + 1] !== void 0) found.push(args[i + 1]);
    else if (arg.startsWith("--client-secret=")) found.push(arg.slice("--client-secret=".length));
  });
  return found;
}
var uploadCommand = {
  name: "upload",
  summary: "Upload an APK or IPA to Hangar and print its share and download links",
  run: (args, io) => run(args, io)
};

export {
  APK_MEDIA_TYPE,
  GENERIC_MEDIA_TYPE,
  mediaTypeFor,
  CLIENT_VERSION,
  DEFAULT_MULTIPART_THRESHOLD,
  DEFAULT_PARALLEL_PARTS,
  HangarClient,
  installLinks,
  formatGithubOutput,
  appendGithubOutput,
  formatBytes2 as formatBytes,
  formatDuration,
  ProgressReporter,
  createRedactor,
  CHANGE_KINDS,
  CHANGE_KIND_GROUPS,
  parseChangeKinds,
  diffOf,
  describeChange,
  gatedChanges,
  formatChanges,
  UPLOAD_EXIT,
  HELP,
  parseUploadArgs,
  parseSize,
  cacheDirectory,
  uploadExitCode,
  ciContext,
  githubOutputs,
  gateFailure,
  installWarning,
  run,
  describeFields,
  uploadCommand
};
