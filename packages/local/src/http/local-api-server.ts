import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { functions, matchRoute, routeKey } from "@hangar/functions/routes";
import { newRequestId, toApiGatewayEvent } from "./api-gateway-event";

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** API Gateway's own payload ceiling; bigger requests never reach a function. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;

/** Loads a handler from its SST handler string: the same module the stack deploys. */
async function loadHandler(handlerString: string): Promise<Handler> {
  const dot = handlerString.lastIndexOf(".");
  const file = resolve(REPO_ROOT, `${handlerString.slice(0, dot)}.ts`);
  const module = (await import(pathToFileURL(file).href)) as Record<string, Handler>;
  const handler = module[handlerString.slice(dot + 1)];
  if (typeof handler !== "function") throw new Error(`${handlerString} exports no handler`);
  return handler;
}

function lambdaContext(name: string): Context {
  const started = Date.now();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: `hangar-local-${name}`,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:hangar-local-${name}`,
    memoryLimitInMB: "1024",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/hangar-local-${name}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, 29_000 - (Date.now() - started)),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolveBody(size > MAX_REQUEST_BYTES ? undefined : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | number | boolean | string[]> = { ...(result.headers ?? {}) };
  if (result.cookies?.length) headers["set-cookie"] = result.cookies;
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8") : Buffer.alloc(0);
  headers["content-length"] = body.length;
  res.writeHead(result.statusCode ?? 200, headers as Record<string, string>);
  res.end(body);
}

export interface LocalApiServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the routes of routes.ts through the very handlers Lambda runs, by turning each
 * request into the payload v2 event API Gateway (HTTP API) would send. Unmatched requests go
 * to the fallback handler, as API Gateway's `$default` route does.
 */
export async function startLocalApiServer(options: { host: string; port: number }): Promise<LocalApiServer> {
  const handlers = new Map<string, Promise<Handler>>();
  const handlerFor = (h: string) => {
    if (!handlers.has(h)) handlers.set(h, loadHandler(h));
    return handlers.get(h)!;
  };
  // Load every handler up front: a broken import should fail `npm start`, not the first request.
  await Promise.all(Object.values(functions).map((f) => handlerFor(f.handler)));

  const server = createServer(async (req, res) => {
    try {
      const body = await readBody(req);
      if (body === undefined) {
        // API Gateway refuses these before any function runs; answer in our error shape anyway.
        const requestId = newRequestId();
        res.writeHead(413, { "content-type": "application/json", "x-request-id": requestId });
        res.end(JSON.stringify({ error: { code: "body_too_large", message: "Request exceeds 10 MB", requestId } }));
        return;
      }
      const path = new URL(req.url ?? "/", "http://localhost").pathname;
      const match = matchRoute(req.method ?? "GET", path);
      const route = match.kind === "route" ? match.route : undefined;
      const event = toApiGatewayEvent({
        req,
        body,
        routeKey: route ? routeKey(route) : "$default",
        ...(match.kind === "route" ? { pathParameters: match.pathParameters } : {}),
      });
      const fn = route?.fn ?? "fallback";
      const handler = await handlerFor(functions[fn].handler);
      writeResult(res, await handler(event, lambdaContext(fn)));
    } catch (error) {
      // Handlers map their own errors; reaching here means the local server itself broke.
      const requestId = newRequestId();
      console.error(`local server error (request ${requestId})`, error);
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json", "x-request-id": requestId });
      res.end(JSON.stringify({ error: { code: "internal_error", message: "Internal server error", requestId } }));
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.host, () => ok());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    server,
    url: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
