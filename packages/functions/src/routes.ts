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
