import { describe, expect, it } from "vitest";
import { call, stack } from "./support/api";
import { rawGet } from "./support/raw-http";

/**
 * The dashboard on the API's origin, on the running stack: `/` and client routes answer the
 * dashboard's page under a strict CSP; the API keeps its JSON answers; no path leaves the build.
 */
/** Images and connections may also go to the object store: build icons are signed GETs on it, browser uploads PUT to it, as on AWS. */
const csp = () =>
  `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: ${new URL(stack().s3Endpoint).origin}; connect-src 'self' ${new URL(stack().s3Endpoint).origin}; ` +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

describe("dashboard on the local stack", () => {
  it("answers / with the dashboard page, revalidated, under the security headers", async () => {
    const res = await call("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toBe(csp());
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.text).toMatch(/<html/i);
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i); // no inline script: the CSP must hold
  });

  it("answers client routes with the same page (SPA fallback), HEAD without a body", async () => {
    const root = await call("/");
    for (const path of ["/verify-email?token=abc", "/reset-password?token=x", "/account/profile"]) {
      const res = await call(path);
      expect(res.status).toBe(200);
      expect(res.text).toBe(root.text);
    }
    const head = await call("/account", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("serves the page's own scripts as JavaScript, cached for good (hashed names)", async () => {
    const root = await call("/");
    const scripts = [...root.text.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
    // The test stack builds packages/web when it is missing or stale (as npm start does): the real
    // dashboard, never the "not built" page, which would have no scripts to check.
    expect(root.text).not.toContain("dashboard is not built");
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const res = await call(src);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });

  it.each([
    ["GET", "/api/no-such-thing", 404, "route_not_found"],
    ["GET", "/api/upload/api-key/presign", 405, "method_not_allowed"],
    ["GET", "/share/", 404, "route_not_found"],
    ["GET", "/download", 404, "route_not_found"],
    ["GET", "/assets/no-such-file-1234.js", 404, "route_not_found"],
    ["POST", "/", 404, "route_not_found"],
  ])("%s %s keeps the API's JSON answer", async (method, path, status, code) => {
    const res = await call(path, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.json.error.code).toBe(code);
    // Not the dashboard's policy: the strict default of an answer that sets none, and nosniff.
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it.each([
    "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/assets/..%5c..%5c..%5cpackage.json",
    "/..%2f..%2fpackage.json",
    "/%2e%2e%2f%2e%2e%2fpackage.json",
    "/index.html%00.js",
    "/%00",
  ])("%s reveals no file outside the build", async (target) => {
    const reply = await rawGet(stack().baseUrl, target);
    expect([400, 404]).toContain(reply.status);
    expect(reply.body).not.toMatch(/root:|"workspaces"|"name": "@hangar/);
  });
});
