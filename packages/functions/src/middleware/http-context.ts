import type { ApiKey, RateLimitState } from "@hangar/core";
import type { ClientInfo, SessionContext } from "@hangar/core/accounts";
import type { TesterSession, UpdateGrant } from "@hangar/core/testers";
import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { BodyOf, ParamsOf, QueryOf } from "../route-input";
import type { AuthOf, RouteAuth, RouteDefinition, RouteKey } from "../routes";

export type { SessionContext };

/** What the middlewares learn about a request, for the handler and for each other. */
export interface HangarContext extends Context {
  requestId: string;
  /** The matched row of routes.ts; undefined only in the `$default` fallback. */
  route?: RouteDefinition;
  apiKey?: ApiKey;
  rateLimit?: RateLimitState;
  session?: SessionContext;
  /**
   * How the session's client reached us (address as the per-client limits count it, user agent),
   * set by the session middleware beside `session`: the audit log's "from where" (actor.ts).
   */
  client?: ClientInfo;
  /** The signed-in tester (`auth: "tester"` routes), with their client like a session's. */
  tester?: TesterSession;
  /** The update token's grant (`auth: "updateToken"`): one project's latest build, nothing else. */
  updateToken?: UpdateGrant;
  /** The JSON body, parsed with the route's body schema (route-input/). */
  body?: unknown;
  /** The path parameters, parsed with the route's params schema. */
  params?: unknown;
  /** The query string, parsed with the route's query schema. */
  query?: unknown;
}

/** What the auth middleware of each kind puts on the context. */
type AuthContext<A extends RouteAuth> = A extends "apiKey"
  ? { apiKey: ApiKey; rateLimit: RateLimitState }
  : A extends "session"
    ? { session: SessionContext; client: ClientInfo }
    : A extends "tester"
      ? { tester: TesterSession; client: ClientInfo }
      : A extends "updateToken"
        ? { updateToken: UpdateGrant }
        : unknown;

/**
 * The context a handler of route K sees: typed by its row in routes.ts (the caller) and in
 * route-input/ (body, params, query, already parsed): no `context.apiKey!`, no `unknown` body.
 */
export type ContextFor<K extends RouteKey> = HangarContext &
  AuthContext<AuthOf<K>> & { body: BodyOf<K>; params: ParamsOf<K>; query: QueryOf<K> };

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;
export type HttpRequest = Request<HttpEvent, HttpResult, Error, HangarContext>;
export type Middleware = MiddlewareObj<HttpEvent, HttpResult, Error, HangarContext>;

/** Header lookup that does not care how the client (or API Gateway) cased the name. */
export function header(event: HttpEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const headers = event.headers;
  // for…in, not Object.entries: the same keys in the same order, without an array per lookup.
  for (const key in headers) {
    if (key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}
