/**
 * Domain errors. Core speaks in these; the HTTP layer maps each class to a status by
 * `instanceof` (packages/functions/src/middleware/http-errors.ts), so core never knows HTTP.
 * `code` is the stable, machine-readable string clients branch on. Errors only HTTP can have
 * (a body that is not JSON or too large, an unknown route or method) live in that module, not here.
 */
export abstract class HangarError extends Error {
  abstract readonly code: string;
  /** Extra fields a client may use (e.g. the bad fields of a request); always safe to expose. */
  readonly details: Record<string, unknown> | undefined;

  constructor(message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }
}

export interface FieldIssue {
  field: string;
  message: string;
}

/** The request is well-formed JSON but breaks the schema. */
export class ValidationError extends HangarError {
  readonly code = "invalid_request";
  constructor(readonly issues: FieldIssue[]) {
    super(
      `Invalid request: ${issues.map((i) => `${i.field || "body"}: ${i.message}`).join("; ")}`,
      { fields: issues },
    );
  }
}

/** The declared file's media type is not one the service takes. */
export class UnsupportedMediaTypeError extends HangarError {
  constructor(
    readonly code: "unsupported_file_type",
    message: string,
  ) {
    super(message);
  }
}

/** The declared file is larger than an upload may be. */
export class PayloadTooLargeError extends HangarError {
  constructor(
    readonly code: "file_too_large",
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

export class MissingCredentialsError extends HangarError {
  readonly code = "missing_credentials";
  constructor(message = "Send X-Client-ID and Authorization: Bearer <secret>") {
    super(message);
  }
}

/** Same message whether the client id exists or not, so ids cannot be probed. */
export class InvalidCredentialsError extends HangarError {
  readonly code = "invalid_credentials";
  constructor() {
    super("The client id and secret do not match an active API key");
  }
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the current window ends. */
  resetAt: number;
}

export class RateLimitedError extends HangarError {
  readonly code = "rate_limited";
  constructor(
    readonly rateLimit: RateLimitState,
    readonly retryAfterSeconds: number,
  ) {
    super(`Rate limit of ${rateLimit.limit} requests per window exceeded; retry after ${retryAfterSeconds}s`);
  }
}

export class NotFoundError extends HangarError {
  constructor(
    readonly code: "upload_not_found" | "file_not_found" | "project_not_found" | "key_not_found" | "workspace_not_found" | "member_not_found" | "invitation_not_found" | "tester_not_found" | "webhook_not_found" | "delivery_not_found"
      // iOS devices (docs/devices.md): a device id, a registration's result page.
      | "device_not_found" | "enrollment_not_found",
    message: string,
  ) {
    super(message);
  }
}

/** The request is valid but conflicts with the state of the upload or of the stored object. */
export class ConflictError extends HangarError {
  constructor(
    readonly code: "upload_mismatch" | "object_missing" | "object_changed" | "size_mismatch" | "already_exists" | "project_deleting" | "key_revoked" | "limit_reached" | "last_owner" | "personal_workspace" | "workspace_not_empty" | "already_member" | "webhook_disabled" | "apple_not_configured",
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

/**
 * The build is not a completed upload (still pending, or rejected): it cannot be sent to testers,
 * compared or pinned yet. One class for the one code, whichever use case refuses (a 409).
 */
export class BuildNotCompletedError extends HangarError {
  readonly code = "build_not_completed";
  constructor(message: string) {
    super(message);
  }
}

/**
 * The part list of a multipart complete does not match what was uploaded: a part missing, or an
 * ETag or checksum that is not the stored part's. The request is wrong, not the upload's state: 400.
 */
export class InvalidPartsError extends HangarError {
  constructor(
    readonly code: "part_missing" | "part_mismatch",
    message: string,
    details?: Record<string, unknown>,
  ) {
    super(message, details);
  }
}

/** The uploaded object is not a package we can read. `reason` is the extractor's stable code. */
export class InvalidPackageError extends HangarError {
  readonly code = "invalid_package";
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, { reason }, options);
  }
}

/** A dependency (DynamoDB, S3) failed in a way the client cannot fix; mapped to 5xx. */
export class DependencyError extends HangarError {
  readonly code = "dependency_failure";
  constructor(
    readonly dependency: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, undefined, options);
  }
}
