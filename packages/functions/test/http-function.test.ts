import { beforeAll, describe, expect, it, vi } from "vitest";
import type { HangarContext, HttpEvent } from "../src/middleware/http-context";
import { httpFunction, json } from "../src/middleware/http-function";

const ctx = { awsRequestId: "aws-1", functionName: "t", getRemainingTimeInMillis: () => 1000 } as unknown as HangarContext;

function event(method: string, routeKey: string, rawPath: string): HttpEvent {
  return {
    version: "2.0",
    routeKey,
    rawPath,
    rawQueryString: "",
    headers: {},
    isBase64Encoded: false,
    pathParameters: { userKey: "AbC123" },
    requestContext: { requestId: "req-1", http: { method, path: rawPath } },
  } as unknown as HttpEvent;
}

// Every dispatch reads the settings (for the origin secret); the environment a function has.
beforeAll(() => {
  vi.stubEnv("HANGAR_TABLE_NAME", "table");
  vi.stubEnv("HANGAR_BUCKET_NAME", "bucket");
});

describe("httpFunction", () => {
  const handler = httpFunction("download", {
    "GET /download/{userKey}": { handler: async (e) => json(200, { key: e.pathParameters?.userKey }) },
    "HEAD /download/{userKey}": { handler: async (e) => json(200, { key: e.pathParameters?.userKey }) },
  });

  it("dispatches by API Gateway's route key and stamps the request id", async () => {
    const result = await handler(event("GET", "GET /download/{userKey}", "/download/AbC123"), ctx);
    expect(result).toMatchObject({ statusCode: 200, body: JSON.stringify({ key: "AbC123" }) });
    expect(result.headers?.["X-Request-Id"]).toBe("req-1");
  });

  it("answers HEAD like GET without a body", async () => {
    const result = await handler(event("HEAD", "HEAD /download/{userKey}", "/download/AbC123"), ctx);
    expect(result).toMatchObject({ statusCode: 200, body: "" });
    expect(result.headers?.["Content-Type"]).toMatch(/json/);
  });

  it("answers a route key that is not its own with the opaque 500 envelope", async () => {
    const result = await handler(event("POST", "POST /api/upload/api-key/presign", "/api/upload/api-key/presign"), ctx);
    expect(result.statusCode).toBe(500);
    expect(JSON.parse(result.body!)).toMatchObject({ error: { code: "internal_error", requestId: "req-1" } });
  });

  it("refuses at import a function whose endpoints do not match routes.ts", () => {
    expect(() => httpFunction("share", { "GET /share/{userKey}": { handler: async () => json(200, {}) } } as never)).toThrow(
      /no endpoint for HEAD \/share/,
    );
    expect(() =>
      httpFunction("download", {
        "GET /download/{userKey}": { handler: async () => json(200, {}) },
        "HEAD /download/{userKey}": { handler: async () => json(200, {}) },
        "GET /share/{userKey}": { handler: async () => json(200, {}) },
      } as never),
    ).toThrow(/not a route of this function/);
  });

  it("refuses at import an authenticated route without its auth middleware", () => {
    expect(() => httpFunction("presign", { "POST /api/upload/api-key/presign": { json: true, handler: async () => json(200, {}) } })).toThrow(
      /no apiKey auth/,
    );
  });
});
