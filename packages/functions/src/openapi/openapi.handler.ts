import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { openApiDocument } from "./openapi-document";

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document of this deployment's API (openapi-document.ts),
 * for code generators, API clients and people. Built from the same route tables the functions run
 * on, so it cannot describe another version than the one deployed; docs/openapi.json is the same
 * document for readers of the repository (a test keeps them equal).
 *
 * Built on the first request rather than at import, and kept for the life of the instance:
 * building walks every route's schemas (a few hundred milliseconds on a slow CPU), which the cold
 * start of an instance that may only ever answer a 304 should not pay. Serving the committed
 * file instead would need no build, but would put a second copy of the document in the bundle
 * and trust a test rather than the code for its being current.
 *
 * Public like the README that describes the same routes: it names no secret, account or host.
 * It changes only with a deploy, so caches may keep it for five minutes and revalidate by ETag.
 * Served compact, and gzipped for clients that accept it (about 350 KB → 25 KB): API Gateway
 * passes a Lambda's answer through as it is, so the function compresses it itself for clients that
 * call API Gateway directly. Through CloudFront, Accept-Encoding is not forwarded (CloudFront
 * forbids it in an origin request policy) and the edge compresses instead.
 */
let served: { body: string; gzipped: string; etag: string } | undefined;
function document() {
  if (!served) {
    const body = JSON.stringify(openApiDocument());
    served = {
      body,
      gzipped: gzipSync(body).toString("base64"),
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    };
  }
  return served;
}

const acceptsGzip = (event: HttpEvent) =>
  (header(event, "accept-encoding") ?? "")
    .split(",")
    .some((part) => {
      const [coding, ...params] = part.trim().toLowerCase().split(";");
      return coding === "gzip" && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    });

function serve(event: HttpEvent): Promise<HttpResult> {
  const { body, gzipped, etag } = document();
  const headers = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "public, max-age=300",
    Vary: "Accept-Encoding",
    ETag: etag,
  };
  const known = header(event, "if-none-match");
  if (known && known.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return Promise.resolve({ statusCode: 304, headers, body: "" });
  }
  if (acceptsGzip(event)) {
    return Promise.resolve({ statusCode: 200, headers: { ...headers, "Content-Encoding": "gzip" }, body: gzipped, isBase64Encoded: true });
  }
  return Promise.resolve({ statusCode: 200, headers, body });
}

export const handler = httpFunction("openapi", {
  "GET /api/openapi.json": { handler: serve },
});
