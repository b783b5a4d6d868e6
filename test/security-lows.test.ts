import { routes } from "@hangar/functions/routes";
import { describe, expect, it } from "vitest";
import { browser, dash, signedIn, uniqueEmail } from "./support/accounts";
import { call, newKey, presign, stack, type Reply } from "./support/api";
import { newDashboardKey, newProject, uploadIpa } from "./support/dashboard";

/** A path of the route with plausible ids that name nothing. */
const concrete = (path: string) =>
  path
    .replace("{userKey}", "NoSuchKey0000")
    .replace("{projectId}", "prj_nosuchproject")
    .replace("{fileId}", "fil_nosuchfile")
    .replace("{clientId}", "hgr_nosuchclient")
    .replace("{sessionId}", "nosuchsession")
    .replace("{fileName}", "hangar-cli-0.0.0-nosuchversion.tgz");

function expectHeaders(reply: Reply, what: string) {
  expect(reply.headers.get("x-content-type-options"), what).toBe("nosniff");
  if (/^text\/html/.test(reply.headers.get("content-type") ?? "")) {
    expect(reply.headers.get("content-security-policy"), what).toMatch(/default-src/);
  }
}

describe("X-Content-Type-Options and CSP on every answer (L6)", () => {
  it("every route of routes.ts, asked badly (no credentials, no body, unknown ids), as a program and as a browser", async () => {
    let html = 0;
    for (const route of routes) {
      const path = concrete(route.path);
      for (const accept of ["application/json", "text/html"]) {
        const reply = await call(path, { method: route.method, headers: { Accept: accept }, ...(route.method === "POST" || route.method === "PATCH" || route.method === "PUT" ? { rawBody: "{" } : {}) });
        // The OpenAPI document takes no input to get wrong: it answers anyone (its headers are checked all the same).
        const answersAnyone = route.method === "GET" && route.path === "/api/openapi.json";
        expect(reply.status, `${route.method} ${path}`).toBeGreaterThanOrEqual(answersAnyone ? 200 : 400);
        expectHeaders(reply, `${route.method} ${path} (${accept})`);
        if (/^text\/html/.test(reply.headers.get("content-type") ?? "")) html++;
      }
    }
    // The share and download routes answer browsers with pages: those were checked for a CSP.
    expect(html).toBeGreaterThan(0);
  });

  it.each([
    ["GET", "/api/no-such-thing", 404],
    ["GET", "/nope/deeper.js", 404],
    ["GET", "/share/", 404],
    ["GET", "/download/a/b/c", 404],
    ["PUT", "/api/upload/api-key/presign", 405],
    ["DELETE", "/share/NoSuchKey0000", 405],
    ["GET", "/api/upload/api-key/complete", 405],
  ])("%s %s (unknown path or method) answers %i with nosniff", async (method, path, status) => {
    const reply = await call(path, { method });
    expect(reply.status).toBe(status);
    expectHeaders(reply, `${method} ${path}`);
  });

  it("upload-API errors, share-function JSON errors and successes carry it too", async () => {
    const key = await newKey();
    const replies: [string, Reply][] = [
      ["presign without credentials", await call("/api/upload/api-key/presign", { body: {} })],
      ["presign with a bad body", await presign(key, { fileName: 1 })],
      ["presign accepted", await presign(key, { fileName: "a.apk", fileSize: 10, fileType: "application/vnd.android.package-archive" })],
      ["complete of nothing", await call("/api/upload/api-key/complete", { key, body: { key: "uploads/x/y/z.apk", fileName: "z.apk", fileSize: 1, fileType: "application/octet-stream" } })],
      ["unknown share key (JSON)", await call("/share/NoSuchKey0000/manifest.plist")],
      ["unknown download key (JSON)", await call("/download/NoSuchKey0000")],
    ];
    for (const [what, reply] of replies) expectHeaders(reply, what);
  });

  it("a share page, its manifest and its QR code, and the dashboard's files carry it; HTML has a CSP", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const file = await uploadIpa(await newDashboardKey(b, projectId));
    const userKey = file.userKey;
    for (const path of [`/share/${userKey}`, `/share/${userKey}/manifest.plist`, `/share/${userKey}/qr.svg`, `/share/${userKey}/icon.png`, `/download/${userKey}`, "/", "/login", "/favicon.svg"]) {
      const reply = await call(path, { headers: { Accept: "text/html" } });
      expect(reply.status, path).toBeLessThan(400);
      expectHeaders(reply, path);
    }
    const root = await call("/");
    const asset = [...root.text.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!)[0]!;
    expectHeaders(await call(asset), asset);
    expect(root.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
  });
});

describe("dates are calendar dates (L4)", () => {
  it("refuses expiresAt 2030-02-30 with the validation envelope and keeps the link as it was", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const file = await uploadIpa(await newDashboardKey(b, projectId));
    for (const expiresAt of ["2030-02-30T10:00:00Z", "2030-04-31T00:00:00Z", "2030-01-01T24:00:00Z"]) {
      const reply = await dash(b, "PATCH", `/api/files/${file.fileId}/share`, { expiresAt });
      expect(reply.status, expiresAt).toBe(400);
      expect(reply.json.error).toMatchObject({
        code: "invalid_request",
        fields: [{ field: "expiresAt", message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-31T23:59:00Z" }],
      });
    }
    expect((await dash(b, "GET", `/api/files/${file.fileId}`)).json.share.expiresAt).toBeNull();
    const ok = await dash(b, "PATCH", `/api/files/${file.fileId}/share`, { expiresAt: "2028-02-29T12:00:00Z" });
    expect(ok.status).toBe(200);
    expect(ok.json.expiresAt).toBe("2028-02-29T12:00:00.000Z");
  });
});

describe("presign at the size limit (mutation audit)", () => {
  it("accepts exactly HANGAR_MAX_FILE_SIZE (4 GiB) and refuses one byte more", async () => {
    const key = await newKey();
    const at = await presign(key, { fileName: "big.ipa", fileSize: 4 * 1024 ** 3, fileType: "application/octet-stream" });
    expect(at.status, at.text).toBe(200);
    const over = await presign(key, { fileName: "big.ipa", fileSize: 4 * 1024 ** 3 + 1, fileType: "application/octet-stream" });
    expect(over.status).toBe(413);
    expect(over.json.error).toMatchObject({ code: "file_too_large", maxFileSize: 4 * 1024 ** 3 });
  });
});

describe("the same-origin check and blank passwords (also)", () => {
  it("refuses an Origin with userinfo although it names the dashboard's host", async () => {
    const { b } = await signedIn();
    const { protocol, host } = new URL(stack().baseUrl);
    for (const origin of [`${protocol}//user@${host}`, `${protocol}//user:pw@${host}`, `${stack().baseUrl}/`]) {
      const reply = await dash(b, "POST", "/api/projects", { name: "Forged", color: "blue" }, { Origin: origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.json.error.code).toBe("cross_origin_request");
    }
    expect((await dash(b, "POST", "/api/projects", { name: "Honest", color: "blue" })).status).toBe(201);
  });

  it("refuses a password of 12 spaces at sign-up, with the field named", async () => {
    const reply = await dash(browser(), "POST", "/api/account/sign-up", { email: uniqueEmail("blank"), password: " ".repeat(12) });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({ code: "invalid_request", fields: [{ field: "password", message: "must contain something other than spaces" }] });
  });

  it("refuses a link password of only spaces", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const file = await uploadIpa(await newDashboardKey(b, projectId));
    const reply = await dash(b, "PATCH", `/api/files/${file.fileId}/share`, { password: "      " });
    expect(reply.status).toBe(400);
    expect(reply.json.error.fields).toEqual([{ field: "password", message: "must contain something other than spaces" }]);
  });
});
