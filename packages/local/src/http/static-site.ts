import { createReadStream, existsSync, realpathSync, statSync, type Stats } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, resolve, sep } from "node:path";
import { routes } from "@hangar/functions/routes";

/**
 * The built dashboard, served by the local API server at `/` on the API's own origin (as
 * CloudFront does on AWS), so its session cookie is first-party and it needs no CORS.
 *
 * Only GET/HEAD of paths outside the API's prefixes are dashboard requests. A file that exists
 * is served; a path without a file extension is a client-side route and gets index.html (SPA
 * fallback); anything else (a missing asset, a suspicious path) is left to the API, whose
 * fallback answers the JSON 404 every other unknown path gets.
 */

/** Prefixes the API owns: never answered with the dashboard, so their JSON 404/405 stay intact. */
const API_PREFIXES = ["/api", "/share", "/download"];
/**
 * Below these the API answers too: the first segment of every route in routes.ts, as CloudFront
 * sends `/<segment>/*` to the API (stacks/web-stack.ts). Only what is *below* one: CloudFront's
 * `/apps/*` does not match `/apps` itself, which is the tester portal's page in the app, while
 * `/apps/<slug>` is a project's public page that the API serves (issue 20).
 */
const ROUTE_PREFIXES = [...new Set(routes.map((r) => `/${r.path.split("/")[1]}/`))];

/**
 * Headers on every dashboard answer (issue 9: a strict CSP holds because the build inlines
 * nothing). `imageOrigin` is the object store's origin: build icons are short-lived signed GETs
 * on it, and browser uploads PUT to presigned URLs on it, as on AWS (stacks/web-stack.ts allows
 * the bucket's origin the same way). Nothing else may come from another origin.
 */
export function dashboardSecurityHeaders(imageOrigin?: string): Readonly<Record<string, string>> {
  return {
    "Content-Security-Policy":
      `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:${imageOrigin ? ` ${imageOrigin}` : ""}; connect-src 'self'${imageOrigin ? ` ${imageOrigin}` : ""}; ` +
      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  };
}

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
};

/** Vite names everything under /assets/ by content hash: a changed file gets a new name. */
const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html (and unhashed files) must be revalidated, so a new build is picked up at once. */
const REVALIDATE = "no-cache";

/** Shown at `/` when packages/web has no build (no inline script or style: the CSP holds here too). */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Hangar: dashboard not built</title></head>
<body>
<main>
<h1>The dashboard is not built</h1>
<p>This Hangar local stack serves its API, but found no dashboard build in <code>packages/web/dist</code>.</p>
<p>Build it with <code>npm run build:web</code> (or restart <code>npm start</code>, which builds it when the sources are present), then reload this page.</p>
</main>
</body>
</html>
`;

export interface StaticSiteOptions {
  /** The build folder (packages/web/dist); undefined or missing: the built-in "not built" page. */
  root: string | undefined;
  /** Origin of the object store, whose signed GETs serve build icons (see dashboardSecurityHeaders). */
  imageOrigin?: string;
}

export interface StaticSite {
  /**
   * Answers the request when it is a dashboard request (returns true); returns false, writing
   * nothing, when the API should answer it.
   */
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): boolean;
}

export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`)) || ROUTE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * The decoded path, or undefined when it is not one a dashboard file can have: malformed
 * escapes, NUL, backslashes, encoded slashes, dot segments (`..`, `.`, and hidden files such as
 * `.vite/`). Refused paths fall through to the API's JSON 404.
 */
function safePath(rawPath: string): string | undefined {
  if (/%(2f|5c|00)/i.test(rawPath)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return undefined;
  }
  if (!decoded.startsWith("/") || /[\0\\]/.test(decoded)) return undefined;
  if (decoded.split("/").some((segment) => segment.startsWith("."))) return undefined;
  return decoded;
}

function fileStats(path: string): Stats | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

export function createStaticSite(options: StaticSiteOptions): StaticSite {
  const configuredRoot = options.root ? resolve(options.root) : undefined;
  const securityHeaders = dashboardSecurityHeaders(options.imageOrigin ? new URL(options.imageOrigin).origin : undefined);

  /** Resolved per request: the build may appear (or be replaced) while the stack runs. */
  const currentRoot = (): string | undefined => {
    if (!configuredRoot || !existsSync(resolve(configuredRoot, "index.html"))) return undefined;
    try {
      return realpathSync(configuredRoot);
    } catch {
      return undefined;
    }
  };

  /** A file inside root, after symlinks are resolved; undefined for anything outside it. */
  const fileInRoot = (root: string, relative: string): { path: string; stats: Stats } | undefined => {
    const candidate = resolve(root, `.${relative}`);
    if (candidate !== root && !candidate.startsWith(root + sep)) return undefined;
    const stats = fileStats(candidate);
    if (!stats) return undefined;
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      return undefined;
    }
    if (!real.startsWith(root + sep)) return undefined;
    return { path: real, stats };
  };

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    file: { path: string; stats: Stats } | { body: string },
    cacheControl: string,
    contentType: string,
  ) => {
    const headers: Record<string, string | number> = {
      ...securityHeaders,
      "Content-Type": contentType,
      "Cache-Control": cacheControl,
      "X-Request-Id": requestId,
    };
    if ("body" in file) {
      const body = Buffer.from(file.body);
      res.writeHead(200, { ...headers, "Content-Length": body.length });
      res.end(req.method === "HEAD" ? undefined : body);
      return;
    }
    const etag = `W/"${file.stats.size.toString(16)}-${Math.floor(file.stats.mtimeMs).toString(16)}"`;
    headers.ETag = etag;
    headers["Last-Modified"] = file.stats.mtime.toUTCString();
    if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, "Content-Length": file.stats.size });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    const stream = createReadStream(file.path);
    stream.on("error", () => res.destroy());
    stream.pipe(res);
  };

  return {
    handle(req, res, requestId) {
      if (req.method !== "GET" && req.method !== "HEAD") return false;
      const rawPath = (req.url ?? "/").split("?")[0]!;
      if (!rawPath.startsWith("/") || isApiPath(rawPath)) return false;
      const path = safePath(rawPath);
      if (path === undefined) return false;
      // A client-side route: the last segment has no file extension (`/`, `/verify-email`).
      const isRoute = extname(path.slice(path.lastIndexOf("/") + 1)) === "";

      const root = currentRoot();
      if (!root) {
        if (!isRoute) return false;
        send(req, res, requestId, { body: NOT_BUILT_PAGE }, REVALIDATE, CONTENT_TYPES[".html"]!);
        return true;
      }
      const file = path.endsWith("/") ? undefined : fileInRoot(root, path);
      if (file) {
        const cache = path.startsWith("/assets/") ? IMMUTABLE : REVALIDATE;
        const type = CONTENT_TYPES[extname(file.path).toLowerCase()] ?? "application/octet-stream";
        send(req, res, requestId, file, cache, type);
        return true;
      }
      if (!isRoute) return false;
      const index = fileInRoot(root, "/index.html");
      if (!index) return false;
      send(req, res, requestId, index, REVALIDATE, CONTENT_TYPES[".html"]!);
      return true;
    },
  };
}
