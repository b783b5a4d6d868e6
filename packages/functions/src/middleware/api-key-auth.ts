import type { MiddlewareObj } from "@middy/core";
import { authenticate, type AuthenticateDeps } from "@hangar/core";
import { header, type HangarContext, type HttpEvent, type HttpResult } from "./http-context";

/** Authenticates the API key and counts the request; rejects with 401/429 before the handler runs. */
export function apiKeyAuth(deps: () => AuthenticateDeps): MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext> {
  return {
    before: async (request) => {
      const { apiKey, rateLimit } = await authenticate(deps(), {
        clientId: header(request.event, "x-client-id"),
        authorization: header(request.event, "authorization"),
      });
      request.context.apiKey = apiKey;
      request.context.rateLimit = rateLimit;
    },
  };
}
