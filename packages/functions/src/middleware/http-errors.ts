import {
  BuildNotCompletedError,
  ConflictError,
  ForbiddenError,
  DependencyError,
  HangarError,
  InvalidCredentialsError,
  InvalidCursorError,
  InvalidPackageError,
  InvalidPartsError,
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
import { InvitationConflictError, InvitationGoneError, WrongAccountError } from "@hangar/core/invitation-errors";
import { GroupConflictError, GroupNotFoundError, JoinLinkGoneError, TesterNotFoundError } from "@hangar/core/tester-group-errors";
import { LinkGoneError, LinkPasswordRequiredError, UnknownLinkError, WrongLinkPasswordError } from "@hangar/core/link-errors";
import { AppNotFoundError } from "@hangar/core/tester-access-errors";
import { AppBuildNotFoundError, AppPageNotFoundError, InvalidUpdateTokenError, UpdateTokenNotFoundError } from "@hangar/core/app-page-errors";
import type { HttpEvent, HttpResult } from "./http-context";

/*
 * Errors only HTTP can have: the request's body, route or method, and the same-origin check.
 * They live here, beside their statuses, so core speaks domain errors only (as Powertools keeps
 * its MethodNotAllowedError in its HTTP package). They extend HangarError so that one mapping,
 * below, answers both kinds.
 */

export class InvalidJsonError extends HangarError {
  readonly code = "invalid_json";
  constructor(message = "Request body is not valid JSON") {
    super(message);
  }
}

/** 413: the request body is over the route's bound (64 KiB unless the route names its own). */
export class BodyTooLargeError extends HangarError {
  readonly code = "body_too_large";
  constructor(maxBytes: number) {
    super(`Request body exceeds ${maxBytes} bytes`);
  }
}

/** 415: a JSON route's body sent as anything but JSON. */
export class UnsupportedBodyTypeError extends HangarError {
  readonly code = "unsupported_media_type";
  constructor(message = "Send the request body as Content-Type: application/json") {
    super(message);
  }
}

export class MethodNotAllowedError extends HangarError {
  readonly code = "method_not_allowed";
  constructor(
    readonly allowed: string[],
    message = `Method not allowed; use ${allowed.join(", ")}`,
  ) {
    super(message);
  }
}

/** 404 for what no route serves: an unknown path, or a name the CLI route does not serve. */
export class RouteNotFoundError extends HangarError {
  constructor(
    readonly code: "route_not_found" | "cli_not_found" | "unsubscribe_not_found",
    message: string,
  ) {
    super(message);
  }
}

/** 403: a state-changing request that did not come from the dashboard's own pages (csrf.ts). */
export class CrossOriginRequestError extends HangarError {
  readonly code = "cross_origin_request";
  constructor(message = "This request must come from the Hangar dashboard") {
    super(message);
  }
}

/** The one place that decides HTTP statuses: error class → status, by instanceof. */
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
  [ForbiddenError, 403],
  [SessionNotFoundError, 404],
  [MissingCredentialsError, 401],
  [InvalidCredentialsError, 401],
  [NotFoundError, 404],
  [RouteNotFoundError, 404],
  [MethodNotAllowedError, 405],
  [ConflictError, 409],
  [BuildNotCompletedError, 409],
  [PayloadTooLargeError, 413],
  [BodyTooLargeError, 413],
  [UnsupportedMediaTypeError, 415],
  [UnsupportedBodyTypeError, 415],
  [InvalidPackageError, 422],
  [RateLimitedError, 429],
  [DependencyError, 503],
  // Share-link visiting (core's links/link-errors.ts); its 429s are RateLimitedErrors.
  [UnknownLinkError, 404],
  [LinkPasswordRequiredError, 401],
  [WrongLinkPasswordError, 401],
  [LinkGoneError, 410],
  // Invitations (core's invitations/invitation-errors.ts); their 429s are RateLimitedErrors.
  [InvitationGoneError, 410],
  [WrongAccountError, 403],
  [InvitationConflictError, 409],
  // Tester groups and their invite links (core's tester-groups/tester-group-errors.ts).
  [GroupNotFoundError, 404],
  [TesterNotFoundError, 404],
  [GroupConflictError, 409],
  [JoinLinkGoneError, 410],
  // Tester access (core's tester-access/tester-access-errors.ts; a dead invite link is tester-groups' JoinLinkGoneError).
  [AppNotFoundError, 404],
  // App pages and the update check (core's app-pages/app-page-errors.ts).
  [AppPageNotFoundError, 404],
  [AppBuildNotFoundError, 404],
  [UpdateTokenNotFoundError, 404],
  [InvalidUpdateTokenError, 401],
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
  if (domain instanceof MissingCredentialsError || domain instanceof InvalidCredentialsError || domain instanceof InvalidUpdateTokenError) {
    headers["WWW-Authenticate"] = 'Bearer realm="hangar"';
  }
  return {
    status: entry[1],
    body: { error: { code: domain.code, message: domain.message, requestId, ...domain.details } },
    headers,
    internal: false,
  };
}

/**
 * A function's own rendering of an error, where its routes answer browsers with pages (share,
 * download): given the mapped error (status, code, message, headers), a page, or undefined for
 * the JSON body. It renders; it never decides a status or a code. `error` is what was thrown, so
 * a page can tell errors apart by class, never by their text.
 */
export type ErrorPage = (mapped: MappedError, event: HttpEvent, error: unknown) => HttpResult | undefined;

export function errorResponse(error: unknown, requestId: string, event?: HttpEvent, errorPage?: ErrorPage): { result: HttpResult; mapped: MappedError } {
  const mapped = mapError(error, requestId);
  const page = errorPage && event ? errorPage(mapped, event, error) : undefined;
  return {
    mapped,
    result: page ?? {
      statusCode: mapped.status,
      // An error is about this request: no cache (CloudFront's included) may keep it for the next one.
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...mapped.headers },
      body: JSON.stringify(mapped.body),
    },
  };
}
