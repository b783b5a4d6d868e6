/**
 * Sends one package from the browser through the dashboard's upload routes (api/upload.api.ts):
 * one presigned PUT for a small file, or a multipart upload above a threshold, with four parts in
 * flight, each part's CRC32C signed into its URL (S3 verifies it), a failed part retried on its
 * own, and an upload that failed for good resumable from the parts already stored. Then complete.
 * A multipart upload's state is kept in localStorage as it goes (saved-upload.ts), so after a
 * reload the project page resumes it from the same file: only the parts not stored are sent.
 *
 * PUTs go through XMLHttpRequest, not fetch: only XHR reports upload progress. Parts are read with
 * Blob.slice, so memory holds the parts in flight and the part being hashed, never the file. Part
 * URLs are asked for in batches (one request per 32 parts, hashed while the batch before is sent), so a large file never
 * needs every part hashed before its first byte goes out, and the per-account rate limit holds.
 */
import { crc32c } from "@hangar/inspect/crc32c";
import { ApiError } from "../api/api-client";
import { uploadApi, type CompleteResult, type DeclaredFile, type StartMultipartResult } from "../api/upload.api";
import { declaredFile } from "./declared-file";
import { forgetUpload, runningUploads, saveUpload, type SavedUpload } from "./saved-upload";

// Sizes of parts and thresholds, not a display: the byte formatter is core's formatBytes.
const MiB = 2 ** 20;
/** Above this a build goes as a multipart upload (the CLI's threshold too). */
export const MULTIPART_ABOVE = 64 * MiB;
/**
 * The threshold in force: MULTIPART_ABOVE, or the byte count stored under this localStorage key.
 * Tests lower it to send a small generated file as a multipart upload; nobody else needs it.
 */
export const MULTIPART_ABOVE_KEY = "hangar:multipart-above";
const PARALLEL_PARTS = 4;
const URL_BATCH = 32;
/** Attempts per part before the upload stops and offers a retry of what failed. */
const PART_ATTEMPTS = 3;

export function multipartThreshold(): number {
  const stored = Number(globalThis.localStorage?.getItem(MULTIPART_ABOVE_KEY));
  return Number.isSafeInteger(stored) && stored > 0 ? stored : MULTIPART_ABOVE;
}

export interface UploadProgress {
  sent: number;
  total: number;
  /** Over the last few seconds; 0 until measured. */
  bytesPerSecond: number;
  /** undefined until a rate is known. */
  etaSeconds: number | undefined;
  phase: "uploading" | "completing";
  multipart: boolean;
}

/** A stop the user can resume from (parts failed, network gone): `retry()` continues. */
export class UploadStopped extends Error {
  override readonly name = "UploadStopped";
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

const cancelledError = () => new UploadStopped("The upload was cancelled.", false);

function base64Crc(value: number): string {
  const bytes = [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
  return btoa(String.fromCharCode(...bytes));
}

/** One PUT with progress; resolves with the ETag (the bucket's CORS rule exposes it). */
function put(url: string, body: Blob, headers: Record<string, string>, onLoaded: (bytes: number) => void, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onLoaded(event.loaded);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve(xhr.getResponseHeader("ETag") ?? "") : reject(new Error(`storage answered ${xhr.status}`)));
    xhr.onerror = () => reject(new Error("the connection to storage failed"));
    xhr.onabort = () => reject(cancelledError());
    const abort = () => xhr.abort();
    signal.addEventListener("abort", abort, { once: true });
    xhr.onloadend = () => signal.removeEventListener("abort", abort);
    xhr.send(body);
  });
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(cancelledError())), { once: true });
  });

interface MultipartState {
  fileId: string;
  key: string;
  uploadId: string;
  partSize: number;
  partCount: number;
  /** partNumber → ETag of every part stored. */
  done: Map<number, string>;
}

export class BrowserUpload {
  private readonly controller = new AbortController();
  private readonly declared: DeclaredFile;
  private multipart: MultipartState | undefined;
  private single: { key: string } | undefined;
  /** Bytes of finished parts (or of the single PUT once done) and of each part in flight. */
  private finishedBytes = 0;
  private readonly inFlight = new Map<number, number>();
  private readonly samples: { at: number; sent: number }[] = [];
  private cancelled = false;
  /** The multipart start request while it is in flight (cancel waits for it, to abort what it creates). */
  private starting: Promise<StartMultipartResult> | undefined;

  constructor(
    private readonly projectId: string,
    private readonly file: File,
    private readonly onProgress: (progress: UploadProgress) => void,
    private readonly threshold = multipartThreshold(),
    /** An upload kept from an earlier page (the caller checked that `file` is its file): continued, not started. */
    private readonly resumed?: SavedUpload,
  ) {
    const declared = declaredFile(file);
    if ("problem" in declared) throw new UploadStopped(declared.problem, false);
    this.declared = declared;
    if (resumed) {
      const { fileId, key, uploadId, partSize, partCount, done } = resumed;
      this.multipart = { fileId, key, uploadId, partSize, partCount, done: new Map(done) };
    }
  }

  get isMultipart(): boolean {
    return this.resumed !== undefined || this.file.size > this.threshold;
  }

  /** Keeps the state for a resume after a reload (every stored part's ETag). */
  private save(state: MultipartState): void {
    saveUpload({
      projectId: this.projectId,
      ...this.declared,
      lastModified: this.file.lastModified,
      fileId: state.fileId,
      key: state.key,
      uploadId: state.uploadId,
      partSize: state.partSize,
      partCount: state.partCount,
      done: [...state.done.entries()],
    });
  }

  /** Starts, or continues after an UploadStopped that was retryable. */
  async run(): Promise<CompleteResult> {
    try {
      return this.isMultipart ? await this.runMultipart() : await this.runSingle();
    } catch (error) {
      if (this.cancelled) throw cancelledError();
      if (error instanceof ApiError && error.status === 404 && error.code === "upload_not_found" && this.multipart) {
        // Aborted elsewhere, or past its day: nothing left to resume.
        forgetUpload(this.projectId);
        this.multipart = undefined;
        throw new UploadStopped("This upload can no longer be resumed: the service no longer holds its parts. Upload the file again.", false);
      }
      if (error instanceof UploadStopped || error instanceof ApiError) throw error;
      throw new UploadStopped(`The upload stopped: ${(error as Error).message}. Retry to continue.`, true);
    }
  }

  /** Stops every PUT; a multipart upload is aborted, so its stored parts are dropped at once. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    this.controller.abort();
    // Cancelled while the upload was being created: abort it once its id is known.
    await this.starting?.catch(() => undefined);
    if (this.multipart) {
      forgetUpload(this.projectId);
      await uploadApi.abortMultipart(this.projectId, this.multipart).catch(() => undefined);
    }
  }

  private report(phase: UploadProgress["phase"] = "uploading"): void {
    let sent = this.finishedBytes;
    for (const loaded of this.inFlight.values()) sent += loaded;
    const now = performance.now();
    this.samples.push({ at: now, sent });
    while (this.samples.length > 2 && now - this.samples[0]!.at > 5000) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (now - first.at) / 1000;
    const bytesPerSecond = seconds > 0.5 ? Math.max(0, (sent - first.sent) / seconds) : 0;
    const total = this.file.size;
    this.onProgress({
      sent: Math.min(sent, total),
      total,
      bytesPerSecond,
      etaSeconds: bytesPerSecond > 0 ? Math.ceil((total - sent) / bytesPerSecond) : undefined,
      phase,
      multipart: this.isMultipart,
    });
  }

  private async runSingle(): Promise<CompleteResult> {
    const signal = this.controller.signal;
    // A retried single upload presigns again: the earlier PUT may have stopped halfway.
    const presigned = await uploadApi.presign(this.projectId, this.declared);
    this.single = { key: presigned.key };
    this.finishedBytes = 0;
    this.report();
    // The URL signs this exact Content-Type (the spec's PUT always sends it).
    await put(presigned.uploadUrl, this.file, { "Content-Type": "application/octet-stream" }, (loaded) => (this.inFlight.set(1, loaded), this.report()), signal);
    this.inFlight.clear();
    this.finishedBytes = this.file.size;
    this.report("completing");
    return uploadApi.complete(this.projectId, { ...this.declared, key: this.single.key });
  }

  private partBlob(state: MultipartState, partNumber: number): Blob {
    const start = (partNumber - 1) * state.partSize;
    return this.file.slice(start, Math.min(start + state.partSize, this.file.size));
  }

  private async runMultipart(): Promise<CompleteResult> {
    const signal = this.controller.signal;
    if (!this.multipart) {
      this.starting = uploadApi.startMultipart(this.projectId, this.declared);
      const started = await this.starting;
      this.multipart = {
        fileId: started.fileId,
        key: started.key,
        uploadId: started.uploadId,
        partSize: started.partSize,
        partCount: started.partCount,
        done: new Map(),
      };
      if (this.cancelled) throw cancelledError();
      this.save(this.multipart);
    }
    const state = this.multipart;
    runningUploads.add(state.uploadId);
    try {
      return await this.sendAndComplete(state, signal);
    } finally {
      runningUploads.delete(state.uploadId);
    }
  }

  private async sendAndComplete(state: MultipartState, signal: AbortSignal): Promise<CompleteResult> {
    const upload = { key: state.key, uploadId: state.uploadId };
    const remaining = Array.from({ length: state.partCount }, (_, i) => i + 1).filter((n) => !state.done.has(n));
    this.finishedBytes = [...state.done.keys()].reduce((sum, n) => sum + this.partBlob(state, n).size, 0);
    this.report();
    const failed: number[] = [];
    /** A batch's checksums and URLs. */
    const prepare = async (batch: number[]) => {
      const checksums = [];
      for (const partNumber of batch) {
        checksums.push({ partNumber, checksumCRC32C: base64Crc(crc32c(new Uint8Array(await this.partBlob(state, partNumber).arrayBuffer()))) });
        if (signal.aborted) throw cancelledError();
      }
      return (await uploadApi.partUrls(this.projectId, upload, checksums)).parts;
    };
    // The next batch is hashed while this one is sent (the PUTs run off the main thread), so the
    // parts in flight do not wait for it: a 6 GiB build is 24 batches.
    let next = prepare(remaining.slice(0, URL_BATCH));
    for (let i = 0; i < remaining.length; i += URL_BATCH) {
      const parts = await next;
      if (i + URL_BATCH < remaining.length) {
        next = prepare(remaining.slice(i + URL_BATCH, i + 2 * URL_BATCH));
        // Awaited at the next turn; until then its failure must not surface as unhandled.
        next.catch(() => undefined);
      }
      const queue = [...parts];
      const worker = async () => {
        for (let part = queue.shift(); part; part = queue.shift()) {
          const etag = await this.sendPart(state, part.partNumber, part.uploadUrl, signal);
          if (etag === undefined) failed.push(part.partNumber);
          else {
            state.done.set(part.partNumber, etag);
            if (!this.cancelled) this.save(state);
          }
        }
      };
      await Promise.all(Array.from({ length: PARALLEL_PARTS }, worker));
    }
    if (failed.length > 0) {
      throw new UploadStopped(`${failed.length} of ${state.partCount} parts could not be sent. Retry to send them; the others are kept.`, true);
    }
    this.report("completing");
    const parts = [...state.done.entries()].sort(([a], [b]) => a - b).map(([partNumber, etag]) => ({ partNumber, etag }));
    const result = await uploadApi.complete(this.projectId, { ...upload, parts });
    forgetUpload(this.projectId);
    return result;
  }

  /** The part's ETag, after up to PART_ATTEMPTS tries; undefined when it failed every time. */
  private async sendPart(state: MultipartState, partNumber: number, url: string, signal: AbortSignal): Promise<string | undefined> {
    const blob = this.partBlob(state, partNumber);
    for (let attempt = 1; attempt <= PART_ATTEMPTS; attempt++) {
      try {
        const etag = await put(url, blob, {}, (loaded) => (this.inFlight.set(partNumber, loaded), this.report()), signal);
        this.inFlight.delete(partNumber);
        this.finishedBytes += blob.size;
        this.report();
        return etag;
      } catch (error) {
        this.inFlight.delete(partNumber);
        if (signal.aborted || error instanceof UploadStopped) throw cancelledError();
        if (attempt < PART_ATTEMPTS) await sleep(1000 * attempt, signal);
      }
    }
    return undefined;
  }
}
