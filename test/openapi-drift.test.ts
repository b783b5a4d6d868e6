import Ajv2020, { type ValidateFunction } from "@redocly/ajv/dist/2020";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browser, dash, mailsTo, uniqueEmail, type Browser } from "./support/accounts";
import { call, put, stack, type Reply } from "./support/api";
import { ipaPath, newDashboardKey, newProject } from "./support/dashboard";
import { readFixture, type Key } from "./support/api";
import { member, newWorkspace } from "./support/workspaces";

/**
 * The published OpenAPI document against the running service: real routes of the local stack
 * are called as their clients call them, and every answer is checked against what
 * docs/openapi.json says of that route and status: the status is documented, the JSON body
 * validates against the documented schema (closed objects: a field the document does not name
 * fails), an error's code is one the document lists for that status, and the headers the
 * document promises (X-Request-Id, the rate-limit headers, Location, ETag) are there. A change to
 * an answer that is not made in the document too fails here (drift).
 *
 * Validated with Ajv's JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1), the one
 * Redocly's OpenAPI validator (@redocly/openapi-core) checks the document's examples with.
 */

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(resolve(import.meta.dirname, "../docs/openapi.json"), "utf8")) as Json;
const BASE = "https://hangar.invalid/openapi.json";
// Formats (date-time, uri) are descriptions for clients here; the shapes are what drift would break.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: BASE, components: doc.components });
const validators = new Map<string, ValidateFunction>();
const validatorOf = (schema: Json): ValidateFunction => {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) validators.set(key, (v = ajv.compile({ $id: `${BASE}/check-${validators.size}`, ...rebase(schema) })));
  return v;
};
/** Local references of the document (`#/components/…`) made absolute, so they resolve against it. */
const rebase = (schema: Json): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${BASE}#/components/`));

/** Headers the document promises on every answer that names them. */
const ALWAYS = ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Location", "ETag", "Retry-After"];

const checked = new Set<string>();

/** Fails unless `reply` is what the document says `method template` answers with its status. */
function documented(method: string, template: string, reply: Reply): void {
  const where = `${method} ${template} → ${reply.status}`;
  const operation = doc.paths[template]?.[method.toLowerCase()] as Json | undefined;
  expect(operation, `${method} ${template} is not in the document`).toBeDefined();
  let response = operation!.responses[String(reply.status)] as Json | undefined;
  expect(response, `${where}: status not documented (${reply.text.slice(0, 300)})`).toBeDefined();
  if (response!.$ref) response = doc.components.responses[String(response!.$ref).split("/").at(-1)!];
  for (const name of Object.keys(response!.headers ?? {})) {
    if (ALWAYS.includes(name)) expect(reply.headers.get(name), `${where}: header ${name}`).not.toBeNull();
  }
  const type = reply.headers.get("content-type")?.split(";")[0]?.trim();
  if (response!.content && reply.text !== "") expect(Object.keys(response!.content), `${where}: Content-Type`).toContain(type);
  const json = response!.content?.["application/json"] as Json | undefined;
  // A JSON answer described by a schema of the document ($ref); the document itself is only "an object".
  if (json?.schema.$ref) {
    const validate = validatorOf(json.schema);
    expect(validate(reply.json) ? [] : validate.errors, `${where}: ${reply.text.slice(0, 500)}`).toEqual([]);
    if (json.examples && reply.json?.error) expect(Object.keys(json.examples), `${where}: error code`).toContain(reply.json.error.code);
  } else if (!response!.content) {
    expect(reply.text, `${where}: no body documented`).toBe("");
  }
  checked.add(`${method} ${template}`);
}

let owner: Awaited<ReturnType<typeof member>>;
let projectId: string;
let key: Key;
let fileId: string;
let userKey: string;
let groupId: string;
let teamId: string;
const tester = uniqueEmail("drift-tester");

beforeAll(async () => {
  owner = await member();
});

afterAll(() => {
  // How much of the API this run compared with the document (printed, not asserted beyond the minimum below).
  console.log(`openapi drift: ${checked.size} operations checked against docs/openapi.json`);
});

describe("the OpenAPI document against the local stack's real answers", () => {
  it("is what GET /api/openapi.json serves (gzipped when accepted, with ETag revalidation)", async () => {
    const plain = await call("/api/openapi.json");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    expect(plain.headers.get("cache-control")).toBe("public, max-age=300");
    expect(plain.json).toEqual(doc);
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call("/api/openapi.json", { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    documented("GET", "/api/openapi.json", again);
    const zipped = await fetch(`${stack().baseUrl}/api/openapi.json`, { headers: { "Accept-Encoding": "gzip" }, decompress: false } as RequestInit);
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("vary")).toBe("Accept-Encoding");
    // fetch inflates a gzipped body itself; undici may not, so take both.
    const bytes = Buffer.from(await zipped.arrayBuffer());
    const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes).toString("utf8") : bytes.toString("utf8");
    expect(JSON.parse(text)).toEqual(doc);
  });

  it("accounts, workspaces and members", async () => {
    documented("GET", "/api/account", await dash(owner.b, "GET", "/api/account"));
    documented("GET", "/api/account/sessions", await dash(owner.b, "GET", "/api/account/sessions"));
    documented("PUT", "/api/account/profile", await dash(owner.b, "PUT", "/api/account/profile", { displayName: "Drift Owner", organization: "Example" }));
    documented("GET", "/api/workspaces", await dash(owner.b, "GET", "/api/workspaces"));
    const team = await dash(owner.b, "POST", "/api/workspaces", { name: `Drift ${Date.now()}` });
    documented("POST", "/api/workspaces", team);
    teamId = team.json.workspaceId;
    documented("GET", "/api/workspaces/{workspaceId}", await dash(owner.b, "GET", `/api/workspaces/${teamId}`));
    documented("PATCH", "/api/workspaces/{workspaceId}", await dash(owner.b, "PATCH", `/api/workspaces/${teamId}`, { name: "Drift team" }));
    documented("GET", "/api/workspaces/{workspaceId}/members", await dash(owner.b, "GET", `/api/workspaces/${teamId}/members`));
    documented("POST", "/api/workspaces/{workspaceId}/invitations", await dash(owner.b, "POST", `/api/workspaces/${teamId}/invitations`, { email: uniqueEmail("invitee"), role: "developer" }));
    documented("GET", "/api/workspaces/{workspaceId}/invitations", await dash(owner.b, "GET", `/api/workspaces/${teamId}/invitations`));
    documented("POST", "/api/invitations/preview", await dash(browser(), "POST", "/api/invitations/preview", { token: "A".repeat(43) }));
    // A sign-in with the wrong password, a read without a session, an unknown workspace.
    documented("POST", "/api/session", await dash(browser(), "POST", "/api/session", { email: owner.email, password: "not the password at all" }));
    documented("GET", "/api/account", await dash(browser(), "GET", "/api/account"));
    documented("GET", "/api/workspaces/{workspaceId}", await dash(owner.b, "GET", "/api/workspaces/ws_0000000000000000"));
    documented("POST", "/api/account/sign-up", await dash(browser(), "POST", "/api/account/sign-up", { email: uniqueEmail("drift"), password: "correct horse battery staple" }));
    documented("POST", "/api/account/password-reset", await dash(browser(), "POST", "/api/account/password-reset", { email: owner.email }));
  });

  it("projects, keys and an upload with an API key", async () => {
    const created = await dash(owner.b, "POST", "/api/projects", { name: `Drift ${Date.now()}`, color: "teal" });
    documented("POST", "/api/projects", created);
    projectId = created.json.projectId;
    documented("GET", "/api/projects", await dash(owner.b, "GET", "/api/projects"));
    documented("GET", "/api/projects/{projectId}", await dash(owner.b, "GET", `/api/projects/${projectId}`));
    documented("PATCH", "/api/projects/{projectId}", await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { description: "drift" }));
    documented("GET", "/api/projects/{projectId}", await dash(owner.b, "GET", "/api/projects/nope"));
    const made = await dash(owner.b, "POST", "/api/keys", { name: "CI", projectId });
    documented("POST", "/api/keys", made);
    key = { clientId: made.json.clientId, clientSecret: made.json.clientSecret, projectId } as Key;
    documented("GET", "/api/keys", await dash(owner.b, "GET", "/api/keys"));

    const bytes = readFixture(ipaPath());
    const declared = { fileName: "Drift.ipa", fileSize: bytes.length, fileType: "application/octet-stream" };
    const presigned = await call("/api/upload/api-key/presign", { key, body: declared });
    documented("POST", "/api/upload/api-key/presign", presigned);
    expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
    const completed = await call("/api/upload/api-key/complete", { key, body: { ...declared, key: presigned.json.key, releaseNotes: "Drift notes", branch: "main" } });
    documented("POST", "/api/upload/api-key/complete", completed);
    ({ fileId, userKey } = completed.json);
    documented("POST", "/api/upload/api-key/presign", await call("/api/upload/api-key/presign", { body: declared }));
    documented("POST", "/api/upload/api-key/presign", await call("/api/upload/api-key/presign", { key, body: { ...declared, fileSize: "big" } }));
    documented("POST", "/api/upload/api-key/multipart", await call("/api/upload/api-key/multipart", { key, body: { ...declared, fileSize: 200 * 1024 * 1024 } }));
    documented("GET", "/api/keys/{clientId}/usage", await dash(owner.b, "GET", `/api/keys/${key.clientId}/usage`));
    // A dashboard upload's presign carries the rate-limit headers as an API key's does.
    documented("POST", "/api/projects/{projectId}/uploads", await dash(owner.b, "POST", `/api/projects/${projectId}/uploads`, declared));
    // Without the dashboard's origin, a state-changing request is refused.
    documented("POST", "/api/projects", await call("/api/projects", { body: { name: "x", color: "blue" }, headers: { Cookie: owner.b.cookie! } }));
  });

  it("builds, their links and what changed", async () => {
    documented("GET", "/api/projects/{projectId}/files", await dash(owner.b, "GET", `/api/projects/${projectId}/files`));
    documented("GET", "/api/files", await dash(owner.b, "GET", "/api/files"));
    documented("GET", "/api/files/{fileId}", await dash(owner.b, "GET", `/api/files/${fileId}`));
    documented("GET", "/api/files/{fileId}/diff", await dash(owner.b, "GET", `/api/files/${fileId}/diff`));
    documented("PATCH", "/api/files/{fileId}/share", await dash(owner.b, "PATCH", `/api/files/${fileId}/share`, { maxDownloads: 50 }));
    documented("GET", "/share/{userKey}/qr.svg", await call(`/share/${userKey}/qr.svg`));
    documented("GET", "/download/{userKey}", await call(`/download/${userKey}`, { headers: { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X)" } }));
    documented("GET", "/api/files/{fileId}/installs", await dash(owner.b, "GET", `/api/files/${fileId}/installs`));
    const regenerated = await dash(owner.b, "POST", `/api/files/${fileId}/share/regenerate`);
    documented("POST", "/api/files/{fileId}/share/regenerate", regenerated);
    documented("GET", "/download/{userKey}", await call(`/download/${userKey}`, { headers: { Accept: "application/json" } }));
    userKey = regenerated.json.userKey;
    documented("GET", "/api/workspaces/{workspaceId}/audit", await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/audit`));
  });

  it("pages, manifests and files for browsers, iPhones and CI", async () => {
    const iphone = { "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1" };
    documented("GET", "/share/{userKey}", await call(`/share/${userKey}`, { headers: iphone }));
    documented("HEAD", "/share/{userKey}", await call(`/share/${userKey}`, { method: "HEAD", headers: iphone }));
    documented("GET", "/share/{userKey}/manifest.plist", await call(`/share/${userKey}/manifest.plist`));
    documented("GET", "/share/{userKey}", await call("/share/NoSuchKey123", { headers: { Accept: "application/json" } }));
    documented("GET", "/cli/{fileName}", await call("/cli/hangar-cli-0.0.0-nope.tgz"));
    const cli = await call("/cli/hangar-cli.tgz", { method: "HEAD" });
    documented("HEAD", "/cli/{fileName}", cli);
    documented("GET", "/cli/{fileName}", await call("/cli/hangar-cli.tgz", { headers: { "If-None-Match": cli.headers.get("etag")! } }));
    documented("DELETE", "/api/account/sessions", await dash(owner.b, "DELETE", "/api/account/sessions"));
  });

  it("tester groups, distribution and the tester portal", async () => {
    const group = await dash(owner.b, "POST", `/api/workspaces/${owner.personal}/groups`, { name: `QA ${Date.now()}` });
    documented("POST", "/api/workspaces/{workspaceId}/groups", group);
    groupId = group.json.groupId;
    documented("POST", "/api/groups/{groupId}/testers", await dash(owner.b, "POST", `/api/groups/${groupId}/testers`, { emails: [tester, "not an address"] }));
    documented("POST", "/api/groups/{groupId}/invite-link", await dash(owner.b, "POST", `/api/groups/${groupId}/invite-link`, { maxMembers: 10 }));
    documented("GET", "/api/groups/{groupId}", await dash(owner.b, "GET", `/api/groups/${groupId}`));
    documented("GET", "/api/workspaces/{workspaceId}/groups", await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/groups`));
    documented("GET", "/api/workspaces/{workspaceId}/testers", await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/testers`));
    documented("PUT", "/api/projects/{projectId}/default-groups", await dash(owner.b, "PUT", `/api/projects/${projectId}/default-groups`, { groupIds: [] }));
    documented("GET", "/api/projects/{projectId}/default-groups", await dash(owner.b, "GET", `/api/projects/${projectId}/default-groups`));
    documented("POST", "/api/files/{fileId}/distribute", await dash(owner.b, "POST", `/api/files/${fileId}/distribute`, { groups: [groupId], notify: false }));
    documented("POST", "/api/files/{fileId}/distribute", await dash(owner.b, "POST", `/api/files/${fileId}/distribute`, { groups: ["no such group"] }));
    documented("GET", "/api/files/{fileId}/distributions", await dash(owner.b, "GET", `/api/files/${fileId}/distributions`));
    documented("GET", "/api/workspaces/{workspaceId}/testers/{email}/installs", await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/testers/${encodeURIComponent(tester)}/installs`));

    const t: Browser = browser();
    documented("POST", "/api/tester/sign-in", await dash(t, "POST", "/api/tester/sign-in", { email: tester }));
    let token: string | undefined;
    for (let waited = 0; !token && waited < 20_000; waited += 100) {
      token = (await mailsTo(tester)).map((m) => /\/tester\/sign-in\?token=([A-Za-z0-9_-]{43})/.exec(m.text)?.[1]).find(Boolean);
      if (!token) await new Promise((done) => setTimeout(done, 100));
    }
    expect(token, "the tester's sign-in mail").toBeDefined();
    documented("POST", "/api/tester/session", await dash(t, "POST", "/api/tester/session", { token }));
    documented("GET", "/api/tester/session", await dash(t, "GET", "/api/tester/session"));
    documented("GET", "/api/tester/apps", await dash(t, "GET", "/api/tester/apps"));
    documented("GET", "/api/tester/apps/{projectId}", await dash(t, "GET", `/api/tester/apps/${projectId}`));
    documented("DELETE", "/api/tester/session", await dash(t, "DELETE", "/api/tester/session"));
    documented("GET", "/api/tester/apps", await dash(t, "GET", "/api/tester/apps"));
  });

  it("app pages, update tokens and the update check", async () => {
    documented("PUT", "/api/projects/{projectId}/app-page", await dash(owner.b, "PUT", `/api/projects/${projectId}/app-page`, { enabled: true }));
    const page = await dash(owner.b, "GET", `/api/projects/${projectId}/app-page`);
    documented("GET", "/api/projects/{projectId}/app-page", page);
    const slug = new URL(page.json.url).pathname;
    documented("GET", "/apps/{slug}", await call(slug));
    documented("GET", "/apps/{slug}/files/{fileId}/manifest.plist", await call(`${slug}/files/${fileId}/manifest.plist`));
    documented("GET", "/apps/{slug}/files/{fileId}/download", await call(`${slug}/files/nope/download`, { headers: { Accept: "application/json" } }));
    const made = await dash(owner.b, "POST", `/api/projects/${projectId}/update-tokens`, { name: "iOS beta" });
    documented("POST", "/api/projects/{projectId}/update-tokens", made);
    documented("GET", "/api/projects/{projectId}/update-tokens", await dash(owner.b, "GET", `/api/projects/${projectId}/update-tokens`));
    const check = (auth: string, query: string) => call(`/api/updates/latest?${query}`, { headers: { Authorization: auth } });
    const file = (await dash(owner.b, "GET", `/api/files/${fileId}`)).json;
    documented("GET", "/api/updates/latest", await check(`Bearer ${made.json.token}`, `platform=ios&bundleId=${encodeURIComponent(file.bundleId)}&version=0.0.1&build=0`));
    documented("GET", "/api/updates/latest", await check(`Bearer ${made.json.token}`, `platform=ios&bundleId=${encodeURIComponent(file.bundleId)}&version=999.0.0&build=999`));
    documented("GET", "/api/updates/latest", await check("Bearer hut_nope", "platform=ios&bundleId=x&version=1&build=1"));
  });

  it("webhooks and their delivery log", async () => {
    const made = await dash(owner.b, "POST", `/api/workspaces/${teamId}/webhooks`, { url: "http://127.0.0.1:9/drift", events: ["build.completed"], description: "drift" });
    documented("POST", "/api/workspaces/{workspaceId}/webhooks", made);
    const id = made.json.webhookId;
    documented("GET", "/api/workspaces/{workspaceId}/webhooks", await dash(owner.b, "GET", `/api/workspaces/${teamId}/webhooks`));
    documented("GET", "/api/webhooks/{webhookId}", await dash(owner.b, "GET", `/api/webhooks/${id}`));
    documented("POST", "/api/webhooks/{webhookId}/test", await dash(owner.b, "POST", `/api/webhooks/${id}/test`, {}));
    documented("GET", "/api/webhooks/{webhookId}/deliveries", await dash(owner.b, "GET", `/api/webhooks/${id}/deliveries`));
    documented("POST", "/api/webhooks/{webhookId}/rotate-secret", await dash(owner.b, "POST", `/api/webhooks/${id}/rotate-secret`));
    documented("PATCH", "/api/webhooks/{webhookId}", await dash(owner.b, "PATCH", `/api/webhooks/${id}`, { enabled: false }));
    documented("POST", "/api/webhooks/{webhookId}/test", await dash(owner.b, "POST", `/api/webhooks/${id}/test`, {}));
    documented("DELETE", "/api/webhooks/{webhookId}", await dash(owner.b, "DELETE", `/api/webhooks/${id}`));
    documented("GET", "/api/webhooks/{webhookId}", await dash(owner.b, "GET", `/api/webhooks/${id}`));
  });

  it("deletes, and covers a good share of the API", async () => {
    documented("DELETE", "/api/keys/{clientId}", await dash(owner.b, "DELETE", `/api/keys/${key.clientId}`));
    documented("DELETE", "/api/groups/{groupId}", await dash(owner.b, "DELETE", `/api/groups/${groupId}`));
    documented("DELETE", "/api/files/{fileId}", await dash(owner.b, "DELETE", `/api/files/${fileId}`));
    documented("GET", "/share/{userKey}/qr.svg", await call(`/share/${userKey}/qr.svg`));
    const other = await newWorkspace(owner.b);
    documented("DELETE", "/api/workspaces/{workspaceId}", await dash(owner.b, "DELETE", `/api/workspaces/${other.workspaceId}`, { confirmName: other.name }));
    const project = await newProject(owner.b);
    await newDashboardKey(owner.b, project.projectId);
    documented("DELETE", "/api/projects/{projectId}", await dash(owner.b, "DELETE", `/api/projects/${project.projectId}`, { confirmName: project.name }));
    documented("DELETE", "/api/session", await dash(owner.b, "DELETE", "/api/session"));
    expect(checked.size).toBeGreaterThanOrEqual(60);
  });
});
