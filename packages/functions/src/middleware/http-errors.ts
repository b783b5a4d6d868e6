import {
  ConflictError,
  DependencyError,
  HangarError,
  InvalidCredentialsError,
  InvalidCursorError,
  InvalidJsonError,
  InvalidPackageError,
  InvalidPartsError,
  MethodNotAllowedError,
  MissingCredentialsError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from "@hangar/core";
import {
  EmailNotVerifiedError,
  InvalidTokenError,
  LoginFailedError,
  NotSignedInError,
  SessionNotFoundError,
} from "@hangar/core/account-errors";
import { LinkGoneError, LinkPasswordRequiredError, UnknownLinkError, WrongLinkPasswordError } from "@hangar/core/link-errors";
import { CrossOriginRequestError } from "./csrf";
import type { HttpResult } from "./http-context";

/** The one place that decides HTTP statuses: domain error class → status, by instanceof. */
const STATUS_BY_CLASS: [abstract new (...args: never[]) => HangarError, number][] = [
  [ValidationError, 400],
  [InvalidJsonError, 400],
  [InvalidCursorError, 400],
  [InvalidTokenError, 400],
  [InvalidPartsError, 400],
  [NotSignedInError, 401],
  [LoginFailedError, 401],
  [EmailNotVerifiedError, 403],
  [CrossOriginRequestError, 403],
  [SessionNotFoundError, 404],
  [MissingCredentialsError, 401],
  [InvalidCredentialsError, 401],
  [NotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [PayloadTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [InvalidPackageError, 422],
  [RateLimitedError, 429],
  [DependencyError, 503],
  // Share-link visiting (core's links/link-errors.ts); its 429s are RateLimitedErrors.
  [UnknownLinkError, 404],
  [LinkPasswordRequiredError, 401],
  [WrongLinkPasswordError, 401],
  [LinkGoneError, 410],
];

export interface ErrorBody {
  error: { code: string; message: string; requestId: string; [detail: string]: unknown };
}

export interface MappedError {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** 5xx: the error should be logged with its stack, which the client never sees. */
  internal: boolean;
}

export function mapError(error: unknown, requestId: string): MappedError {
  const entry = error instanceof HangarError ? STATUS_BY_CLASS.find(([cls]) => error instanceof cls) : undefined;
  if (!entry || entry[1] >= 500) {
    const unavailable = entry !== undefined;
    return {
      status: unavailable ? 503 : 500,
      body: {
        error: {
          code: unavailable ? "service_unavailable" : "internal_error",
          message: unavailable ? "A storage service is unavailable; retry shortly" : "Internal server error",
          requestId,
        },
      },
      headers: unavailable ? { "Retry-After": "1" } : {},
      internal: true,
    };
  }
  const domain = error as HangarError;
  const headers: Record<string, string> = {};
  if (domain instanceof RateLimitedError) headers["Retry-After"] = String(domain.retryAfterSeconds);
  if (domain instanceof MethodNotAllowedError) headers["Allow"] = domain.allowed.join(", ");
  if (domain instanceof MissingCredentialsError || domain instanceof InvalidCredentialsError) {
    headers["WWW-Authenticate"] = 'Bearer realm="hangar"';
  }
  return {
    status: entry[1],
    body: { error: { code: domain.code, message: domain.message, requestId, ...domain.details } },
    headers,
    internal: false,
  };
}

export function errorResponse(error: unknown, requestId: string): { result: HttpResult; mapped: MappedError } {
  const mapped = mapError(error, requestId);
  return {
    mapped,
    result: {
      statusCode: mapped.status,
      headers: { "Content-Type": "application/json; charset=utf-8", ...mapped.headers },
      body: JSON.stringify(mapped.body),
    },
  };
}
