import type { ApiKey, RateLimitState } from "@hangar/core";
import type { Request } from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";

/** What the middlewares learn about a request, for the handler and for each other. */
export interface HangarContext extends Context {
  requestId: string;
  apiKey?: ApiKey;
  rateLimit?: RateLimitState;
  body?: unknown;
}

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
