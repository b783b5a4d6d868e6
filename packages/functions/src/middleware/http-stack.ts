import middy from "@middy/core";
import { RateLimitedError } from "@hangar/core";
import { logger, observability, record } from "../observability";
import type { HangarContext, HttpEvent, HttpResult, Middleware } from "./http-context";
import { httpEnvelope } from "./http-envelope";
import type { ErrorPage } from "./http-errors";

export interface StackOptions {
  /**
   * Runs its after/onError hooks outside the envelope, on the finished answer (errors included),
   * and its before hook before the envelope's: http-function.ts's per-route response hooks.
   */
  outer?: Middleware;
  errorPage?: ErrorPage;
}

/**
 * The outer middy stack of every API function, the fallback included: observability, then the
 * error/header envelope. Its own module so the fallback (http-fallback.ts) bundles none of what
 * routed functions add (settings, the origin secret, auth).
 */
export function baseStack(options: StackOptions = {}) {
  const stack = middy<HttpEvent, HttpResult, Error, HangarContext>().use(observability());
  if (options.outer) stack.use(options.outer);
  return stack.use(
      httpEnvelope({
        errorPage: options.errorPage,
        logInternal: (error, requestId) => logger.error("request failed", { requestId, error: error as Error }),
        onError: (error) => {
          if (error instanceof RateLimitedError) record.rateLimited();
        },
      }),
    );
}
