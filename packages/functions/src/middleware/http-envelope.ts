import { RateLimitedError } from "@hangar/core";
import { randomUUID } from "node:crypto";
import type { HttpRequest, HttpResult, Middleware } from "./http-context";
import { errorResponse, type ErrorPage } from "./http-errors";

export interface EnvelopeOptions {
  /** The function's pages for errors (share, download), in place of the JSON body where it gives one. */
  errorPage?: ErrorPage;
  /** Called for 5xx with the real error, which never reaches the client. */
  logInternal?: (error: unknown, requestId: string) => void;
  /** Every error, mapped or not (for metrics). */
  onError?: (error: unknown) => void;
}

/**
 * On every answer of every function, errors included: browsers must never sniff a type (a JSON
 * error echoing a file name is not HTML), and a document that set no policy of its own (pages
 * set theirs) may load and frame nothing. CloudFront adds the same in production; the functions
 * do not rely on it (the API's own URL, the local stack).
 */
const NOSNIFF = "nosniff";
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'";

const hasHeader = (headers: HttpResult["headers"], name: string) => {
  for (const key in headers) if (key.toLowerCase() === name) return true;
  return false;
};

/**
 * The answer with the envelope's headers: the default policy first (when the result set none),
 * the result's own, then nosniff, the request id and the rate-limit headers, which win over a
 * result's. Assigned one by one rather than spread: the same keys in the same order, without
 * the temporary objects conditional spreads build on every request.
 */
function finish(request: HttpRequest, result: HttpResult): void {
  const ctx = request.context;
  const rate = request.error instanceof RateLimitedError ? request.error.rateLimit : ctx.rateLimit;
  const headers: NonNullable<HttpResult["headers"]> = {};
  if (!hasHeader(result.headers, "content-security-policy")) headers["Content-Security-Policy"] = DEFAULT_CSP;
  for (const name in result.headers) headers[name] = result.headers[name]!;
  headers["X-Content-Type-Options"] = NOSNIFF;
  headers["X-Request-Id"] = ctx.requestId;
  if (rate) {
    headers["X-RateLimit-Limit"] = String(rate.limit);
    headers["X-RateLimit-Remaining"] = String(rate.remaining);
    // Unix epoch seconds at which the window ends (documented in the README).
    headers["X-RateLimit-Reset"] = String(rate.resetAt);
  }
  const response: HttpResult = { ...result };
  // HEAD answers exactly like GET, without the body (RFC 9110 §9.3.2).
  if (request.event.requestContext?.http?.method === "HEAD") response.body = "";
  response.headers = headers;
  request.response = response;
}

/**
 * Outermost middleware (its after/onError run last): gives every response its X-Request-Id and
 * rate-limit headers, and turns any error into the JSON error body (or the function's error
 * page) through the one mapping of http-errors.ts. 4xx messages are the errors' own; 5xx say
 * nothing about internals.
 */
export function httpEnvelope(options: EnvelopeOptions = {}): Middleware {
  return {
    before: (request) => {
      request.context.requestId = request.event.requestContext?.requestId || randomUUID();
    },
    after: (request) => {
      finish(request, request.response ?? { statusCode: 204 });
    },
    onError: (request) => {
      const requestId = request.context.requestId || randomUUID();
      request.context.requestId = requestId;
      const { result, mapped } = errorResponse(request.error, requestId, request.event, options.errorPage);
      if (mapped.internal) options.logInternal?.(request.error, requestId);
      options.onError?.(request.error);
      finish(request, result);
    },
  };
}
