import type { ApiKey, RateLimitState } from "@hangar/core";
import type { Request } from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import type { RouteAuth, RouteDefinition } from "../routes";

/** The signed-in person of a dashboard request (set by the session middleware). */
export interface SessionContext {
  userId: string;
  sessionId: string;
}

/** What the middlewares learn about a request, for the handler and for each other. */
export interface HangarContext extends Context {
  requestId: string;
  /** The matched row of routes.ts; undefined only in the `$default` fallback. */
  route?: RouteDefinition;
  apiKey?: ApiKey;
  rateLimit?: RateLimitState;
  session?: SessionContext;
  body?: unknown;
}

/** The context a handler sees, narrowed by its route's auth kind: no `context.apiKey!`. */
export type ContextFor<A extends RouteAuth> = HangarContext &
  (A extends "apiKey" ? { apiKey: ApiKey; rateLimit: RateLimitState } : A extends "session" ? { session: SessionContext } : unknown);

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;
export type HttpRequest = Request<HttpEvent, HttpResult, Error, HangarContext>;

/** Header lookup that does not care how the client (or API Gateway) cased the name. */
export function header(event: HttpEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
