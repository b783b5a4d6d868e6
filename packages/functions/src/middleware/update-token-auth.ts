import { authenticateUpdateToken, type UpdateCheckDeps } from "@hangar/core/app-pages";
import { header, type Middleware } from "./http-context";

/**
 * Routes with `auth: "updateToken"` (the in-app update check): `Authorization: Bearer hut_…`, one
 * project's read-only grant on the context, or 401 `invalid_token` / 429 before the handler runs.
 * No other auth kind reads update tokens, and this reads nothing else: the token opens one route.
 */
export function updateTokenAuth(deps: () => UpdateCheckDeps): Middleware {
  return {
    before: async (request) => {
      request.context.updateToken = await authenticateUpdateToken(deps(), header(request.event, "authorization"));
    },
  };
}
