import { beforeAll, describe, expect, it, vi } from "vitest";
import type { HangarContext, HttpEvent } from "../src/middleware/http-context";
import { httpFunction, json } from "../src/middleware/http-function";
import { ACCOUNT_API_HEADERS, dashboardHeaders } from "../src/middleware/security-headers";
import { sessionAuth } from "../src/middleware/session-auth";

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
    expect(() =>
      httpFunction("presign", {
        "POST /api/upload/api-key/presign": { handler: async () => json(200, {}) },
        "POST /api/projects/{projectId}/uploads": { handler: async () => json(200, {}) },
      }),
    ).toThrow(/no apiKey auth/);
  });
});

describe("route input and response middlewares", () => {
  const withParams = (routeKey: string, rawPath: string, pathParameters: Record<string, string>, extra: Partial<HttpEvent> = {}) =>
    ({ ...event(routeKey.split(" ")[0]!, routeKey, rawPath), pathParameters, ...extra }) as HttpEvent;

  it("answers a path parameter of a shape never issued with the route's 404 before the handler runs", async () => {
    let ran = false;
    const handler = httpFunction("download", {
      "GET /download/{userKey}": { handler: async () => ((ran = true), json(200, {})) },
      "HEAD /download/{userKey}": { handler: async () => json(200, {}) },
    });
    const result = await handler(withParams("GET /download/{userKey}", "/download/x", { userKey: "k".repeat(65) }), ctx);
    expect(ran).toBe(false);
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body!)).toMatchObject({ error: { code: "file_not_found", message: "No file is shared under this link" } });
  });

  it("hands the handler its parsed params, and lets a function render its errors as pages", async () => {
    const handler = httpFunction(
      "download",
      {
        "GET /download/{userKey}": { handler: async (_e, c) => json(200, { key: c.params.userKey }) },
        "HEAD /download/{userKey}": { handler: async () => json(200, {}) },
      },
      {},
      { errorPage: (mapped) => ({ statusCode: mapped.status, headers: { "Content-Type": "text/html" }, body: `<p>${mapped.body.error.code}</p>` }) },
    );
    const ok = await handler(withParams("GET /download/{userKey}", "/download/AbC123", { userKey: "AbC123" }), ctx);
    expect(JSON.parse(ok.body!)).toEqual({ key: "AbC123" });
    const refused = await handler(withParams("GET /download/{userKey}", "/download/x", { userKey: "" }), ctx);
    expect(refused).toMatchObject({ statusCode: 404, body: "<p>file_not_found</p>" });
    expect(refused.headers?.["X-Request-Id"]).toBe("req-1");
  });

  it("runs a route's after/onError hooks on the finished answer, the error envelope's included", async () => {
    const seen: string[] = [];
    const stamp = {
      after: (request: { response: { headers?: Record<string, unknown> } | null }) => {
        request.response!.headers = { ...request.response!.headers, "X-Stamp": "after" };
      },
      onError: (request: { response: { statusCode?: number; headers?: Record<string, unknown> } | null }) => {
        seen.push(String(request.response?.statusCode));
        request.response!.headers = { ...request.response!.headers, "X-Stamp": "error" };
      },
    };
    const handler = httpFunction(
      "keys",
      {
        "POST /api/keys": { handler: async () => json(201, {}) },
        "GET /api/keys": { handler: async () => json(200, { items: [] }) },
        "DELETE /api/keys/{clientId}": { handler: async () => json(204, {}) },
        "POST /api/keys/{clientId}/regenerate": { handler: async () => json(200, {}) },
        "GET /api/keys/{clientId}/usage": { handler: async () => json(200, {}) },
      },
      { session: { before: () => {} }, dashboard: [stamp as never] },
    );
    const ok = await handler({ ...event("GET", "GET /api/keys", "/api/keys") } as HttpEvent, ctx);
    expect(ok.headers?.["X-Stamp"]).toBe("after");
    const refused = await handler(withParams("GET /api/keys/{clientId}/usage", "/api/keys/x/usage", { clientId: "no" }), ctx);
    expect(refused.statusCode).toBe(404);
    expect(JSON.parse(refused.body!).error.code).toBe("key_not_found");
    expect(refused.headers?.["X-Stamp"]).toBe("error");
    expect(seen).toEqual(["404"]);
  });

  it("refuses at import a dashboard route without the dashboard's middlewares", () => {
    expect(() =>
      httpFunction("links", {
        "PATCH /api/files/{fileId}/share": { handler: async () => json(200, {}) },
        "POST /api/files/{fileId}/share/regenerate": { handler: async () => json(200, {}) },
      }, { session: { before: () => {} } }),
    ).toThrow(/no dashboard middlewares/);
  });
});

describe("the dashboard's response hooks", () => {
  const cookie = { read: (e: HttpEvent) => e.cookies?.find((c) => c.startsWith("hangar_session="))?.slice(15), cleared: () => "hangar_session=; Max-Age=0" };
  const noop = { handler: async () => json(200, {}) };
  const handler = httpFunction(
    "keys",
    {
      "POST /api/keys": noop,
      "GET /api/keys": noop,
      "DELETE /api/keys/{clientId}": noop,
      "POST /api/keys/{clientId}/regenerate": noop,
      "GET /api/keys/{clientId}/usage": noop,
    },
    // A cookie this service could not have issued is refused before any lookup: no deps needed.
    { session: sessionAuth(() => ({}) as never, cookie), dashboard: [dashboardHeaders()] },
  );

  it("clears a refused session cookie on the envelope's 401, with the account API's headers", async () => {
    const refused = await handler({ ...event("GET", "GET /api/keys", "/api/keys"), cookies: ["hangar_session=forged"] } as HttpEvent, ctx);
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.body!).error.code).toBe("not_signed_in");
    expect(refused.cookies).toEqual(["hangar_session=; Max-Age=0"]);
    expect(refused.headers).toMatchObject({ ...ACCOUNT_API_HEADERS, "X-Request-Id": "req-1" });
  });

  it("sets no cookie when the request carried none", async () => {
    const refused = await handler(event("GET", "GET /api/keys", "/api/keys"), ctx);
    expect(refused.statusCode).toBe(401);
    expect(refused.cookies).toBeUndefined();
    expect(refused.headers).toMatchObject(ACCOUNT_API_HEADERS);
  });
});
