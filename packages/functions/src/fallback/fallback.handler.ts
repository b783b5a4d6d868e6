import { httpFallback } from "../middleware/http-fallback";
import { MethodNotAllowedError, RouteNotFoundError } from "../middleware/http-errors";
import { matchRoute } from "../routes";

/** API Gateway's `$default` route: our JSON 404/405 instead of API Gateway's own bodies. */
export const handler = httpFallback(async (event) => {
  const match = matchRoute(event.requestContext.http.method, event.rawPath);
  if (match.kind === "method_not_allowed") throw new MethodNotAllowedError(match.allowed);
  throw new RouteNotFoundError("route_not_found", `No route for ${event.requestContext.http.method} ${event.rawPath}`);
});
