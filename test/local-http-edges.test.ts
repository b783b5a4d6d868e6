import { beforeAll, describe, expect, it } from "vitest";
import { fixtures } from "./support/fixtures";
import { call, newKey, readFixture, stack, upload, type Key } from "./support/api";
import { rawGet, rawRequest } from "./support/raw-http";

/**
 * The HTTP edges of the local stack, end to end through a real socket: what the local server
 * answers itself, HEAD on the public links, malformed paths, and the Bearer scheme's case.
 */
function expectEnvelope(reply: { headers: Record<string, string>; body: string }, code: string) {
  expect(reply.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(reply.body) as { error: { code: string; message: string; requestId: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.requestId).toMatch(/\S{8,}/);
  expect(reply.headers["x-request-id"]).toBe(body.error.requestId);
}

describe("errors the local server answers itself", () => {
  it("431: headers too large, as the JSON envelope with X-Request-Id", async () => {
    const reply = await rawRequest(stack().baseUrl, `GET /share/x HTTP/1.1\r\nHost: x\r\nCookie: ${"c".repeat(64_000)}\r\n\r\n`);
    expect(reply.status).toBe(431);
    expectEnvelope(reply, "headers_too_large");
  });

  it("400: Transfer-Encoding chunked together with Content-Length (request smuggling shape)", async () => {
    const reply = await rawRequest(
      stack().baseUrl,
      "POST /api/upload/api-key/presign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\n" +
        "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    );
    expect(reply.status).toBe(400);
    expectEnvelope(reply, "bad_request");
  });

  it("413: a body over API Gateway's 10 MB, refused from its Content-Length", async () => {
    const reply = await rawRequest(
      stack().baseUrl,
      "POST /api/upload/api-key/complete HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485761\r\n\r\n{",
    );
    expect(reply.status).toBe(413);
    expectEnvelope(reply, "body_too_large");
  });
});

describe("malformed paths", () => {
  it.each(["/share/%ff%fe", "/download/%ff%fe", "/share/%e0%80", "/download/%c3"])("%s is a 404 in the envelope, never a 5xx", async (target) => {
    for (const method of ["GET", "HEAD"]) {
      const reply = await rawGet(stack().baseUrl, target, method);
      expect(reply.status).toBe(404);
      expect(reply.headers["x-request-id"]).toMatch(/\S{8,}/);
      if (method === "GET") expectEnvelope(reply, "route_not_found");
      else expect(reply.body).toBe("");
    }
  });
});

describe("HEAD on the public links", () => {
  let userKey: string;
  beforeAll(async () => {
    const key = await newKey();
    // A build with a PNG launcher icon, so the icon route has something to redirect to.
    const { completed } = await upload(key, "head.apk", readFixture(fixtures("apk").find((f) => f.endsWith("aapt2-literal.apk"))!));
    expect(completed.status).toBe(200);
    userKey = completed.json.userKey;
  });

  it.each(["share", "download"])("HEAD /%s/<userKey> answers like GET without a body", async (kind) => {
    const path = `/${kind}/${userKey}`;
    const [get, head] = [await call(path), await call(path, { method: "HEAD" })];
    expect(get.status).toBe(kind === "share" ? 200 : 302);
    expect(head.text).toBe("");
    expect(head.headers.get("x-request-id")).toMatch(/\S{8,}/);
    expect(head.headers.get("x-request-id")).not.toBe(get.headers.get("x-request-id"));
    if (kind === "download") {
      // Since issue 17 (M2): HEAD is not counted, so it gets no signed URL, only the headers of
      // what the GET delivers (the package's own, as the object store serves it).
      expect(head.status).toBe(200);
      expect(head.headers.get("location")).toBeNull();
      const pkg = await fetch(get.headers.get("location")!);
      for (const name of ["content-type", "content-length", "content-disposition"]) expect(head.headers.get(name), name).toBe(pkg.headers.get(name));
      await pkg.arrayBuffer();
    } else {
      expect(head.status).toBe(get.status);
      for (const name of ["content-type", "cache-control", "content-disposition"]) expect(head.headers.get(name)).toBe(get.headers.get(name));
      expect(get.text).toContain("<html");
    }
  });

  it("HEAD of the QR code and the icon answers like GET without a body", async () => {
    // The QR code is drawn here; the icon route redirects to a signed GET of the stored icon.
    for (const [sub, status] of [["qr.svg", 200], ["icon.png", 302]] as const) {
      const path = `/share/${userKey}/${sub}`;
      const [get, head] = [await call(path), await call(path, { method: "HEAD" })];
      expect(get.status, sub).toBe(status);
      expect(head.status, sub).toBe(get.status);
      expect(head.text).toBe("");
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    }
  });

  it.each(["share", "download"])("HEAD /%s of an unknown key is a 404 without a body", async (kind) => {
    const head = await call(`/${kind}/doesnotexist0000`, { method: "HEAD" });
    expect(head.status).toBe(404);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("the Bearer scheme is case-insensitive (RFC 7235)", () => {
  let key: Key;
  beforeAll(async () => {
    key = await newKey();
  });

  it.each(["bearer", "BEARER", "Bearer"])("presign accepts `%s <secret>`", async (scheme) => {
    const reply = await call("/api/upload/api-key/presign", {
      headers: { "X-Client-ID": key.clientId, Authorization: `${scheme} ${key.clientSecret}` },
      body: { fileName: "case.apk", fileSize: 10, fileType: "application/vnd.android.package-archive" },
    });
    expect(reply.status, reply.text).toBe(200);
  });

  it("still refuses another scheme", async () => {
    const reply = await call("/api/upload/api-key/presign", {
      headers: { "X-Client-ID": key.clientId, Authorization: `Basic ${key.clientSecret}` },
      body: { fileName: "case.apk", fileSize: 10, fileType: "application/vnd.android.package-archive" },
    });
    expect(reply.status).toBe(401);
  });
});

describe("another loopback name for the stack", () => {
  it("redirects http://localhost:<port> to the public URL (308), so the dashboard's cookie and forms work", async () => {
    const base = new URL(stack().baseUrl);
    expect(base.hostname).toBe("127.0.0.1");
    const page = await rawRequest(stack().baseUrl, `GET /projects?x=1 HTTP/1.1\r\nHost: localhost:${base.port}\r\nConnection: close\r\n\r\n`);
    expect(page.status).toBe(308);
    expect(page.headers.location).toBe(`${stack().baseUrl}/projects?x=1`);
    const form = await rawRequest(
      stack().baseUrl,
      `POST /api/account/sign-in HTTP/1.1\r\nHost: localhost:${base.port}\r\nOrigin: http://localhost:${base.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
    );
    expect(form.status).toBe(308);
    expect(form.headers.location).toBe(`${stack().baseUrl}/api/account/sign-in`);
    // The public host itself and names that are not loopback are served as before.
    expect((await rawRequest(stack().baseUrl, `GET /share/x HTTP/1.1\r\nHost: ${base.host}\r\nConnection: close\r\n\r\n`)).status).toBe(404);
    expect((await rawRequest(stack().baseUrl, `GET /share/x HTTP/1.1\r\nHost: localhost.evil.example:${base.port}\r\nConnection: close\r\n\r\n`)).status).toBe(404);
  });
});
