import { NotSignedInError } from "@hangar/core/accounts";
import { authenticateTester, type TesterAccessDeps } from "@hangar/core/tester-access";
import { clientInfo } from "../accounts/client-info";
import { loadSettings } from "../composition/settings.schema";
import type { HttpEvent, Middleware } from "./http-context";

/** How a function reads the tester cookie and writes the one that clears it. */
export interface TesterCookieIO {
  read(event: HttpEvent): string | undefined;
  cleared(event: HttpEvent): string;
}

/**
 * Authenticates a tester route by the `hangar_tester` cookie only: a dashboard session cookie or
 * an API key is not even looked at, so neither opens the portal (and a tester cookie opens no
 * dashboard route: sessionAuth reads only `hangar_session`). Puts the tester and their client on
 * the context; 401 `not_signed_in` before the handler runs otherwise, and a stale or forged cookie
 * is cleared as it is refused (the onError hook runs outside the envelope, like sessionAuth's).
 */
export function testerAuth(deps: () => Pick<TesterAccessDeps, "sessions" | "clock">, cookie: TesterCookieIO): Middleware {
  return {
    before: async (request) => {
      request.context.tester = await authenticateTester(deps(), cookie.read(request.event));
      request.context.client = clientInfo(request.event, loadSettings());
    },
    onError: (request) => {
      const { error, response, event } = request;
      if (!(error instanceof NotSignedInError) || !response || cookie.read(event) === undefined) return;
      request.response = { ...response, cookies: [...(response.cookies ?? []), cookie.cleared(event)] };
    },
  };
}
