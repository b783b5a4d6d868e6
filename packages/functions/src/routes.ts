/**
 * The one list of HTTP routes. The SST stack builds API Gateway routes from it and the local
 * server dispatches with it, so the two runtimes cannot drift apart.
 */
export interface RouteDefinition {
  /** Stable name: the Lambda function's id in the stack, and a label in logs. */
  name: "presign" | "complete" | "download" | "share";
  method: "GET" | "POST";
  /** API Gateway route path; `{param}` segments become pathParameters. */
  path: string;
  /** SST handler string: file path from the repo root without extension, then `.handler`. */
  handler: string;
  /** Does the route need an API key (and count against its rate limit)? */
  authenticated: boolean;
}

export const routes: readonly RouteDefinition[] = [
  {
    name: "presign",
    method: "POST",
    path: "/api/upload/api-key/presign",
    handler: "packages/functions/src/upload/presign.handler.handler",
    authenticated: true,
  },
  {
    name: "complete",
    method: "POST",
    path: "/api/upload/api-key/complete",
    handler: "packages/functions/src/upload/complete.handler.handler",
    authenticated: true,
  },
  {
    name: "download",
    method: "GET",
    path: "/download/{userKey}",
    handler: "packages/functions/src/share/download.handler.handler",
    authenticated: false,
  },
  {
    name: "share",
    method: "GET",
    path: "/share/{userKey}",
    handler: "packages/functions/src/share/share.handler.handler",
    authenticated: false,
  },
];

/**
 * Answers every request no route matches (API Gateway's `$default` route), so that unknown
 * paths get our JSON 404 and known paths with the wrong method a 405.
 */
export const fallbackHandler = "packages/functions/src/fallback/fallback.handler.handler";

function pathPattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => (/^\{\w+\}$/.test(segment) ? `(?<${segment.slice(1, -1)}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}$`);
}

const compiled = routes.map((route) => ({ route, pattern: pathPattern(route.path) }));

export type RouteMatch =
  | { kind: "route"; route: RouteDefinition; pathParameters: Record<string, string> }
  | { kind: "method_not_allowed"; allowed: string[] }
  | { kind: "not_found" };

/** Matches like API Gateway: exact method and path, `{param}` = one non-empty segment. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const { route, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method === method.toUpperCase()) {
      const params = Object.fromEntries(Object.entries(m.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
      return { kind: "route", route, pathParameters: params };
    }
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: "method_not_allowed", allowed } : { kind: "not_found" };
}
