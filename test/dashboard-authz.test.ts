import { beforeAll, describe, expect, it } from "vitest";
import { presign, type Key } from "./support/api";
import { browser, dash, signedIn, type Browser } from "./support/accounts";
import { itemsMentioning, newDashboardKey, newProject, outsideTheAuditLog, uploadIpa, versionsUnder, withoutLinkTraces } from "./support/dashboard";

let owner: Browser;
let stranger: Browser;
let projectId: string;
let key: Key;
let fileId: string;

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  ({ b: stranger } = await signedIn());
  ({ projectId } = await newProject(owner, "Private"));
  key = await newDashboardKey(owner, projectId);
  ({ fileId } = await uploadIpa(key));
  // The stranger has things of their own, so an empty answer is not a coincidence.
  await newProject(stranger, "Theirs");
});

/** Every dashboard endpoint, aimed at the owner's ids. */
const matrix = (): [string, string, unknown?][] => [
  ["GET", `/api/projects/${projectId}`],
  ["PATCH", `/api/projects/${projectId}`, { name: "Taken over" }],
  ["DELETE", `/api/projects/${projectId}`, { confirmName: "Private" }],
  ["GET", `/api/projects/${projectId}/files`],
  ["DELETE", `/api/keys/${key.clientId}`],
  ["POST", `/api/keys/${key.clientId}/regenerate`],
  ["GET", `/api/keys/${key.clientId}/usage`],
  ["GET", `/api/files/${fileId}`],
  ["DELETE", `/api/files/${fileId}`],
  ["POST", "/api/keys", { name: "Mine now", projectId }],
];

describe("dashboard authorization", () => {
  it("answers 404 (never 403, never data) to another account for every endpoint with the owner's ids, and changes nothing", async () => {
    for (const [method, path, body] of matrix()) {
      const reply = await dash(stranger, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.text).not.toContain("Private");
      expect(reply.text).not.toContain(fileId);
    }
    const lists = await Promise.all(["/api/projects", "/api/keys", "/api/files"].map((p) => dash(stranger, "GET", p)));
    for (const reply of lists) {
      expect(reply.status).toBe(200);
      expect(reply.text).not.toContain(projectId);
      expect(reply.text).not.toContain(key.clientId);
      expect(reply.text).not.toContain(fileId);
    }
    // Still all there, still working for the owner.
    expect((await dash(owner, "GET", `/api/projects/${projectId}`)).json.name).toBe("Private");
    expect((await dash(owner, "GET", `/api/files/${fileId}`)).status).toBe(200);
    expect((await presign(key, { fileName: "A.ipa", fileSize: 10, fileType: "application/octet-stream" })).status).toBe(200);
  });

  it("answers 401 without a session and refuses an API key in place of one", async () => {
    const anonymous = browser();
    for (const [method, path, body] of [...matrix(), ["GET", "/api/projects"], ["GET", "/api/keys"], ["GET", "/api/files"]] as [string, string, unknown?][]) {
      const reply = await dash(anonymous, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(401);
    }
    const withKey = await dash(anonymous, "GET", "/api/projects", undefined, {
      "X-Client-ID": key.clientId,
      Authorization: `Bearer ${key.clientSecret}`,
    });
    expect(withKey.status).toBe(401);
  });

  it("refuses state changes from another origin (CSRF) before looking at anything", async () => {
    const reply = await dash(owner, "POST", "/api/projects", { name: "Forged", color: "red" }, { Origin: "https://evil.example" });
    expect(reply.status).toBe(403);
    expect(reply.json.error.code).toBe("cross_origin_request");
    const list = await dash(owner, "GET", "/api/projects");
    expect(list.json.items.map((p: { name: string }) => p.name)).not.toContain("Forged");
  });
});

describe("account deletion", () => {
  it("needs the password, then removes projects, keys, files and objects, ends sessions and frees the address", async () => {
    const { b, email } = await signedIn();
    const other = browser();
    const signInElsewhere = await dash(other, "POST", "/api/session", { email, password: "correct horse battery staple" });
    expect(signInElsewhere.status).toBe(200);
    const { projectId: p1 } = await newProject(b, "First");
    const { projectId: p2 } = await newProject(b, "Second");
    const k = await newDashboardKey(b, p1);
    const up = await uploadIpa(k);

    const wrong = await dash(b, "DELETE", "/api/account", { password: "not my password at all" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields).toEqual([{ field: "password", message: "is not your current password" }]);
    expect((await dash(b, "GET", "/api/projects")).status).toBe(200);

    const gone = await dash(b, "DELETE", "/api/account", { password: "correct horse battery staple" });
    expect([202, 204]).toContain(gone.status);
    expect((await dash(b, "GET", "/api/account")).status).toBe(401);
    expect((await dash(other, "GET", "/api/projects")).status).toBe(401);
    expect((await presign(k, { fileName: "A.ipa", fileSize: 10, fileType: "application/octet-stream" })).status).toBe(401);

    const deadline = Date.now() + 60_000;
    const left = async () => outsideTheAuditLog(withoutLinkTraces(await itemsMentioning(p1, p2, up.userKey)));
    while ((await left()).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect(await left()).toEqual([]);
    expect(await versionsUnder(`uploads/${p1}/`)).toEqual([]);
    expect(await itemsMentioning(email)).toEqual([]);

    // The address can sign up again.
    const again = await dash(browser(), "POST", "/api/account/sign-up", { email, password: "another long passphrase here" });
    expect(again.status).toBe(202);
  });
});
