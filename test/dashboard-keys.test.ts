import { describe, expect, it } from "vitest";
import { complete, presign, put, readFixture } from "./support/api";
import { dash, signedIn } from "./support/accounts";
import { ipaPath, newDashboardKey, newProject, uploadIpa } from "./support/dashboard";

const declared = { fileName: "App.ipa", fileSize: 10, fileType: "application/octet-stream" };

describe("dashboard keys API", () => {
  it("creates a key (201, secret once) that CI can use, and lists it without any secret", async () => {
    const { b } = await signedIn();
    const { projectId, name } = await newProject(b);
    const created = await dash(b, "POST", "/api/keys", { name: "GitHub Actions", projectId });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: "GitHub Actions", projectId, projectName: name, status: "active", lastUsedAt: null });
    expect(created.json.clientSecret).toMatch(/^hgs_/);
    const key = { clientId: created.json.clientId, clientSecret: created.json.clientSecret, projectId };
    expect((await presign(key, declared)).status).toBe(200);

    const listed = await dash(b, "GET", "/api/keys");
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(key.clientSecret);
    expect(listed.text).not.toContain("secretHash");
    expect(listed.json.items).toEqual([
      expect.objectContaining({ clientId: key.clientId, name: "GitHub Actions", projectId, projectName: name, status: "active" }),
    ]);
    expect(Date.parse(listed.json.items[0].lastUsedAt)).not.toBeNaN();
  });

  it("needs a project: none, unknown or invalid names are refused", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    expect((await dash(b, "POST", "/api/keys", { name: "CI" })).json.error.fields).toEqual([{ field: "projectId", message: "is required" }]);
    expect((await dash(b, "POST", "/api/keys", { name: "CI", projectId: "prj_unknown000000001" })).status).toBe(404);
    expect((await dash(b, "POST", "/api/keys", { name: "x".repeat(81), projectId })).status).toBe(400);
  });

  it("regenerates: the old secret is refused on the very next presign, the new one works", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const key = await newDashboardKey(b, projectId);
    expect((await presign(key, declared)).status).toBe(200);
    const again = await dash(b, "POST", `/api/keys/${key.clientId}/regenerate`);
    expect(again.status).toBe(200);
    expect(Object.keys(again.json).sort()).toEqual(["clientId", "clientSecret"]);
    expect(again.json.clientId).toBe(key.clientId);
    expect((await presign(key, declared)).status).toBe(401);
    expect((await presign({ ...key, clientSecret: again.json.clientSecret }, declared)).status).toBe(200);
  });

  it("revokes: the key is refused at once, stays listed as revoked, and its usage stays readable", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const key = await newDashboardKey(b, projectId);
    expect((await presign(key, declared)).status).toBe(200);
    expect((await dash(b, "DELETE", `/api/keys/${key.clientId}`)).status).toBe(204);
    expect((await presign(key, declared)).status).toBe(401);
    expect((await dash(b, "DELETE", `/api/keys/${key.clientId}`)).status).toBe(204);
    expect((await dash(b, "GET", "/api/keys")).json.items[0]).toMatchObject({ clientId: key.clientId, status: "revoked" });
    const usage = await dash(b, "GET", `/api/keys/${key.clientId}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.json.totals.accepted).toBe(1);
    expect((await dash(b, "POST", `/api/keys/${key.clientId}/regenerate`)).status).toBe(409);
  });

  it("counts usage as the requests happened: accepted, rate-limited, uploads completed and bytes, per day", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const key = await newDashboardKey(b, projectId);
    const statuses: number[] = [];
    // The stack's limit is 100 per fixed 60 s window: 205 requests see 429s even when a window
    // boundary falls among them (one of the two windows then still gets more than 100).
    const sent = 205;
    for (let i = 0; i < sent; i++) statuses.push((await presign(key, declared)).status);
    const accepted = statuses.filter((s) => s === 200).length;
    const limited = statuses.filter((s) => s === 429).length;
    expect(accepted + limited).toBe(sent);
    expect(limited).toBeGreaterThan(0);
    // Wrong secrets are not the key holder's usage.
    expect((await presign({ ...key, clientSecret: "hgs_not-the-secret-of-this-key-at-all" }, declared)).status).toBe(401);

    let usage = await dash(b, "GET", `/api/keys/${key.clientId}/usage`);
    expect(usage.json.days).toHaveLength(30);
    expect(usage.json.totals).toEqual({ accepted, rateLimited: limited, uploads: 0, bytes: 0 });
    expect(usage.json.days.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), accepted, rateLimited: limited });
    expect(Date.parse(usage.json.lastUsedAt)).not.toBeNaN();

    // Wait for the next rate window, then complete an upload (presign + complete = 2 more requests).
    const waitMs = 60_000 - (Date.now() % 60_000) + 200;
    await new Promise((r) => setTimeout(r, waitMs));
    const bytes = readFixture(ipaPath());
    const p = await presign(key, { fileName: "App.ipa", fileSize: bytes.length, fileType: "application/octet-stream" });
    expect((await put(p.json.uploadUrl, bytes)).status).toBe(200);
    expect((await complete(key, { fileName: "App.ipa", fileSize: bytes.length, fileType: "application/octet-stream", key: p.json.key })).status).toBe(200);
    usage = await dash(b, "GET", `/api/keys/${key.clientId}/usage`);
    expect(usage.json.totals).toEqual({ accepted: accepted + 2, rateLimited: limited, uploads: 1, bytes: bytes.length });
  }, 180_000);

  it("counts completed uploads and bytes of every upload", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const key = await newDashboardKey(b, projectId);
    const one = await uploadIpa(key, "One.ipa");
    const two = await uploadIpa(key, "Two.ipa");
    const usage = await dash(b, "GET", `/api/keys/${key.clientId}/usage`);
    expect(usage.json.totals).toEqual({ accepted: 4, rateLimited: 0, uploads: 2, bytes: one.size + two.size });
  });
});
