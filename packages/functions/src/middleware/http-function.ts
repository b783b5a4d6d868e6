import type { MiddlewareObj } from "@middy/core";
import { clientInfo } from "../accounts/client-info";
import { loadOriginSecret } from "../composition/origin-secret";
import { loadSettings } from "../composition/settings.schema";
import { logger, setRequestLines } from "../observability";
import { routeByKey, routeKey, routesOf, type AuthOf, type RouteAuth, type RouteFunctionName, type RouteKeyOf } from "../routes";
import type { ContextFor, HangarContext, HttpEvent, HttpResult } from "./http-context";
import type { ErrorPage } from "./http-envelope";
import { baseStack } from "./http-stack";
import { jsonBody } from "./json-body";

type Middleware = MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext>;

/** One endpoint of a function: its handler, typed by the auth kind routes.ts gives its route. */
export interface Endpoint<A extends RouteAuth> {
  /**
   * Parse a JSON object body into context.body (400/413/415 otherwise), of at most 64 KiB unless
   * the endpoint names its own bound (a multipart complete lists up to 10,000 parts).
   */
  json?: boolean | { maxBytes: number };
  handler: (event: HttpEvent, context: ContextFor<A>) => Promise<HttpResult>;
}

export type Endpoints<F extends RouteFunctionName> = { [K in RouteKeyOf<F>]: Endpoint<AuthOf<K>> };

/**
 * The middleware that authenticates each auth kind a function's routes use. Passed in by the
 * function rather than imported here, so a function without authenticated routes (share,
 * download, the fallback) does not load the composition root or the SDK clients behind it.
 */
export type AuthMiddlewares = Partial<Record<Exclude<RouteAuth, "none">, Middleware>>;

/**
 * A Lambda function serving the routes routes.ts gives it. Every request goes through the same
 * middy stack, outermost first: observability, the error/header envelope, then the auth its
 * route's row names, then the JSON body where the endpoint wants one, then the endpoint.
 * Missing or extra endpoints, or an auth kind without its middleware, fail at import (and so
 * `npm start` and the stack tests), never at a request.
 */
export function httpFunction<F extends RouteFunctionName>(
  fn: F,
  endpoints: Endpoints<F>,
  auth: AuthMiddlewares = {},
  /**
   * guard: runs before auth and body parsing on every route of the function (the accounts' CSRF check).
   * errorPage: renders the function's errors as pages where it wants (share and download, for browsers).
   */
  options: { guard?: Middleware; errorPage?: ErrorPage } = {},
) {
  const table = endpoints as unknown as Record<string, Endpoint<RouteAuth>>;
  const own = routesOf(fn);
  const ownKeys = new Set(own.map(routeKey));
  for (const route of own) {
    if (!table[routeKey(route)]) throw new Error(`${fn}: no endpoint for ${routeKey(route)}`);
    if (route.auth !== "none" && !auth[route.auth]) throw new Error(`${fn}: no ${route.auth} auth for ${routeKey(route)}`);
  }
  for (const key of Object.keys(table)) {
    if (!ownKeys.has(key)) throw new Error(`${fn}: endpoint ${key} is not a route of this function in routes.ts`);
  }

  const dispatch: Middleware = {
    before: async (request) => {
      const route = routeByKey(request.event.routeKey);
      // API Gateway only invokes this function for its own route keys; anything else is a bug.
      if (!route || route.fn !== fn) throw new Error(`${fn} invoked for route ${request.event.routeKey}`);
      request.context.route = route;
      // Before anything trusts a CloudFront header: the secret may have to come from Secrets Manager (503 if it cannot).
      const settings = loadSettings();
      setRequestLines(settings.HANGAR_LOCAL !== "1");
      await loadOriginSecret(settings);
      // The address the per-client limits use: the viewer's only when CloudFront vouched for it.
      logger.appendKeys({ viewerAddress: clientInfo(request.event, settings).ip });
      if (options.guard) await options.guard.before!(request);
      if (route.auth !== "none") await auth[route.auth]!.before!(request);
      const json = table[routeKey(route)]!.json;
      if (json) await jsonBody(json === true ? undefined : json.maxBytes).before!(request);
    },
  };
  return baseStack(options.errorPage ? { errorPage: options.errorPage } : {})
    .use(dispatch)
    .handler((event, context) => table[routeKey(context.route!)]!.handler(event, context as ContextFor<RouteAuth>));
}

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  return {
    statusCode,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: JSON.stringify(body),
  };
}
