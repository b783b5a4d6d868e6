import type { MiddlewareObj, Request } from "@middy/core";
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from "aws-lambda";
import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import { logger } from "./logger";
import { flushMetrics } from "./metrics";

const MAX_CLIENT_ID_LOG_LENGTH = 128;

/**
 * One `request` line per request (route, status, duration, viewerAddress) in Lambda, where nothing
 * else names the viewer (API Gateway's access log sees CloudFront's address). Off until the
 * composition root switches it on: the local server prints its own line per request.
 */
let requestLines = false;
export function setRequestLines(on: boolean): void {
  requestLines = on;
}

/**
 * Keys appended to every log line of one request. Only the client ID is taken from the
 * headers; the Authorization header carries the secret and is never read here. The viewer's
 * address (`viewerAddress`) is added by the dispatch (middleware/http-function.ts) once the
 * origin secret is known, since it is trusted only from a request that carries it.
 */
export function requestLogKeys(event: Partial<APIGatewayProxyEventV2>): Record<string, string> {
  const keys: Record<string, string> = {};
  const requestId = event.requestContext?.requestId;
  if (typeof requestId === "string" && requestId !== "") keys.requestId = requestId;
  const headers = event.headers ?? {};
  // HTTP APIs lower-case header names, the local server may not.
  const clientIdHeader = Object.keys(headers).find((h) => h.toLowerCase() === "x-client-id");
  const clientId = clientIdHeader === undefined ? undefined : headers[clientIdHeader];
  if (typeof clientId === "string" && clientId !== "") {
    keys.clientId = clientId.slice(0, MAX_CLIENT_ID_LOG_LENGTH);
  }
  return keys;
}

/**
 * Middy middleware for every API function: Lambda context and request keys on the logger,
 * cleared after the request (warm containers serve many), and this request's metrics flushed
 * whether the handler returned or threw.
 *
 * Powertools' own `logMetrics` is not used: it flushes unconditionally and warns on every
 * request that recorded no metric. Its `injectLambdaContext` is used as is.
 */
export function observability<R = APIGatewayProxyResultV2, C extends Context = Context>(): MiddlewareObj<APIGatewayProxyEventV2, R, Error, C> {
  // logEvent forced off: the event holds the Authorization header, whatever the env says.
  const context = injectLambdaContext(logger, { resetKeys: true, logEvent: false });
  type ApiRequest = Request<APIGatewayProxyEventV2, R, Error, C>;
  const started = new WeakMap<ApiRequest, number>();
  const requestLine = (request: ApiRequest) => {
    const since = started.get(request);
    if (!requestLines || since === undefined) return;
    started.delete(request);
    const response = request.response as { statusCode?: number } | undefined;
    logger.info("request", {
      route: request.event.routeKey,
      status: response?.statusCode ?? 500,
      durationMs: Math.round(performance.now() - since),
    });
  };
  return {
    before: async (request: ApiRequest) => {
      started.set(request, performance.now());
      await context.before?.(request);
      logger.appendKeys(requestLogKeys(request.event));
    },
    after: async (request: ApiRequest) => {
      flushMetrics();
      requestLine(request);
      await context.after?.(request);
    },
    onError: async (request: ApiRequest) => {
      flushMetrics();
      requestLine(request);
      await context.onError?.(request);
    },
  };
}
