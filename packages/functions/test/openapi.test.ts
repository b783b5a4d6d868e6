import { parseInput } from "@hangar/core";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { openApiDocument, openApiDocumentText } from "../src/openapi/openapi-document";
import { inputOf } from "../src/route-input";
import { outputOf, routeOutput } from "../src/route-output";
import { routeKey, routes } from "../src/routes";

const ROOT = resolve(import.meta.dirname, "../../..");
type Json = Record<string, any>;
const doc = openApiDocument() as Json;
const operationOf = (route: { method: string; path: string }) => doc.paths[route.path]?.[route.method.toLowerCase()] as Json | undefined;

/**
 * Redocly's validator (`@redocly/openapi-core`, maintained by Redocly, the engine of `redocly
 * lint`) with its strictest built-in ruleset, every rule an error, and examples checked against
 * their schemas with no extra properties allowed. One rule off, for a reason: several routes
 * answer only redirects (icons: 302; password forms: 303), which `operation-2xx-response` reads
 * as a missing success.
 */
async function problemsOf(source: string) {
  const config = await createConfig({
    extends: ["recommended-strict"],
    rules: {
      "operation-2xx-response": "off",
      "no-invalid-media-type-examples": { severity: "error", allowAdditionalProperties: false },
    },
  } as never);
  return lintFromString({ source, absoluteRef: "openapi.json", config });
}

describe("the OpenAPI document (GET /api/openapi.json, docs/openapi.json)", () => {
  it("is committed as docs/openapi.json exactly as the route tables give it (`npm run docs:openapi` rewrites it)", () => {
    expect(readFileSync(resolve(ROOT, "docs/openapi.json"), "utf8"), "run `npm run docs:openapi`").toBe(openApiDocumentText());
  });

  it("is valid OpenAPI 3.1 with every example valid against its schema (Redocly, recommended-strict)", async () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const problems = await problemsOf(openApiDocumentText());
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it("catches an example that does not match its schema (the validator is not a no-op)", async () => {
    const broken = structuredClone(doc);
    broken.paths["/api/projects/{projectId}"].get.responses["200"].content["application/json"].example.fileCount = "3";
    broken.paths["/api/projects"].post.requestBody.content["application/json"].example.color = "mauve";
    const problems = await problemsOf(JSON.stringify(broken));
    expect(problems.filter((p) => p.ruleId === "no-invalid-media-type-examples").map((p) => p.location[0]?.pointer)).toEqual(
      expect.arrayContaining([expect.stringContaining("/get/responses/200/"), expect.stringContaining("/post/requestBody/")]),
    );
  });

  it("has every route of routes.ts, once, with its auth as a security requirement", () => {
    const expected = { apiKey: [{ clientId: [], clientSecret: [] }], session: [{ session: [] }], tester: [{ tester: [] }], updateToken: [{ updateToken: [] }], none: [] };
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(routes.map(routeKey).sort());
    for (const route of routes) expect(operationOf(route)!.security, routeKey(route)).toEqual(expected[route.auth]);
    const ids = routes.map((route) => operationOf(route)!.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("documents each route's request as route-input/ parses it: path and query parameters, the JSON body", () => {
    for (const route of routes) {
      const op = operationOf(route)!;
      const input = inputOf(routeKey(route))!;
      const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const params = (op.parameters ?? []) as Json[];
      expect(params.filter((p) => p.in === "path").map((p) => p.name).sort(), routeKey(route)).toEqual(pathNames.sort());
      expect(Boolean(op.requestBody), routeKey(route)).toBe(Boolean(input.body) && route.method !== "HEAD");
      if (input.query) expect(params.some((p) => p.in === "query"), routeKey(route)).toBe(true);
    }
    // Schemas are zod's own: the project color's enum, an id's pattern, the page size's bounds.
    expect(operationOf({ method: "POST", path: "/api/projects" })!.requestBody.content["application/json"].schema.properties.color.enum).toContain("indigo");
    const limit = (operationOf({ method: "GET", path: "/api/projects/{projectId}/files" })!.parameters as Json[]).find((p) => p.name === "limit")!;
    expect(limit).toMatchObject({ in: "query", required: false });
  });

  it("has an example request for every JSON body and an example of every JSON answer, and each request example is accepted by the route's own schema", () => {
    for (const route of routes) {
      const row = outputOf(routeKey(route))!;
      if ("sameAsGet" in row) continue;
      const input = inputOf(routeKey(route))!;
      if (input.body) {
        expect(row.request, `${routeKey(route)}: request example`).toBeDefined();
        const parse = typeof input.body === "function" ? input.body : (raw: unknown) => parseInput(input.body as z.ZodMiniType, raw);
        expect(() => parse(row.request), routeKey(route)).not.toThrow();
      }
      for (const answer of row.answers) if (answer.json) expect(answer.example, `${routeKey(route)} ${answer.status}`).toBeDefined();
    }
  });

  it("derives the errors every route of a kind answers: auth, body, same-origin, a malformed id's 404, 5xx", () => {
    const presign = operationOf({ method: "POST", path: "/api/upload/api-key/presign" })!;
    expect(presign.responses["401"].description).toContain("missing_credentials");
    expect(presign.responses["429"].headers).toHaveProperty("Retry-After");
    expect(presign.responses["200"].headers).toHaveProperty("X-RateLimit-Remaining");
    expect(presign.responses["413"].description).toContain("file_too_large");
    const create = operationOf({ method: "POST", path: "/api/projects" })!;
    expect(create.responses["403"].description).toContain("cross_origin_request");
    expect(create.responses["401"].description).toContain("not_signed_in");
    expect(operationOf({ method: "GET", path: "/api/projects/{projectId}" })!.responses["404"].description).toContain("project_not_found");
    expect(operationOf({ method: "GET", path: "/api/webhooks/{webhookId}" })!.responses["404"].description).toContain("webhook_not_found");
    expect(operationOf({ method: "GET", path: "/api/updates/latest" })!.responses["401"].description).toContain("invalid_token");
    for (const route of routes) {
      expect(operationOf(route)!.responses["500"], routeKey(route)).toEqual({ $ref: "#/components/responses/InternalError" });
      expect(operationOf(route)!.responses["503"], routeKey(route)).toEqual({ $ref: "#/components/responses/ServiceUnavailable" });
    }
    // Set-Cookie where a route sets one; the share page's errors are pages for browsers as well.
    expect(operationOf({ method: "POST", path: "/api/session" })!.responses["200"].headers).toHaveProperty("Set-Cookie");
    expect(operationOf({ method: "GET", path: "/download/{userKey}" })!.responses["410"].content).toHaveProperty("text/html");
    // HEAD answers as GET without a body.
    const head = operationOf({ method: "HEAD", path: "/share/{userKey}" })!;
    expect(head.responses["200"].content).toBeUndefined();
    expect(Object.keys(head.responses)).toEqual(Object.keys(operationOf({ method: "GET", path: "/share/{userKey}" })!.responses));
  });

  it("names only error codes the service raises (each code of route-output.ts appears in core's or the functions' sources)", () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) return sources(full);
        return entry.name.endsWith(".ts") && !full.endsWith("route-output.ts") && !full.includes("/src/openapi/") ? [readFileSync(full, "utf8")] : [];
      });
    const text = [...sources(resolve(ROOT, "packages/core/src")), ...sources(resolve(ROOT, "packages/functions/src"))].join("\n");
    const codes = new Set(Object.values(routeOutput).flatMap((row) => ("errors" in row ? Object.values(row.errors ?? {}).flat() : [])));
    expect(codes.size).toBeGreaterThan(20);
    expect([...codes].filter((code) => !text.includes(`"${code}"`))).toEqual([]);
  });
});
