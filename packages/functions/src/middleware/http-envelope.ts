import type { MiddlewareObj } from "@middy/core";
import { RateLimitedError, type RateLimitState } from "@hangar/core";
import { randomUUID } from "node:crypto";
import type { HangarContext, HttpEvent, HttpRequest, HttpResult } from "./http-context";
import { errorResponse, type MappedError } from "./http-errors";

/**
 * A function's own rendering of errors for some clients (the share pages for browsers):
 * the mapped error as a response, or undefined for the JSON envelope.
 */
export type ErrorPage = (mapped: MappedError, event: HttpEvent) => HttpResult | undefined;

export interface EnvelopeOptions {
  /** Called for 5xx with the real error, which never reaches the client. */
  logInternal?: (error: unknown, requestId: string) => void;
  /** Every error, mapped or not (for metrics). */
  onError?: (error: unknown) => void;
  /** Renders errors as pages where the function wants (share-link routes); JSON otherwise. */
  errorPage?: ErrorPage;
}

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(state.remaining),
    // Unix epoch seconds at which the window ends (documented in the README).
    "X-RateLimit-Reset": String(state.resetAt),
  };
}

/**
 * On every answer of every function, errors included: browsers must never sniff a type (a JSON
 * error echoing a file name is not HTML), and a document that set no policy of its own (pages
 * set theirs) may load and frame nothing. CloudFront adds the same in production; the functions
 * do not rely on it (the API's own URL, the local stack).
 */
const NOSNIFF = { "X-Content-Type-Options": "nosniff" } as const;
const DEFAULT_CSP = "default-src 'none'; frame-ancestors 'none'";

const hasHeader = (headers: HttpResult["headers"], name: string) =>
  Object.keys(headers ?? {}).some((key) => key.toLowerCase() === name.toLowerCase());

function finish(request: HttpRequest, result: HttpResult): void {
  const ctx = request.context;
  const rate = request.error instanceof RateLimitedError ? request.error.rateLimit : ctx.rateLimit;
  request.response = {
    ...result,
    // HEAD answers exactly like GET, without the body (RFC 9110 §9.3.2).
    ...(request.event.requestContext?.http?.method === "HEAD" ? { body: "" } : {}),
    headers: {
      ...(hasHeader(result.headers, "Content-Security-Policy") ? {} : { "Content-Security-Policy": DEFAULT_CSP }),
      ...result.headers,
      ...NOSNIFF,
      "X-Request-Id": ctx.requestId,
      ...(rate ? rateLimitHeaders(rate) : {}),
    },
  };
}

/**
 * Outermost middleware (its after/onError run last): gives every response its X-Request-Id and
 * rate-limit headers, and turns any error into the JSON error body. 4xx messages are the domain
 * errors' own; 5xx say nothing about internals.
 */
export function httpEnvelope(options: EnvelopeOptions = {}): MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext> {
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
      const { result, mapped } = errorResponse(request.error, requestId);
      if (mapped.internal) options.logInternal?.(request.error, requestId);
      options.onError?.(request.error);
      finish(request, options.errorPage?.(mapped, request.event) ?? result);
    },
  };
}
