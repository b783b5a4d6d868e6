import type { MiddlewareObj } from "@middy/core";
import { authenticateSession, type AccountDeps } from "@hangar/core/accounts";
import type { HangarContext, HttpEvent, HttpResult } from "./http-context";

/**
 * Authenticates a dashboard request by its session cookie only (never by an API key: API-key
 * headers are not even looked at), and puts `{userId, sessionId}` on the context. 401
 * `not_signed_in` before the handler runs otherwise.
 */
export function sessionAuth(
  deps: () => Pick<AccountDeps, "sessions" | "clock" | "settings">,
  readToken: (event: HttpEvent) => string | undefined,
): MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext> {
  return {
    before: async (request) => {
      request.context.session = await authenticateSession(deps(), readToken(request.event));
    },
  };
}
