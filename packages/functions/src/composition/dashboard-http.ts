import { clearedSessionCookie, readSessionCookie } from "../accounts/session-cookie";
import { sameOriginGuard } from "../middleware/csrf";
import type { HttpEvent, Middleware } from "../middleware/http-context";
import { httpFunction, type Endpoints, type RouteMiddlewares } from "../middleware/http-function";
import { dashboardHeaders } from "../middleware/security-headers";
import { sessionAuth, type SessionCookie } from "../middleware/session-auth";
import type { RouteFunctionName } from "../routes";
import { sessionDeps } from "./sessions";
import { linkBases } from "./link-bases";
import { getRuntime } from "./root";

const publicBase = (event: HttpEvent) => linkBases(event, getRuntime().settings).publicBaseUrl;

/** The dashboard's session cookie, named by the stage's public address (`__Host-` with https). */
export const sessionCookie: SessionCookie = {
  read: (event) => readSessionCookie(event, publicBase(event)),
  cleared: (event) => clearedSessionCookie(publicBase(event)),
};

/**
 * What routes of the dashboard kind (route-input/) run first: the same-origin guard (CSRF)
 * before anything else, and the account API's security headers on every answer.
 */
export function dashboardMiddlewares(): Middleware[] {
  return [sameOriginGuard(publicBase), dashboardHeaders()];
}

/**
 * A dashboard function (projects, keys, files, links): its routes are of the dashboard kind and
 * authenticate by the session cookie only (an API key never opens the dashboard).
 */
export function dashboardFunction<F extends RouteFunctionName>(fn: F, endpoints: Endpoints<F>) {
  return httpFunction(fn, endpoints, dashboardRouteMiddlewares());
}

/**
 * The session and dashboard middlewares alone, for a function that serves dashboard routes beside
 * API-key ones (presign, multipart and complete also serve the dashboard's browser uploads).
 */
export function dashboardRouteMiddlewares(): Pick<RouteMiddlewares, "session" | "dashboard"> {
  return { session: sessionAuth(sessionDeps, sessionCookie), dashboard: dashboardMiddlewares() };
}
