import middy, { type MiddlewareObj } from "@middy/core";
import { RateLimitedError } from "@hangar/core";
import { logger, observability, record } from "../observability";
import type { HangarContext, HttpEvent, HttpResult } from "./http-context";
import { httpEnvelope, type ErrorPage } from "./http-envelope";

type Middleware = MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext>;

/**
 * The outer middy stack of every API function, the fallback included: observability, then the
 * error/header envelope. Its own module so the fallback (http-fallback.ts) bundles none of what
 * routed functions add (settings, the origin secret, auth).
 */
export function baseStack(options: { errorPage?: ErrorPage } = {}) {
  return middy<HttpEvent, HttpResult, Error, HangarContext>()
    .use(observability() as unknown as Middleware)
    .use(
      httpEnvelope({
        logInternal: (error, requestId) => logger.error("request failed", { requestId, error: error as Error }),
        onError: (error) => {
          if (error instanceof RateLimitedError) record.rateLimited();
        },
        ...(options.errorPage ? { errorPage: options.errorPage } : {}),
      }),
    );
}
