import { readSessionCookie } from "../accounts/session-cookie";
import { sameOriginGuard } from "../middleware/csrf";
import type { HttpEvent } from "../middleware/http-context";
import { httpFunction, type Endpoints } from "../middleware/http-function";
import { withSecurityHeaders } from "../middleware/security-headers";
import { sessionAuth } from "../middleware/session-auth";
import type { RouteFunctionName } from "../routes";
import { sessionDeps } from "./sessions";
import { linkBases } from "./link-bases";
import { getRuntime } from "./root";

const publicBase = (event: HttpEvent) => linkBases(event, getRuntime().settings).publicBaseUrl;

/**
 * A dashboard function (projects, keys, files) with what the accounts function puts in front of
 * its routes: the same-origin guard (CSRF), authentication by the session cookie only (an API
 * key never opens the dashboard), and the account API's security headers on every answer.
 */
export function dashboardFunction<F extends RouteFunctionName>(fn: F, endpoints: Endpoints<F>) {
  const inner = httpFunction(
    fn,
    endpoints,
    { session: sessionAuth(sessionDeps, (event) => readSessionCookie(event, publicBase(event))) },
    { guard: sameOriginGuard(publicBase) },
  );
  return withSecurityHeaders(inner as unknown as Parameters<typeof withSecurityHeaders>[0]);
}
