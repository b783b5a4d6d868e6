import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { call, db, readFixture, stack, upload, type Key } from "./support/api";
import { eventually, itemsMentioning, newDashboardKey, newProject, outsideTheAuditLog, uploadIpa, withoutLinkTraces } from "./support/dashboard";
import { fixtures } from "./support/fixtures";
import { REPO_ROOT } from "./support/local-stack-process";

/*
 * Issue 20, item 9: the in-app update check (docs/update-check.md). A per-project, read-only,
 * revocable token shipped inside test builds asks whether a newer build of the app exists: 200
 * with where to install it, 204 when the app is current, 401 for a token that is not (or no
 * longer) one, and the token opens nothing else.
 */

const APK = () => fixtures("apk").find((f) => f.endsWith("aapt2-literal.apk"))!;
// The fixtures: the IPA is com.example.demo 1.4.2 (142); the APK com.hangar.literal 1.0.4 [BETA] (7).

let owner: Browser;
let key: Key;
let projectId: string;
let ipa: { fileId: string; userKey: string };
let apk: { fileId: string; userKey: string };
let token: string;
let tokenId: string;

/** The check as an app makes it; `null` sends no Authorization at all. */
const check = (query: string, auth: string | null = `Bearer ${token}`, ip = "192.0.2.10") =>
  call(`/api/updates/latest?${query}`, { headers: { ...(auth !== null ? { Authorization: auth } : {}), "X-Hangar-Test-Client-Ip": ip } });

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  ({ projectId } = await newProject(owner));
  key = await newDashboardKey(owner, projectId);
  ipa = await uploadIpa(key, "Demo.ipa", { releaseNotes: "Fixes the login crash" });
  const { completed } = await upload(key, "app.apk", readFixture(APK()));
  expect(completed.status, completed.text).toBe(200);
  apk = completed.json;
  const created = await dash(owner, "POST", `/api/projects/${projectId}/update-tokens`, { name: "iOS beta" });
  expect(created.status, created.text).toBe(201);
  ({ token, tokenId } = created.json);
});

describe("update tokens", () => {
  it("are shown once (hut_ + 32 random bytes), stored as a SHA-256 only, and listed without the token", async () => {
    expect(token).toMatch(/^hut_[A-Za-z0-9_-]{43}$/);
    expect(tokenId).toMatch(/^utk_[A-Za-z0-9]{16}$/);
    const hash = createHash("sha256").update(token).digest("hex");
    const item = (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `UPDATETOKEN#${hash}`, sk: "UPDATETOKEN" } }))).Item;
    expect(item).toMatchObject({ type: "updateToken", tokenId, projectId, name: "iOS beta" });
    expect(JSON.stringify(item)).not.toContain(token);
    const list = await dash(owner, "GET", `/api/projects/${projectId}/update-tokens`);
    expect(list.status).toBe(200);
    expect(list.json.items).toEqual([{ tokenId, name: "iOS beta", createdAt: expect.any(String), lastUsedAt: null }]);
    expect(list.text).not.toContain(token.slice(4));
  });

  it("are capped per project (20), and another account's project is 404", async () => {
    const { projectId: other } = await newProject(owner);
    const made = await Promise.all(Array.from({ length: 22 }, (_, i) => dash(owner, "POST", `/api/projects/${other}/update-tokens`, { name: `T${i}` })));
    expect(made.filter((r) => r.status === 201)).toHaveLength(20);
    for (const r of made.filter((r) => r.status !== 201)) expect(r.json.error.code).toBe("limit_reached");
    const { b: stranger } = await signedIn();
    expect((await dash(stranger, "POST", `/api/projects/${projectId}/update-tokens`, { name: "x" })).status).toBe(404);
    expect((await dash(stranger, "GET", `/api/projects/${projectId}/update-tokens`)).status).toBe(404);
    expect((await dash(stranger, "DELETE", `/api/projects/${projectId}/update-tokens/${tokenId}`)).status).toBe(404);
    for (const body of [{}, { name: "" }, { name: "x".repeat(81) }, { name: 5 }]) {
      expect((await dash(owner, "POST", `/api/projects/${projectId}/update-tokens`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("GET /api/updates/latest", () => {
  it("answers 200 with the newer build of that app and platform, and where to install it", async () => {
    const reply = await check("platform=ios&bundleId=com.example.demo&version=1.4.1&build=141");
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.json).toEqual({
      fileId: ipa.fileId,
      version: "1.4.2",
      build: "142",
      releaseNotes: "Fixes the login crash",
      installUrl: `${stack().baseUrl}/share/${ipa.userKey}`,
      uploadedAt: expect.any(String),
    });
    // The install URL is the build's page.
    expect((await call(new URL(reply.json.installUrl).pathname, { headers: { Accept: "text/html" } })).status).toBe(200);
    const android = await check("platform=android&bundleId=com.hangar.literal&version=1.0.3&build=6");
    expect(android.json).toMatchObject({ fileId: apk.fileId, version: "1.0.4 [BETA]", build: "7", releaseNotes: null });
    // Build numbers decide when both are numeric; versions otherwise (docs/update-check.md).
    expect((await check("platform=ios&bundleId=com.example.demo&version=9.9.9&build=141")).status).toBe(200);
    expect((await check("platform=ios&bundleId=com.example.demo&version=1.4.1")).status).toBe(200);
    expect((await check("platform=ios&bundleId=com.example.demo&version=1.5&build=beta-1")).status).toBe(204);
    // No version nor build: the newest build.
    expect((await check("platform=ios&bundleId=com.example.demo")).json.fileId).toBe(ipa.fileId);
  });

  it("answers 204 when the app is current or newer, or no build of that app and platform exists", async () => {
    for (const query of [
      "platform=ios&bundleId=com.example.demo&version=1.4.2&build=142",
      "platform=ios&bundleId=com.example.demo&version=1.4.2&build=143",
      "platform=android&bundleId=com.example.demo&version=1.0&build=1",
      "platform=ios&bundleId=com.example.other&version=1.0&build=1",
    ]) {
      const reply = await check(query);
      expect(reply.status, query).toBe(204);
      expect(reply.text).toBe("");
    }
  });

  it("records the token's last use, at most hourly", async () => {
    const list = await dash(owner, "GET", `/api/projects/${projectId}/update-tokens`);
    const used = list.json.items[0].lastUsedAt;
    expect(Date.parse(used)).toBeGreaterThan(Date.now() - 600_000);
    await check("platform=ios&bundleId=com.example.demo");
    expect((await dash(owner, "GET", `/api/projects/${projectId}/update-tokens`)).json.items[0].lastUsedAt).toBe(used);
  });

  it("refuses a missing, malformed, unknown and revoked token with the same 401 invalid_token", async () => {
    const q = "platform=ios&bundleId=com.example.demo&version=1.0&build=1";
    const revocable = (await dash(owner, "POST", `/api/projects/${projectId}/update-tokens`, { name: "to revoke" })).json;
    expect((await check(q, `Bearer ${revocable.token}`)).status).toBe(200);
    const revoked = await dash(owner, "DELETE", `/api/projects/${projectId}/update-tokens/${revocable.tokenId}`);
    expect(revoked.status).toBe(204);
    expect((await dash(owner, "DELETE", `/api/projects/${projectId}/update-tokens/${revocable.tokenId}`)).json.error.code).toBe("update_token_not_found");
    const answers = [];
    for (const auth of [
      null,
      "",
      "Bearer",
      `Bearer ${revocable.token}`,
      `Bearer hut_${"A".repeat(43)}`,
      `bearer ${token}`,
      `Bearer ${token}x`,
      `Basic ${Buffer.from(`x:${token}`).toString("base64")}`,
      `Bearer ${"hut_".repeat(500)}`,
      `Bearer ${key.clientSecret}`,
    ]) {
      const reply = await check(q, auth);
      expect(reply.status, String(auth)).toBe(401);
      answers.push({ ...reply.json.error, requestId: undefined });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({ code: "invalid_token" });
    // The audit log has both.
    const { workspaceId } = (await dash(owner, "GET", `/api/projects/${projectId}`)).json;
    const audit = await dash(owner, "GET", `/api/workspaces/${workspaceId}/audit`);
    const actions = audit.json.items.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["update_token.created", "update_token.revoked"]));
  });

  it("the token opens no other route: not as an API key, not as a session, not on the dashboard's routes", async () => {
    const auth = { Authorization: `Bearer ${token}` };
    const asKey = await call("/api/upload/api-key/presign", { headers: { ...auth, "X-Client-ID": "hgr_xxxxxxxxxxxxxxxxxxxx" }, body: { fileName: "a.ipa", fileSize: 10, fileType: "application/octet-stream" } });
    expect(asKey.status).toBe(401);
    const asKeyId = await call("/api/upload/api-key/presign", { headers: { ...auth, "X-Client-ID": token }, body: { fileName: "a.ipa", fileSize: 10, fileType: "application/octet-stream" } });
    expect(asKeyId.status).toBe(401);
    for (const path of ["/api/account", `/api/projects/${projectId}`, `/api/projects/${projectId}/update-tokens`, `/api/projects/${projectId}/app-page`, `/api/files/${ipa.fileId}`]) {
      const bearer = await call(path, { headers: { ...auth, Origin: stack().baseUrl } });
      expect(bearer.status, path).toBe(401);
      const cookie = await call(path, { headers: { Cookie: `hangar_session=${token}; __Host-hangar_session=${token}`, Origin: stack().baseUrl } });
      expect(cookie.status, path).toBe(401);
    }
    // Its own route, with the token as a cookie or a query parameter: not accepted either.
    expect((await call(`/api/updates/latest?platform=ios&bundleId=com.example.demo&token=${token}`)).status).toBe(401);
  });

  it("never answers 5xx to hostile queries", async () => {
    for (const query of [
      "",
      "platform=windows&bundleId=a",
      "platform=ios",
      `platform=ios&bundleId=${"a".repeat(300)}`,
      "platform=ios&bundleId=com.example.demo%00",
      "platform=ios&bundleId=com.example.demo&version=%ff",
      `platform=ios&bundleId=com.example.demo&version=${"9".repeat(70)}`,
      `platform=ios&bundleId=com.example.demo&build=${"9".repeat(40)}`,
      "platform=ios&bundleId=com.example.demo&build=1e309",
      "platform=ios&platform=android&bundleId=com.example.demo",
      "platform=ios&bundleId=<script>",
    ]) {
      const reply = await check(query);
      expect(reply.status, query).toBeLessThan(500);
      expect([200, 204, 400]).toContain(reply.status);
    }
  });
});

describe("deleting the project", () => {
  it("leaves neither its app page's address nor its update tokens behind", async () => {
    const { projectId: doomed, name } = await newProject(owner);
    const doomedKey = await newDashboardKey(owner, doomed);
    await uploadIpa(doomedKey);
    const page = (await dash(owner, "PUT", `/api/projects/${doomed}/app-page`, { enabled: true })).json.url as string;
    const made = (await dash(owner, "POST", `/api/projects/${doomed}/update-tokens`, { name: "Doomed" })).json;
    expect((await check("platform=ios&bundleId=com.example.demo", `Bearer ${made.token}`)).status).toBe(200);
    const deleted = await dash(owner, "DELETE", `/api/projects/${doomed}`, { confirmName: name });
    expect([202, 204], deleted.text).toContain(deleted.status);
    await eventually(async () => withoutLinkTraces(outsideTheAuditLog(await itemsMentioning(doomed))).length === 0, "the project's items are gone");
    expect((await call(new URL(page).pathname)).status).toBe(404);
    expect((await check("platform=ios&bundleId=com.example.demo", `Bearer ${made.token}`)).status).toBe(401);
  });
});

describe("docs/update-check.md", () => {
  const doc = readFileSync(join(REPO_ROOT, "docs/update-check.md"), "utf8");

  it("its Swift and Kotlin snippets call the endpoint as the stack answers it", async () => {
    const swift = /```swift\n([\s\S]*?)```/.exec(doc)?.[1];
    const kotlin = /```kotlin\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(swift).toBeDefined();
    expect(kotlin).toBeDefined();
    for (const snippet of [swift!, kotlin!]) {
      // The path, the query's names and the header, as each snippet writes them.
      const path = /"[^"]*?(\/api\/updates\/latest)/.exec(snippet)?.[1];
      expect(path).toBe("/api/updates/latest");
      const names = ["platform", "bundleId", "version", "build"].filter((n) => new RegExp(`["(]${n}["=]`).test(snippet));
      expect(names).toEqual(["platform", "bundleId", "version", "build"]);
      expect(snippet).toMatch(/"Authorization"/);
      expect(snippet).toMatch(/"Bearer /);
      for (const field of ["installUrl", "version", "build"]) expect(snippet).toContain(field);
      expect(snippet).toMatch(/204/);
    }
    // The request they make, made here: the same names and header.
    const reply = await call(`/api/updates/latest?platform=ios&bundleId=com.example.demo&version=1.0&build=1`, { headers: { Authorization: `Bearer ${token}` } });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json).sort()).toEqual(["build", "fileId", "installUrl", "releaseNotes", "uploadedAt", "version"]);
  });
});
