import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { randomUUID } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { functions, matchRoute, routeKey, type FunctionName } from "@hangar/functions/routes";
import { newRequestId, toApiGatewayEvent } from "./api-gateway-event";
import { createStaticSite } from "./static-site";

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

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

/** The JSON error envelope the handlers answer with, for errors the local server produces itself. */
function errorBody(code: string, message: string, requestId: string): Buffer {
  return Buffer.from(JSON.stringify({ error: { code, message, requestId } }));
}

function writeError(res: ServerResponse, status: number, code: string, message: string, requestId: string, close = false): void {
  const body = errorBody(code, message, requestId);
  res.writeHead(status, {
    ...BASELINE_HEADERS,
    "content-type": "application/json; charset=utf-8",
    "content-length": body.length,
    "x-request-id": requestId,
    ...(close ? { connection: "close" } : {}),
  });
  res.end(body);
}

class BodyTooLargeError extends Error {}

/** Reads the body, refusing (without buffering the rest) once it passes API Gateway's ceiling. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_REQUEST_BYTES) return reject(new BodyTooLargeError());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.removeAllListeners("data");
        req.pause();
        reject(new BodyTooLargeError());
      } else chunks.push(chunk);
    });
    req.on("end", () => resolveBody(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? "base64" : "utf8") : EMPTY;
  // One pass over the handler's headers: its Content-Length (replaced by the real one, except that
  // an empty answer may describe a body it does not send: HEAD /download) and which baseline
  // headers it sets itself (names compared case-insensitively).
  const headers: Record<string, string | number | boolean | string[]> = {};
  let declared = false;
  let hasNosniff = false;
  let hasCsp = false;
  const given = result.headers ?? {};
  for (const name in given) {
    const lower = name.toLowerCase();
    if (lower === "content-length") {
      declared = true;
      if (body.length !== 0) continue;
    } else if (lower === "x-content-type-options") hasNosniff = true;
    else if (lower === "content-security-policy") hasCsp = true;
    headers[name] = given[name]!;
  }
  if (result.cookies?.length) headers["set-cookie"] = result.cookies;
  if (!(declared && body.length === 0)) headers["content-length"] = body.length;
  if (!hasNosniff) headers["x-content-type-options"] = BASELINE_HEADERS["x-content-type-options"]!;
  if (!hasCsp) headers["content-security-policy"] = BASELINE_HEADERS["content-security-policy"]!;
  res.writeHead(result.statusCode ?? 200, headers as Record<string, string>);
  res.end(body);
}

const EMPTY = Buffer.alloc(0);

/** HTTP parser errors (`clientError`) as statuses and envelope codes; the rest are 400. */
const PARSER_ERRORS: Record<string, [status: number, code: string, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, "headers_too_large", "Request headers are too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "The request took too long to arrive"],
  ERR_HTTP_HEADERS_TIMEOUT: [408, "request_timeout", "The request headers took too long to arrive"],
};

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The public URL's address for a request that named the same port on another loopback name
 * (`localhost` for `127.0.0.1`, or back), else undefined. The dashboard's session cookie belongs
 * to one host and its CSRF guard accepts one origin, so a person who typed `localhost` would
 * otherwise get a dashboard whose every form is refused; a 308 keeps method and body.
 */
export function loopbackAliasRedirect(
  hostHeader: string | undefined,
  url: string | undefined,
  publicUrl: string | undefined,
  /** HANGAR_SHARE_BASE_URL: a share host on another loopback name is served, not redirected (its cookies are its own). */
  shareUrl?: string,
): string | undefined {
  const origin = loopbackAliasOrigin(hostHeader, publicUrl, shareUrl);
  return origin === undefined ? undefined : withPath(origin, url);
}

/** The redirect's target origin for a Host header (loopbackAliasRedirect without the path). */
function loopbackAliasOrigin(hostHeader: string | undefined, publicUrl: string | undefined, shareUrl?: string): string | undefined {
  if (!hostHeader || !publicUrl || hostHeader.length > 300) return undefined;
  if (shareUrl && URL.canParse(shareUrl) && new URL(shareUrl).host === hostHeader.toLowerCase()) return undefined;
  let given: URL;
  let canonical: URL;
  try {
    given = new URL(`http://${hostHeader}`);
    canonical = new URL(publicUrl);
  } catch {
    return undefined;
  }
  if (!LOOPBACK_NAMES.has(canonical.hostname) || !LOOPBACK_NAMES.has(given.hostname)) return undefined;
  if (given.hostname === canonical.hostname || given.port !== canonical.port || given.username || given.password) return undefined;
  return canonical.origin;
}

const withPath = (origin: string, url: string | undefined) => `${origin}${url && url.startsWith("/") && !url.startsWith("//") ? url : "/"}`;

/**
 * loopbackAliasOrigin per Host header, remembered: it parses two or three URLs, and every request
 * of a client names the same host. Bounded, since a client chooses the header: past the bound
 * the memory starts again (an answer is recomputed, never wrong).
 */
function memoizedAliasOrigin(publicUrl: string | undefined, shareUrl: string | undefined): (hostHeader: string | undefined) => string | undefined {
  const known = new Map<string, string | undefined>();
  return (hostHeader) => {
    if (hostHeader === undefined) return undefined;
    if (known.has(hostHeader)) return known.get(hostHeader);
    if (known.size >= 64) known.clear();
    const origin = loopbackAliasOrigin(hostHeader, publicUrl, shareUrl);
    known.set(hostHeader, origin);
    return origin;
  };
}

/**
 * One line per request on stdout: method, path (never the query string, and never headers:
 * either may carry secrets), status, duration and request id, so an id from an error body or
 * an X-Request-Id header finds its request. The path comes from the URL parser, which
 * percent-encodes control characters, so a path cannot forge log lines; it is cut to 200 chars.
 */
export function accessLogLine(method: string, path: string, status: number, ms: number, requestId: string): string {
  const shownPath = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return `${method} ${shownPath} ${status} ${Math.round(ms)}ms ${requestId}`;
}

/** How long the default access log holds lines before writing them out together. */
const ACCESS_LOG_FLUSH_MS = 20;

/**
 * The default access log: stdout, the lines of ACCESS_LOG_FLUSH_MS written together rather than
 * one write per request. Under `npm start`'s parent (and the benches, the tests) stdout is a pipe,
 * which Linux writes synchronously: a write per request cost this process a system call and woke
 * the reader for each line, a bench's client in the middle of its next request. The lines are
 * the same bytes console.log would write, in order, and written out when the server closes and
 * when the process exits.
 */
function stdoutAccessLog(): { log: (line: string) => void; flush: () => void } {
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending === "") return;
    const lines = pending;
    pending = "";
    process.stdout.write(lines);
  };
  return {
    log: (line) => {
      pending += `${line}\n`;
      // Unref'd: a pending line never keeps the process alive (the exit hook writes it).
      timer ??= setTimeout(flush, ACCESS_LOG_FLUSH_MS).unref();
    },
    flush,
  };
}

export interface LocalApiServerOptions {
  host: string;
  port: number;
  /** The built dashboard (packages/web/dist), served at `/`; undefined serves a "not built" page. */
  dashboardDir?: string;
  /** The object store's URL: build icons in the dashboard are signed GETs on it. */
  imageOrigin?: string;
  /** The service's public URL (HANGAR_PUBLIC_URL): other loopback names of it are redirected there. */
  publicUrl?: string;
  /** HANGAR_SHARE_BASE_URL, when it names another host: never redirected to the public URL. */
  shareUrl?: string;
  /** Where the access log goes; default stdout. */
  accessLog?: (line: string) => void;
  /** Tests: the handler of a function, instead of importing the deployed module. */
  handlerFor?: (fn: FunctionName) => Promise<Handler>;
  /** How long a whole request (line, headers and body) may take to arrive; default 30 s. */
  requestTimeoutMs?: number;
}

/**
 * A request must arrive whole within 30 s (the headers within 10 s): API Gateway gives a client
 * 30 s too, and a client that trickles a body byte by byte must not hold a connection and a
 * buffer for minutes (Node's default is 300 s). Node checks its clocks every
 * `connectionsCheckingInterval`, 30 s by default, which would double the wait: checked each second.
 */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 10_000;
const TIMEOUT_CHECK_MS = 1_000;

/** Headers every answer of the local server carries, whoever made it (a handler's own win). */
const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

export interface LocalApiServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the routes of routes.ts through the very handlers Lambda runs, by turning each
 * request into the payload v2 event API Gateway (HTTP API) would send. Unmatched requests go
 * to the fallback handler, as API Gateway's `$default` route does. Dashboard requests (GET/HEAD
 * outside /api, /share and /download) are answered from the built dashboard first.
 */
export async function startLocalApiServer(options: LocalApiServerOptions): Promise<LocalApiServer> {
  const handlers = new Map<string, Promise<Handler>>();
  const handlerFor =
    options.handlerFor ??
    ((fn: FunctionName) => {
      const h = functions[fn].handler;
      if (!handlers.has(h)) handlers.set(h, loadHandler(h));
      return handlers.get(h)!;
    });
  // Load every handler up front: a broken import should fail `npm start`, not the first request.
  await Promise.all((Object.keys(functions) as FunctionName[]).map((fn) => handlerFor(fn)));
  const site = createStaticSite({ root: options.dashboardDir, ...(options.imageOrigin ? { imageOrigin: options.imageOrigin } : {}) });
  const stdoutLog = options.accessLog ? undefined : stdoutAccessLog();
  const accessLog = options.accessLog ?? stdoutLog!.log;
  if (stdoutLog) process.once("exit", stdoutLog.flush);
  const aliasOriginOf = memoizedAliasOrigin(options.publicUrl, options.shareUrl);

  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, requestTimeout),
    },
    async (req, res) => {
    const started = performance.now();
    const requestId = newRequestId();
    // Parsed once: the access log, the route match and the event all read it.
    const url = new URL(req.url ?? "/", "http://localhost");
    const path = url.pathname;
    res.once("close", () => {
      // The id the client saw: the handlers' envelope sets it from the event's request id.
      const shown = res.getHeader("x-request-id");
      accessLog(accessLogLine(req.method ?? "-", path, res.statusCode, performance.now() - started, typeof shown === "string" ? shown : requestId));
    });
    try {
      const aliasOrigin = aliasOriginOf(req.headers.host);
      if (aliasOrigin !== undefined) {
        const canonical = withPath(aliasOrigin, req.url);
        res.writeHead(308, { ...BASELINE_HEADERS, location: canonical, "cache-control": "no-store", "content-length": 0, "x-request-id": requestId });
        res.end();
        return;
      }
      if (site.handle(req, res, requestId)) return;
      let body: Buffer;
      try {
        body = await readBody(req);
      } catch (error) {
        // The client went away, or was cut off for taking too long (the 408 is already sent).
        if (req.destroyed && !(error instanceof BodyTooLargeError)) return;
        if (!(error instanceof BodyTooLargeError)) throw error;
        // API Gateway refuses these before any function runs; answer in our error shape anyway,
        // and close the connection rather than read the rest of an oversized body.
        writeError(res, 413, "body_too_large", "Request exceeds 10 MB", requestId, true);
        return;
      }
      const match = matchRoute(req.method ?? "GET", path);
      const route = match.kind === "route" ? match.route : undefined;
      const event = toApiGatewayEvent({
        req,
        url,
        body,
        requestId,
        routeKey: route ? routeKey(route) : "$default",
        ...(match.kind === "route" ? { pathParameters: match.pathParameters } : {}),
      });
      const fn = route?.fn ?? "fallback";
      const handler = await handlerFor(fn);
      writeResult(res, await handler(event, lambdaContext(fn)));
    } catch (error) {
      // Handlers map their own errors; reaching here means the local server itself broke.
      console.error(`local server error (request ${requestId})`, error);
      if (res.headersSent) res.destroy();
      else writeError(res, 502, "internal_error", "Internal server error", requestId);
    }
    },
  );
  // Errors of the HTTP parser (huge headers, chunked + Content-Length, …) never reach the handler
  // above; Node would answer them with a bare status line. Answer in the documented envelope.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    const [status, code, message] = PARSER_ERRORS[error.code ?? ""] ?? [400, "bad_request", "Malformed HTTP request"];
    const body = errorBody(code, message, requestId);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        Object.entries(BASELINE_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`).join("") +
        `Content-Length: ${body.length}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        "Connection: close\r\n\r\n" +
        body.toString(),
    );
    // The request line and headers are unparsed (and may hold secrets): none of them is logged.
    accessLog(accessLogLine("-", "-", status, 0, requestId));
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
        server.close(() => {
          if (stdoutLog) {
            stdoutLog.flush();
            process.off("exit", stdoutLog.flush);
          }
          ok();
        });
      }),
  };
}
