import middy, { type MiddlewareObj } from "@middy/core";
import { RateLimitedError } from "@hangar/core";
import { getRuntime } from "../composition/root";
import { logger, observability, record } from "../observability";
import { apiKeyAuth } from "./api-key-auth";
import type { HangarContext, HttpEvent, HttpResult } from "./http-context";
import { httpEnvelope } from "./http-envelope";
import { jsonBody } from "./json-body";

export interface RouteOptions {
  /** Require an API key (and count the request against its rate limit). */
  auth: boolean;
  /** Parse a JSON object body into context.body. */
  json: boolean;
}

/**
 * Every route is the same middy stack, outermost first: observability, the error/header
 * envelope, API-key auth, JSON body; then the thin handler (validate with zod, call core).
 */
export function httpRoute(
  options: RouteOptions,
  handler: (event: HttpEvent, context: HangarContext) => Promise<HttpResult>,
) {
  const stack = middy<HttpEvent, HttpResult, Error, HangarContext>()
    .use(observability() as unknown as MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext>)
    .use(
      httpEnvelope({
        logInternal: (error, requestId) => logger.error("request failed", { requestId, error: error as Error }),
        onError: (error) => {
          if (error instanceof RateLimitedError) record.rateLimited();
        },
      }),
    );
  if (options.auth) stack.use(apiKeyAuth(() => getRuntime()));
  if (options.json) stack.use(jsonBody());
  return stack.handler(handler);
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}
