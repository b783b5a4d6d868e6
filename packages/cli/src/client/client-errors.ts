/**
 * Errors of the Hangar client. Callers branch with `instanceof`; the CLI maps each class to an
 * exit code (packages/cli/src/commands/upload.ts). Messages never contain the client secret or a
 * presigned address (its query string is a credential for 15 minutes).
 */

/** The step of an upload an error belongs to. */
export type UploadStep = "presign" | "put" | "complete";

export abstract class HangarClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface ApiErrorInit {
  step: UploadStep;
  status: number;
  /** The service's stable code (`error.code`), S3's `<Code>` on a PUT, else `http_<status>`. */
  code: string;
  message: string;
  requestId?: string | undefined;
  /** Extra fields of the error body (e.g. `reason`, `fields`, `maxFileSize`). */
  details?: Record<string, unknown> | undefined;
  /** How long the server asked us to wait (Retry-After / X-RateLimit-Reset), when it said. */
  retryAfterMs?: number | undefined;
}

/** The service (or, on `put`, object storage) answered with a status other than 200. */
export class HangarApiError extends HangarClientError {
  readonly step: UploadStep;
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown>;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
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
  get transient(): boolean {
    return this.status >= 500;
  }
}

/**
 * Object storage refused the presigned address (expired, or its signature no longer matches): the
 * client retries the PUT at once with a fresh address.
 */
export function isRefusedUploadAddress(error: unknown): error is HangarApiError {
  return error instanceof HangarApiError && error.step === "put" && error.status === 403;
}

/** 401/403 from the service: missing, unknown or revoked key. Retrying will not help. */
export class HangarAuthError extends HangarApiError {}

/** 429 that outlasted the retries, the time budget, or asked for a wait longer than we accept. */
export class HangarRateLimitError extends HangarApiError {}

/**
 * The service refused the uploaded package: 422 `invalid_package` (unreadable APK/IPA; `reason`
 * says why) or 409 `upload_mismatch`/`size_mismatch` (the stored bytes are not what presign
 * declared). Final: the same file will be refused again.
 */
export class HangarRejectedError extends HangarApiError {
  get reason(): string {
    const reason = this.details["reason"];
    return typeof reason === "string" ? reason : this.code;
  }
}

/** 400/413/415 from presign: the request itself is unacceptable (name, size, type). Not retried. */
export class HangarRequestError extends HangarApiError {}

/** No HTTP answer: connection refused or reset, DNS failure, a stalled transfer, a bad response body. */
export class HangarNetworkError extends HangarClientError {
  constructor(
    readonly step: UploadStep,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${step}: ${message}`, options);
  }
}

/** The time budget of the whole upload (`timeoutMs`, CLI `--timeout`) ran out. */
export class HangarTimeoutError extends HangarClientError {
  constructor(
    readonly step: UploadStep,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(`${step}: gave up after the time budget of ${Math.round(timeoutMs / 1000)} s ran out`, options);
  }
}

/** The caller's AbortSignal fired (the CLI's Ctrl-C). */
export class HangarAbortError extends HangarClientError {
  constructor(message = "Upload aborted") {
    super(message);
  }
}

/** The local file: missing, not a regular file, unsupported extension, or changed during the upload. */
export class HangarFileError extends HangarClientError {
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * One line for a failure below HTTP. fetch hides the reason in `cause` ("fetch failed"); Node's
 * own errors carry a `code` (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, ...).
 */
export function describeNetworkFailure(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    const text = typeof code === "string" && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    if (text && !parts.includes(text)) parts.push(text);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(": ") : String(error);
}
