import { createReadStream } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { HangarFileError, HangarNetworkError, describeNetworkFailure } from "./client-errors";

/**
 * Big reads mean fewer syscalls and socket writes; memory stays a few MiB whatever the file size
 * because `pipe` stops reading while the socket is backed up.
 */
const READ_CHUNK_BYTES = 1 << 20;
/** Error bodies of object storage are small XML; anything past this is not worth keeping. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** What curl waits for a `100 Continue` before sending the body anyway. */
const DEFAULT_CONTINUE_TIMEOUT_MS = 1000;

export interface PutFileOptions {
  url: string;
  path: string;
  /** Exactly what presign declared: storage checks the signed Content-Length. */
  size: number;
  signal: AbortSignal;
  /** No bytes moving on the socket (either way) for this long fails the attempt. */
  stallTimeoutMs: number;
  continueTimeoutMs?: number;
  /** Bytes handed to the socket so far (at most one read chunk ahead of the wire). */
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
 * takes a plain Content-Length with a stream body, applies backpressure through `pipe`, lets us
 * count bytes as they go, and supports `Expect: 100-continue`, so an expired or refused address is
 * answered before we push a gigabyte at it.
 *
 * Resolves with any HTTP answer (the caller judges the status); rejects with HangarNetworkError
 * (no answer), HangarFileError (the file can't be read or changed size), or the signal's reason.
 */
export function putFile(options: PutFileOptions): Promise<PutFileAnswer> {
  return new Promise<PutFileAnswer>((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const target = new URL(options.url);
    const send = target.protocol === "https:" ? https.request : http.request;

    let settled = false;
    let bodyStarted = false;
    let bodySent = false;
    let sent = 0;
    let response: http.IncomingMessage | undefined;
    const answerChunks: Buffer[] = [];
    let answerBytes = 0;

    const file = createReadStream(options.path, { highWaterMark: READ_CHUNK_BYTES });
    const request = send(target, {
      method: "PUT",
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(options.size),
        Expect: "100-continue",
      },
      signal: options.signal,
    });

    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(continueTimer);
      file.destroy();
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
    const fileChanged = (detail: string) => {
      const error = new HangarFileError(options.path, `${options.path} changed while it was being uploaded (${detail})`);
      settle(() => reject(error));
    };

    const startBody = () => {
      if (bodyStarted || settled) return;
      bodyStarted = true;
      clearTimeout(continueTimer);
      // Registered before pipe's own listener, so an oversized file is caught before its excess is written.
      file.on("data", (chunk: string | Buffer) => {
        sent += chunk.length;
        if (sent > options.size) return fileChanged(`more than the ${options.size} bytes announced`);
        options.onProgress?.(sent);
      });
      file.on("end", () => {
        if (sent !== options.size) return fileChanged(`${sent} bytes read, ${options.size} announced`);
        bodySent = true;
      });
      file.pipe(request);
    };
    const continueTimer = setTimeout(startBody, options.continueTimeoutMs ?? DEFAULT_CONTINUE_TIMEOUT_MS);
    request.on("continue", startBody);

    file.on("error", (error) => {
      const failure = new HangarFileError(options.path, `cannot read ${options.path}: ${error.message}`, { cause: error });
      settle(() => reject(failure));
    });
    request.setTimeout(options.stallTimeoutMs, () => {
      request.destroy(new Error(`no data moved for ${Math.round(options.stallTimeoutMs / 1000)} s`));
    });
    request.on("response", (res) => {
      response = res;
      // An answer before the body is done ends the upload: stop reading the file.
      if (!bodySent) file.unpipe(request);
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
