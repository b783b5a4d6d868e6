// src/client/any-signal.ts
function anySignal(signals) {
  if (typeof AbortSignal.any === "function") return AbortSignal.any(signals);
  const controller = new AbortController();
  const already = signals.find((s) => s.aborted);
  if (already) {
    controller.abort(already.reason);
    return controller.signal;
  }
  const onAbort = (event) => {
    for (const s of signals) s.removeEventListener("abort", onAbort);
    controller.abort(event.target.reason);
  };
  for (const s of signals) s.addEventListener("abort", onAbort);
  return controller.signal;
}

// src/client/client-errors.ts
var HangarClientError = class extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
};
var HangarApiError = class extends HangarClientError {
  step;
  status;
  code;
  requestId;
  details;
  retryAfterMs;
  constructor(init) {
    const id = init.requestId ? ` (request ${init.requestId})` : "";
    super(`${init.step}: ${init.status} ${init.code}: ${init.message}${id}`);
    this.step = init.step;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details ?? {};
    this.retryAfterMs = init.retryAfterMs;
  }
  /** 5xx: the server may do better on another try. */
  get transient() {
    return this.status >= 500;
  }
};
function isRefusedUploadAddress(error) {
  return error instanceof HangarApiError && error.step === "put" && error.status === 403;
}
var HangarAuthError = class extends HangarApiError {
};
var HangarRateLimitError = class extends HangarApiError {
};
var HangarRejectedError = class extends HangarApiError {
  get reason() {
    const reason = this.details["reason"];
    return typeof reason === "string" ? reason : this.code;
  }
};
var HangarRequestError = class extends HangarApiError {
};
var HangarNetworkError = class extends HangarClientError {
  constructor(step, message, options) {
    super(`${step}: ${message}`, options);
    this.step = step;
  }
};
var HangarTimeoutError = class extends HangarClientError {
  constructor(step, timeoutMs, options) {
    super(`${step}: gave up after the time budget of ${Math.round(timeoutMs / 1e3)} s ran out`, options);
    this.step = step;
    this.timeoutMs = timeoutMs;
  }
};
var HangarAbortError = class extends HangarClientError {
  constructor(message = "Upload aborted") {
    super(message);
  }
};
var HangarFileError = class extends HangarClientError {
  constructor(path, message, options) {
    super(message, options);
    this.path = path;
  }
};
function describeNetworkFailure(error) {
  const parts = [];
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = current.code;
    const text = typeof code === "string" && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    if (text && !parts.includes(text)) parts.push(text);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(": ") : String(error);
}

// src/client/retry-policy.ts
var defaultRetryOptions = {
  maxRetries: 5,
  timeoutMs: 60 * 6e4,
  requestTimeoutMs: 9e4,
  stallTimeoutMs: 6e4,
  baseDelayMs: 500,
  maxDelayMs: 2e4,
  maxRateLimitWaitMs: 5 * 6e4
};
var systemRetryClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  })
};
function backoffDelayMs(retry, options, random) {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry));
  return Math.floor(random() * ceiling);
}
function parseRetryAfter(value, nowMs) {
  if (value === null || value === void 0) return void 0;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1e3;
  if (!/^[A-Za-z]{3},? /.test(trimmed)) return void 0;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? void 0 : Math.max(0, at - nowMs);
}
function parseRateLimitReset(value, nowMs) {
  if (value === null || value === void 0 || !/^\d+$/.test(value.trim())) return void 0;
  return Math.max(0, Number(value.trim()) * 1e3 - nowMs);
}
function serverWaitMs(headers, nowMs) {
  return parseRetryAfter(headers.get("retry-after"), nowMs) ?? parseRateLimitReset(headers.get("x-ratelimit-reset"), nowMs);
}
var RATE_LIMIT_JITTER_MS = 250;
function retryDelayMs(error, retry, options, random) {
  if (error instanceof HangarRateLimitError) {
    const wait = error.retryAfterMs ?? backoffDelayMs(retry, options, random);
    if (wait > options.maxRateLimitWaitMs) return void 0;
    return wait + Math.floor(random() * RATE_LIMIT_JITTER_MS);
  }
  if (error instanceof HangarNetworkError) return backoffDelayMs(retry, options, random);
  if (error instanceof HangarApiError && error.transient) {
    const backoff = backoffDelayMs(retry, options, random);
    return error.retryAfterMs === void 0 ? backoff : Math.max(backoff, error.retryAfterMs);
  }
  if (isRefusedUploadAddress(error)) return 0;
  return void 0;
}

// src/client/put-file.ts
import { open } from "node:fs/promises";
import http from "node:http";
import https from "node:https";
var CHUNK_BYTES = 4 << 20;
var BUFFERS = 2;
var spareBuffers = [];
var MAX_SPARE_BUFFERS = 8 * BUFFERS;
var MAX_ANSWER_BYTES = 64 * 1024;
var DEFAULT_CONTINUE_TIMEOUT_MS = 1e3;
function putFile(options) {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const target = new URL(options.url);
    const expectContinue = options.expectContinue !== false;
    const send = target.protocol === "https:" ? https.request : http.request;
    let settled = false;
    let bodyStarted = false;
    let bodySent = false;
    let response;
    const answerChunks = [];
    let answerBytes = 0;
    const file = open(options.path, "r");
    file.catch(() => void 0);
    const request = send(target, {
      method: "PUT",
      headers: {
        "Content-Type": "application/octet-stream",
        "Content-Length": String(options.size),
        ...expectContinue ? { Expect: "100-continue" } : {}
      },
      signal: options.signal
    });
    const settle = (outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(continueTimer);
      void file.then((handle) => handle.close()).catch(() => void 0);
      if (!bodySent) request.destroy();
      outcome();
    };
    const answer = () => {
      const res = response;
      settle(
        () => resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(answerChunks).toString("utf8"),
          earlyAnswer: !bodySent
        })
      );
    };
    const failFile = (error) => {
      if (settled) return;
      const failure = error instanceof HangarFileError ? error : new HangarFileError(options.path, `cannot read ${options.path}: ${error.message}`, { cause: error });
      settle(() => reject(failure));
    };
    const changed = (detail) => new HangarFileError(options.path, `${options.path} changed while it was being uploaded (${detail})`);
    const write = (chunk) => new Promise((taken, failed) => request.write(chunk, (error) => error ? failed(error) : taken()));
    const pump = async () => {
      const handle = await file;
      const buffers = Array.from({ length: BUFFERS }, () => spareBuffers.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES));
      const inFlight = new Array(BUFFERS).fill(void 0);
      const offset = options.offset ?? 0;
      let position = 0;
      let sent = 0;
      for (let slot = 0; position < options.size; slot = (slot + 1) % BUFFERS) {
        await inFlight[slot];
        if (settled || response) return;
        const buffer = buffers[slot];
        const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, options.size - position), offset + position);
        if (bytesRead === 0) throw changed(`it ended after ${offset + position} of the ${offset + options.size} bytes expected`);
        position += bytesRead;
        if (position === options.size && options.offset === void 0 && (await handle.read(Buffer.alloc(1), 0, 1, options.size)).bytesRead > 0) {
          throw changed(`it holds more than the ${options.size} bytes announced`);
        }
        if (settled || response) return;
        const taken = write(buffer.subarray(0, bytesRead)).then(() => {
          sent += bytesRead;
          options.onProgress?.(sent);
        });
        taken.catch(() => void 0);
        inFlight[slot] = taken;
      }
      await Promise.all(inFlight);
      spareBuffers.push(...buffers.slice(0, Math.max(0, MAX_SPARE_BUFFERS - spareBuffers.length)));
      if (settled || response) return;
      bodySent = true;
      request.end();
    };
    const startBody = () => {
      if (bodyStarted || settled) return;
      bodyStarted = true;
      clearTimeout(continueTimer);
      pump().catch((error) => {
        if (settled || response) return;
        if (error instanceof HangarFileError || !request.destroyed) failFile(error);
      });
    };
    const continueTimer = setTimeout(startBody, expectContinue ? options.continueTimeoutMs ?? DEFAULT_CONTINUE_TIMEOUT_MS : 0);
    request.on("continue", startBody);
    file.catch(failFile);
    request.setTimeout(options.stallTimeoutMs, () => {
      request.destroy(new Error(`no data moved for ${Math.round(options.stallTimeoutMs / 1e3)} s`));
    });
    request.on("response", (res) => {
      response = res;
      res.on("data", (chunk) => {
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
      if (response) return answer();
      const failure = new HangarNetworkError("put", describeNetworkFailure(error), { cause: error });
      settle(() => reject(failure));
    });
  });
}
function storageRefusal(answer, nowMs) {
  const header = (name) => {
    const value = answer.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const xml = (tag) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(answer.body)?.[1];
  return new HangarApiError({
    step: "put",
    status: answer.status,
    code: xml("Code") ?? `http_${answer.status}`,
    message: xml("Message") ?? (answer.body.trim().slice(0, 200) || "object storage refused the upload"),
    requestId: xml("RequestId") ?? header("x-amz-request-id"),
    retryAfterMs: parseRetryAfter(header("retry-after"), nowMs)
  });
}

export {
  anySignal,
  HangarClientError,
  HangarApiError,
  isRefusedUploadAddress,
  HangarAuthError,
  HangarRateLimitError,
  HangarRejectedError,
  HangarRequestError,
  HangarNetworkError,
  HangarTimeoutError,
  HangarAbortError,
  HangarFileError,
  describeNetworkFailure,
  defaultRetryOptions,
  systemRetryClock,
  backoffDelayMs,
  parseRetryAfter,
  parseRateLimitReset,
  serverWaitMs,
  RATE_LIMIT_JITTER_MS,
  retryDelayMs,
  putFile,
  storageRefusal
};
