import type { APIGatewayProxyEventV2 } from "aws-lambda";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet } from "../../../test/support/raw-http";
import { startLocalApiServer, type Handler, type LocalApiServer } from "../src/http/local-api-server";
import { dashboardSecurityHeaders } from "../src/http/static-site";
import { routes } from "@hangar/functions/routes";

/**
 * The dashboard on the API's origin: files with their types and cache rules, the SPA fallback for
 * client routes, the API's own answers left alone, and no way out of the build folder.
 */
const dir = mkdtempSync(join(tmpdir(), "hangar-static-"));
const dist = join(dir, "dist");
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';
const SECRET = "TOP-SECRET-OUTSIDE-THE-BUILD";

/** Stands in for the fallback function: the JSON 404 every unknown path gets. */
const fallback: Handler = async (event: APIGatewayProxyEventV2) => ({
  statusCode: 404,
  headers: { "Content-Type": "application/json; charset=utf-8", "X-Request-Id": event.requestContext.requestId },
  body: JSON.stringify({ error: { code: "route_not_found", message: `No route for ${event.rawPath}`, requestId: event.requestContext.requestId } }),
});

let built: LocalApiServer;
let notBuilt: LocalApiServer;
beforeAll(async () => {
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), INDEX);
  writeFileSync(join(dist, "assets", "index-AbC123.js"), "console.log('dashboard');\n");
  writeFileSync(join(dist, "assets", "index-AbC123.css"), "body{margin:0}\n");
  writeFileSync(join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  mkdirSync(join(dist, ".vite"));
  writeFileSync(join(dist, ".vite", "manifest.json"), `{"hidden":"${SECRET}"}`);
  writeFileSync(join(dir, "secret.txt"), SECRET);
  symlinkSync(join(dir, "secret.txt"), join(dist, "assets", "link.txt"));
  const common = { host: "127.0.0.1", port: 0, accessLog: () => undefined, handlerFor: async () => fallback };
  built = await startLocalApiServer({ ...common, dashboardDir: dist });
  notBuilt = await startLocalApiServer({ ...common, dashboardDir: join(dir, "missing") });
});
afterAll(async () => {
  await Promise.all([built.close(), notBuilt.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, init: RequestInit = {}) => fetch(`${built.url}${path}`, init);

function expectSecurityHeaders(headers: Headers) {
  for (const [name, value] of Object.entries(dashboardSecurityHeaders())) expect(headers.get(name)).toBe(value);
}

describe("dashboard files", () => {
  it("serves index.html at / as HTML that is revalidated, with the security headers", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expectSecurityHeaders(res.headers);
    expect(await res.text()).toBe(INDEX);
  });

  it.each([
    ["/assets/index-AbC123.js", "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"],
    ["/assets/index-AbC123.css", "text/css; charset=utf-8", "public, max-age=31536000, immutable"],
    ["/favicon.svg", "image/svg+xml", "no-cache"],
    ["/index.html", "text/html; charset=utf-8", "no-cache"],
  ])("serves %s as %s with Cache-Control %s", async (path, type, cache) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    expect(res.headers.get("cache-control")).toBe(cache);
    expectSecurityHeaders(res.headers);
    await res.arrayBuffer();
  });

  it("answers HEAD like GET without a body", async () => {
    const [head, getRes] = await Promise.all([get("/assets/index-AbC123.js", { method: "HEAD" }), get("/assets/index-AbC123.js")]);
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(getRes.headers.get("content-length"));
    expect(head.headers.get("content-type")).toBe(getRes.headers.get("content-type"));
    expect(await head.text()).toBe("");
    expect(await getRes.text()).toContain("dashboard");
  });

  it("answers 304 to a matching If-None-Match", async () => {
    const first = await get("/");
    await first.text();
    const again = await get("/", { headers: { "If-None-Match": first.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it.each(["/verify-email?token=abc", "/reset-password", "/projects/p1/files", "/login/", "/apps", "/tester/sign-in?token=abc", "/tester/apps/p1", "/join/abc"])(
    "answers the client route %s with index.html (SPA fallback)",
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toBe(INDEX);
    },
  );
});

describe("what the dashboard leaves to the API", () => {
  // As CloudFront's `/<segment>/*` behaviours (stacks/web-stack.ts): whatever a route of routes.ts
  // starts with, the paths below it are the API's, while the bare `/apps` stays the tester portal's page.
  it.each([...new Set(routes.map((r) => `/${r.path.split("/")[1]}/no-such-thing`))])("GET %s gets the API's answer, not index.html", async (path) => {
    const res = await get(path);
    expect(res.headers.get("content-type")).not.toContain("text/html");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    await res.arrayBuffer();
  });

  it.each([
    ["GET", "/api/nothing-here"],
    ["GET", "/api"],
    ["GET", "/share/unknown"],
    ["HEAD", "/download/unknown"],
    ["GET", "/assets/missing-123.js"],
    ["POST", "/"],
    ["DELETE", "/settings"],
  ])("%s %s gets the API's JSON answer", async (method, path) => {
    const res = await get(path, { method });
    expect(res.status).toBe(404);
    // Not the dashboard's policy: the API's answer, with the strict default every answer without
    // a policy of its own gets, and nosniff.
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    if (method !== "HEAD") expect(((await res.json()) as { error: { code: string } }).error.code).toBe("route_not_found");
  });
});

describe("no way out of the build folder", () => {
  it.each([
    "/../secret.txt",
    "/assets/../../secret.txt",
    "/%2e%2e/secret.txt",
    "/%2E%2E/%2e%2e/secret.txt",
    "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
    "/..%2fsecret.txt",
    "/..%5csecret.txt",
    "/assets%2f..%2f..%2fsecret.txt",
    "/%2e%2e%5c%2e%2e%5csecret.txt",
    "/secret.txt%00.js",
    "/index.html%00",
    "/assets/link.txt",
    "/.vite/manifest.json",
    "/%2evite/manifest.json",
    "/%ff%fe.js",
  ])("%s reveals nothing outside the build", async (target) => {
    const reply = await rawGet(built.url, target);
    expect(reply.body).not.toContain(SECRET);
    expect([400, 404]).toContain(reply.status);
    expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  });
});

describe("without a build", () => {
  it("answers dashboard routes with a page saying the dashboard is not built, under the same headers", async () => {
    const res = await fetch(`${notBuilt.url}/`);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res.headers);
    const html = await res.text();
    expect(html).toContain("dashboard is not built");
    expect(html).not.toMatch(/<script|style=/);
  });

  it("leaves files and API paths to the API", async () => {
    for (const path of ["/assets/index-AbC123.js", "/api/x"]) {
      const res = await fetch(`${notBuilt.url}${path}`);
      expect(res.status).toBe(404);
      await res.text();
    }
  });
});
