import type { APIGatewayProxyEventV2 } from "aws-lambda";
import type { IncomingMessage } from "node:http";
import { randomFillSync } from "node:crypto";

/** Content types API Gateway passes as text; everything else arrives base64-encoded. */
const TEXT_TYPES = /^(text\/|application\/(json|xml|x-www-form-urlencoded|[\w.+-]+\+json|[\w.+-]+\+xml))/i;

export interface EventInput {
  req: IncomingMessage;
  /** `req.url` parsed against any base, when the caller already has it (it is parsed otherwise). */
  url?: URL;
  body: Buffer;
  routeKey: string;
  pathParameters?: Record<string, string>;
  /** The id the local server logs this request under (API Gateway's `requestContext.requestId`). */
  requestId?: string;
}

const ID_BYTES = 12;
/** Random bytes for 256 ids at a time: one call into the CSPRNG instead of one per request. */
const idPool = Buffer.alloc(ID_BYTES * 256);
let idOffset = idPool.length;

/** API Gateway request ids look like `Xy12AbCdIAMEV0w=`: 12 random bytes, base64. */
export function newRequestId(): string {
  if (idOffset === idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  idOffset += ID_BYTES;
  return idPool.toString("base64", idOffset - ID_BYTES, idOffset);
}

/**
 * Builds the HTTP API payload v2 event API Gateway would send for this request: lower-cased
 * headers with repeats joined by commas, cookies split out, query parsed, body as text or base64.
 */
export function toApiGatewayEvent({ req, url = new URL(req.url ?? "/", "http://localhost"), body, routeKey, pathParameters, requestId }: EventInput): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    if (name === "cookie") continue;
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  const cookies = req.headers.cookie?.split(/;\s*/).filter(Boolean);
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;

  const contentType = headers["content-type"] ?? "";
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = new Date();
  const host = headers.host ?? "localhost";
  const event: APIGatewayProxyEventV2 = {
    version: "2.0",
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    requestContext: {
      accountId: "000000000000",
      apiId: "local",
      domainName: host,
      domainPrefix: host.split(".")[0]!,
      http: {
        method: req.method ?? "GET",
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: requestId ?? newRequestId(),
      routeKey,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: !isText,
  };
  if (cookies?.length) event.cookies = cookies;
  if (Object.keys(query).length) event.queryStringParameters = query;
  if (pathParameters && Object.keys(pathParameters).length) event.pathParameters = pathParameters;
  if (body.length > 0) event.body = isText ? body.toString("utf8") : body.toString("base64");
  return event;
}
