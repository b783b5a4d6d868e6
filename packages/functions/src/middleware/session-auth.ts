import { authenticateSession, NotSignedInError, type AccountDeps } from "@hangar/core/accounts";
import { clientInfo } from "../accounts/client-info";
import { loadSettings } from "../composition/settings.schema";
import type { HttpEvent, Middleware } from "./http-context";

/** How a function reads its session cookie and writes the one that clears it. */
export interface SessionCookie {
  read(event: HttpEvent): string | undefined;
  cleared(event: HttpEvent): string;
}

/**
 * Authenticates a dashboard request by its session cookie only (never by an API key: API-key
 * headers are not even looked at), and puts `{userId, sessionId}` on the context, with the
 * client (address and user agent, exactly as sign-in and the rate limits see them) that the
 * workspace use cases' Actor carries into the audit log (actor.ts: `actorOf(context)`). 401
 * `not_signed_in` before the handler runs otherwise; a stale or forged cookie is cleared as it is
 * refused, so the browser stops sending it. The onError hook runs outside the envelope
 * (http-function.ts), so it adds the cookie to the envelope's finished 401.
 */
export function sessionAuth(deps: () => Pick<AccountDeps, "sessions" | "clock" | "settings">, cookie: SessionCookie): Middleware {
  return {
    before: async (request) => {
      request.context.session = await authenticateSession(deps(), cookie.read(request.event));
      request.context.client = clientInfo(request.event, loadSettings());
    },
    onError: (request) => {
      const { error, response, event } = request;
      if (!(error instanceof NotSignedInError) || !response || cookie.read(event) === undefined) return;
      request.response = { ...response, cookies: [...(response.cookies ?? []), cookie.cleared(event)] };
    },
  };
}
