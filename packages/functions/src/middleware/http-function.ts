import { parseInput } from "@hangar/core";
import type { Context } from "aws-lambda";
import { clientInfo } from "../accounts/client-info";
import { loadOriginSecret } from "../composition/origin-secret";
import { loadSettings } from "../composition/settings.schema";
import { logger, setRequestLines } from "../observability";
import { inputOf, type RouteInput } from "../route-input";
import { routeByKey, routeKey, routesOf, type RouteDefinition, type RouteFunctionName, type RouteKey, type RouteKeyOf } from "../routes";
import type { ContextFor, HangarContext, HttpEvent, HttpRequest, HttpResult, Middleware } from "./http-context";
import type { ErrorPage } from "./http-errors";
import { baseStack } from "./http-stack";
import { jsonBody } from "./json-body";
import { pathParams, queryInput } from "./request-params";

/**
 * One endpoint of a function: its handler, typed by its route's rows in routes.ts (the caller:
 * `context.session` / `context.apiKey`) and route-input/ (`context.body`, `context.params`,
 * `context.query`, already parsed). A handler only translates HTTP: it calls a use case with
 * that typed input and shapes the answer.
 */
export interface Endpoint<K extends RouteKey> {
  handler: (event: HttpEvent, context: ContextFor<K>) => Promise<HttpResult>;
}

export type Endpoints<F extends RouteFunctionName> = { [K in RouteKeyOf<F>]: Endpoint<K> };

/** Any endpoint, as the dispatch holds them: each handler is called with its own route's context. */
type SomeEndpoint = { handler: (event: HttpEvent, context: never) => Promise<HttpResult> };

/**
 * The middlewares behind the route table's declarations that need a function's composition
 * (its storage, its cookie names), handed in by the function rather than imported here, so a
 * function without authenticated routes (share, download, the fallback) does not load the
 * composition root or the SDK clients behind it. Body, query and params parsing need nothing
 * and are built here from route-input/.
 */
export interface RouteMiddlewares {
  /** Routes with `auth: "apiKey"`. */
  apiKey?: Middleware;
  /** Routes with `auth: "session"`. */
  session?: Middleware;
  /** Routes with `auth: "tester"` (the tester portal's cookie). */
  tester?: Middleware;
  /** Routes with `auth: "updateToken"` (`Authorization: Bearer <update token>`). */
  updateToken?: Middleware;
  /** Routes of kind `dashboard`, in order: the same-origin guard, the security headers. */
  dashboard?: Middleware[];
}

export interface FunctionOptions {
  /**
   * Renders an error as a page instead of the JSON body where it returns one (share and
   * download answer browsers). The mapping (status, code, message, headers) stays
   * http-errors.ts's; this only chooses the body.
   */
  errorPage?: ErrorPage;
}

const parserOf = (schema: NonNullable<RouteInput["body"]>) =>
  typeof schema === "function" ? schema : (raw: unknown) => parseInput(schema, raw);

/** The route's middlewares, outermost first, from its rows in routes.ts and route-input/. */
function chainOf(fn: RouteFunctionName, route: RouteDefinition, middlewares: RouteMiddlewares): Middleware[] {
  const key = routeKey(route);
  const input = inputOf(key);
  if (!input) throw new Error(`${fn}: ${key} has no row in route-input/`);
  const chain: Middleware[] = [];
  if (input.kind === "dashboard") {
    if (!middlewares.dashboard) throw new Error(`${fn}: no dashboard middlewares for ${key}`);
    chain.push(...middlewares.dashboard);
  }
  if (route.auth !== "none") {
    const auth = middlewares[route.auth];
    if (!auth) throw new Error(`${fn}: no ${route.auth} auth for ${key}`);
    chain.push(auth);
  }
  // Body before query before params: a refused body is a 400 whatever the id names, as before.
  if (input.body) chain.push(jsonBody(parserOf(input.body), input.maxBodyBytes));
  if (input.query) chain.push(queryInput(parserOf(input.query)));
  if (input.params) {
    if (!input.notFound) throw new Error(`${fn}: ${key} has params but no notFound`);
    chain.push(pathParams(parserOf(input.params), input.notFound));
  }
  return chain;
}

type Hook = (request: HttpRequest) => unknown;

/** A route's hooks by phase, only those its middlewares define; after/onError innermost first. */
interface RouteHooks {
  before: Hook[];
  after: Hook[];
  onError: Hook[];
}

function hooksOf(chain: Middleware[]): RouteHooks {
  const defined = (hooks: (Hook | undefined)[]) => hooks.filter((hook): hook is Hook => hook !== undefined);
  return {
    before: defined(chain.map((m) => m.before)),
    after: defined(chain.map((m) => m.after)).reverse(),
    onError: defined(chain.map((m) => m.onError)).reverse(),
  };
}

const NO_HOOKS: RouteHooks = { before: [], after: [], onError: [] };

async function runHooks(request: HttpRequest, hooks: Hook[]): Promise<void> {
  for (const hook of hooks) await hook(request);
}

/**
 * A Lambda function serving the routes routes.ts gives it. Every request goes through one middy
 * stack: observability, the route's response hooks, the error/header envelope, then the
 * dispatch, which runs the route's own middlewares (the dashboard's guard, the auth its row
 * names, body, query and params parsing) and then the endpoint.
 *
 * A route's middlewares run their `before` hooks inside the envelope (what they throw becomes
 * its error answer) and their `after`/`onError` hooks outside it (they see the finished answer,
 * the error envelope's included): that is how the security headers and the clearing of a refused
 * session cookie land on every answer without wrapping the function outside middy.
 *
 * Missing or extra endpoints, a route without its input row, or a declaration without its
 * middleware fail at import (and so `npm start` and the stack tests), never at a request.
 */
export function httpFunction<F extends RouteFunctionName>(
  fn: F,
  endpoints: Endpoints<F>,
  middlewares: RouteMiddlewares = {},
  options: FunctionOptions = {},
) {
  const table: Record<string, SomeEndpoint> = endpoints;
  const own = routesOf(fn);
  const ownKeys = new Set(own.map(routeKey));
  // Each route's hooks, worked out once here rather than on every request.
  const hooksByKey = new Map<string, RouteHooks>();
  for (const route of own) {
    if (!table[routeKey(route)]) throw new Error(`${fn}: no endpoint for ${routeKey(route)}`);
    hooksByKey.set(routeKey(route), hooksOf(chainOf(fn, route, middlewares)));
  }
  for (const key of Object.keys(table)) {
    if (!ownKeys.has(key)) throw new Error(`${fn}: endpoint ${key} is not a route of this function in routes.ts`);
  }
  // The dispatch set context.route from this very key (routeByKey), so the key names its hooks.
  const hooksOfRequest = (request: HttpRequest) => (request.context.route ? hooksByKey.get(request.event.routeKey) ?? NO_HOOKS : NO_HOOKS);

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
      await runHooks(request, hooksOfRequest(request).before);
    },
  };
  // Innermost first, as middy runs after/onError hooks.
  const responseHooks: Middleware = {
    after: (request) => runHooks(request, hooksOfRequest(request).after),
    onError: (request) => runHooks(request, hooksOfRequest(request).onError),
  };
  return baseStack({ outer: responseHooks, errorPage: options.errorPage })
    .use(dispatch)
    // The dispatch parsed this context for exactly this route: it is the ContextFor<K> the endpoint was typed with.
    .handler((event, context) => table[event.routeKey]!.handler(event, context as never));
}

/**
 * The context the Lambda runtime passes, as the stack sees it: the envelope's `before` fills in
 * what HangarContext adds (the request id) before anything reads it. For functions that also
 * take non-HTTP invocations and call their HTTP handler themselves (accounts, projects).
 */
export const hangarContext = (context: Context): HangarContext => context as HangarContext;

export function json(statusCode: number, body: unknown, headers?: Record<string, string>): HttpResult {
  const all: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
  // Assigned, not spread: a spread of the (usually absent) extra headers costs a copy per answer.
  for (const name in headers) all[name] = headers[name]!;
  return { statusCode, headers: all, body: JSON.stringify(body) };
}
