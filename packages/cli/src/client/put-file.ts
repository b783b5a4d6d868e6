import { open, type FileHandle } from "node:fs/promises";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { HangarApiError, HangarFileError, HangarNetworkError, describeNetworkFailure } from "./client-errors";
import { parseRetryAfter } from "./retry-policy";

/**
 * The body is read into two fixed buffers and each is reused only once the socket has taken its
 * bytes, so memory is 8 MiB per PUT whatever the file size. (A ReadStream allocates a fresh buffer
 * per read and leaves them to the GC, which lets tens of MB of garbage pile up before V8 reacts.)
 * 4 MiB rather than 1 MiB: on loopback 1 GiB went in 2.8–4.0 s instead of 4.9 s, with a third of
 * the client's CPU (fewer reads and write callbacks between the socket being drained and refilled).
 */
const CHUNK_BYTES = 4 << 20;
const BUFFERS = 2;
/**
 * Buffers of PUTs whose every write has completed, for the next PUT: a multipart upload's parts in
 * a row allocate nothing (fresh 4 MiB buffers per 8 MiB part left the GC behind, ~140 MB peak RSS at
 * 4 parts at once). At most what 8 PUTs at once hold is kept.
 */
const spareBuffers: Buffer[] = [];
const MAX_SPARE_BUFFERS = 8 * BUFFERS;
/** Error bodies of object storage are small XML; anything past this is not worth keeping. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** What curl waits for a `100 Continue` before sending the body anyway. */
const DEFAULT_CONTINUE_TIMEOUT_MS = 1000;

export interface PutFileOptions {
  url: string;
  path: string;
  /** Exactly what presign declared: storage checks the signed Content-Length. */
  size: number;
  /**
   * Where the body starts in the file (a multipart part); default 0. With an offset the body is
   * `size` bytes from there, and only running out of file is an error (a part is not the whole file).
   */
  offset?: number;
  signal: AbortSignal;
  /** No bytes moving on the socket (either way) for this long fails the attempt. */
  stallTimeoutMs: number;
  continueTimeoutMs?: number;
  /**
   * Send `Expect: 100-continue` and wait for storage's go (default). false: the body goes at once.
   * A multipart part's URL was signed moments before and the part is a few MiB, so the round
   * trip costs more than a refusal could save: on loopback with 4 parts in flight each part's
   * connection waited 35 ms on average for its `100 Continue` (~13% of a worker's time), while
   * storage, busy with the other parts, got to its checks before it said go.
   */
  expectContinue?: boolean;
  /** Bytes the socket has taken so far (in kernel buffers or on the wire). */
  onProgress?: (sentBytes: number) => void;
}

export interface PutFileAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Start of the response body (storage's error XML); empty on success. */
  body: string;
  /** The server answered before the whole body was sent (e.g. 403 on an expired address). */
  earlyAnswer: boolean;
}

/**
 * One PUT of a file to a presigned address, streamed from disk. node:http rather than fetch: it
 * takes a plain Content-Length with a streamed body, tells us when the socket has taken each chunk
 * (our backpressure and progress), and supports `Expect: 100-continue`, so an expired or refused
 * address is answered before we push a gigabyte at it.
 *
 * Resolves with any HTTP answer (the caller judges the status); rejects with HangarNetworkError
 * (no answer), HangarFileError (the file can't be read or changed size), or the signal's reason.
 */
export function putFile(options: PutFileOptions): Promise<PutFileAnswer> {
  return new Promise<PutFileAnswer>((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const target = new URL(options.url);
    const expectContinue = options.expectContinue !== false;
    const send = target.protocol === "https:" ? https.request : http.request;

    let settled = false;
    let bodyStarted = false;
    let bodySent = false;
    let response: http.IncomingMessage | undefined;
    const answerChunks: Buffer[] = [];
    let answerBytes = 0;
    const file: Promise<FileHandle> = open(options.path, "r");
    // Reported through `failFile` when it matters; this only keeps an early rejection from being unhandled.
    file.catch(() => undefined);

    const request = send(target, {
      method: "PUT",
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(options.size),
        ...(expectContinue ? { Expect: "100-continue" } : {}),
      },
      signal: options.signal,
    });

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(continueTimer);
      void file.then((handle) => handle.close()).catch(() => undefined);
      // A socket with half a body on it must not go back to the keep-alive pool.
      if (!bodySent) request.destroy();
      outcome();
    };
    const answer = () => {
      const res = response!;
      settle(() =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(answerChunks).toString("utf8"),
          earlyAnswer: !bodySent,
        }),
      );
    };
    const failFile = (error: unknown) => {
      if (settled) return;
      const failure =
        error instanceof HangarFileError
          ? error
          : new HangarFileError(options.path, `cannot read ${options.path}: ${(error as Error).message}`, { cause: error });
      settle(() => reject(failure));
    };
    const changed = (detail: string) =>
      new HangarFileError(options.path, `${options.path} changed while it was being uploaded (${detail})`);

    /** Resolves once the socket has taken the chunk, so its buffer may be refilled. */
    const write = (chunk: Buffer) =>
      new Promise<void>((taken, failed) => request.write(chunk, (error) => (error ? failed(error) : taken())));

    const pump = async () => {
      const handle = await file;
      const buffers = Array.from({ length: BUFFERS }, () => spareBuffers.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES));
      const inFlight: (Promise<void> | undefined)[] = new Array(BUFFERS).fill(undefined);
      const offset = options.offset ?? 0;
      let position = 0;
      let sent = 0;
      for (let slot = 0; position < options.size; slot = (slot + 1) % BUFFERS) {
        await inFlight[slot];
        if (settled || response) return;
        const buffer = buffers[slot]!;
        const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, options.size - position), offset + position);
        if (bytesRead === 0) throw changed(`it ended after ${offset + position} of the ${offset + options.size} bytes expected`);
        position += bytesRead;
        // Checked before the last chunk goes out: once storage has the whole body it answers 200, and a
        // file that grew would be stored cut short.
        if (position === options.size && options.offset === undefined && (await handle.read(Buffer.alloc(1), 0, 1, options.size)).bytesRead > 0) {
          throw changed(`it holds more than the ${options.size} bytes announced`);
        }
        if (settled || response) return;
        const taken = write(buffer.subarray(0, bytesRead)).then(() => {
          sent += bytesRead;
          options.onProgress?.(sent);
        });
        // A dead socket fails every queued write; the one awaited reports it, the rest must not
        // surface as unhandled rejections (fatal in a CLI).
        taken.catch(() => undefined);
        inFlight[slot] = taken;
      }
      await Promise.all(inFlight);
      // Every write has called back: the socket holds no reference to these any more. (After a
      // failure they are left to the GC: a destroyed request may still point at one.)
      spareBuffers.push(...buffers.slice(0, Math.max(0, MAX_SPARE_BUFFERS - spareBuffers.length)));
      if (settled || response) return;
      bodySent = true;
      request.end();
    };

    const startBody = () => {
      if (bodyStarted || settled) return;
      bodyStarted = true;
      clearTimeout(continueTimer);
      pump().catch((error: unknown) => {
        if (settled || response) return;
        // A write failed because the request died: its 'error' event reports that.
        if (error instanceof HangarFileError || !request.destroyed) failFile(error);
      });
    };
    const continueTimer = setTimeout(startBody, expectContinue ? (options.continueTimeoutMs ?? DEFAULT_CONTINUE_TIMEOUT_MS) : 0);
    request.on("continue", startBody);
    file.catch(failFile);

    request.setTimeout(options.stallTimeoutMs, () => {
      request.destroy(new Error(`no data moved for ${Math.round(options.stallTimeoutMs / 1000)} s`));
    });
    request.on("response", (res) => {
      // An answer before the body is done ends the upload: the pump stops at its next step.
      response = res;
      res.on("data", (chunk: Buffer) => {
        if (answerBytes < MAX_ANSWER_BYTES) {
          answerChunks.push(chunk);
          answerBytes += chunk.length;
        }
      });
      res.on("end", answer);
      res.on("error", () => answer());
    });
    request.on("error", (error) => {
      if (options.signal.aborted) return settle(() => reject(options.signal.reason));
      // Storage often closes the connection right after an early answer; the answer is what counts.
      if (response) return answer();
      const failure = new HangarNetworkError("put", describeNetworkFailure(error), { cause: error });
      settle(() => reject(failure));
    });
  });
}

/** Object storage's refusal of a PUT (its error XML, else the status) as the client's error. */
export function storageRefusal(answer: PutFileAnswer, nowMs: number): HangarApiError {
  const header = (name: string) => {
    const value = answer.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const xml = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(answer.body)?.[1];
  return new HangarApiError({
    step: "put",
    status: answer.status,
    code: xml("Code") ?? `http_${answer.status}`,
    message: xml("Message") ?? (answer.body.trim().slice(0, 200) || "object storage refused the upload"),
    requestId: xml("RequestId") ?? header("x-amz-request-id"),
    retryAfterMs: parseRetryAfter(header("retry-after"), nowMs),
  });
}
