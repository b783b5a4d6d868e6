import { describe, expect, it } from "vitest";
import { createKey, createProject, deleteProject, keyUsage, listKeys, regenerateKey, revokeKey } from "../support/through-http";
import {
  ConflictError,
  NotFoundError,
  hashSecret,
  MAX_ACTIVE_KEYS,
  personalWorkspaceId,
} from "../../src";
import { memoryDashboard } from "./memory-dashboard";

const alice = "usr_alice00000000000";
const aliceWs = personalWorkspaceId(alice);
const bob = "usr_bob0000000000000";

async function setup() {
  const deps = memoryDashboard();
  const project = await createProject(deps, alice, { name: "App", color: "blue" });
  return { deps, project };
}

describe("API keys", () => {
  it("refuses an active key over the project's limit with 409 limit_reached; revoking one frees a place", async () => {
    const { deps, project } = await setup();
    const keys = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) keys.push(await createKey(deps, alice, { name: `CI ${i}`, projectId: project.projectId }));
    const refused = await createKey(deps, alice, { name: "extra", projectId: project.projectId }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).code).toBe("limit_reached");
    await revokeKey(deps, alice, keys[0]!.clientId);
    expect((await createKey(deps, alice, { name: "extra", projectId: project.projectId })).status).toBe("active");
    // The limit is per project.
    const other = await createProject(deps, alice, { name: "Other", color: "red" });
    expect((await createKey(deps, alice, { name: "CI", projectId: other.projectId })).status).toBe("active");
  });

  it("creates a key for an owned project and shows its secret once, storing only the hash", async () => {
    const { deps, project } = await setup();
    const created = await createKey(deps, alice, { name: " CI ", projectId: project.projectId });
    expect(created).toMatchObject({ name: "CI", projectId: project.projectId, projectName: "App", status: "active", lastUsedAt: null });
    expect(created.clientSecret).toMatch(/^hgs_/);
    const stored = deps.keys.items.get(created.clientId)!;
    expect(stored.secretHash).toBe(hashSecret(created.clientSecret));
    expect(JSON.stringify(stored)).not.toContain(created.clientSecret);

    const listed = await listKeys(deps, alice);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(created.clientSecret);
    expect(listed[0]).not.toHaveProperty("secretHash");
    expect(listed[0]).not.toHaveProperty("clientSecret");
  });

  it("requires a project of the caller: missing, unknown, another account's or a deleting one", async () => {
    const { deps, project } = await setup();
    await expect(createKey(deps, alice, { name: "CI" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(createKey(deps, alice, { name: "CI", projectId: "prj_nope" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(createKey(deps, bob, { name: "CI", projectId: project.projectId })).rejects.toBeInstanceOf(NotFoundError);
    await expect(createKey(deps, alice, { name: "", projectId: project.projectId })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(createKey(deps, alice, { name: "k".repeat(81), projectId: project.projectId })).rejects.toMatchObject({ code: "invalid_request" });
    await deps.projects.markDeleting(aliceWs, project.projectId);
    await expect(createKey(deps, alice, { name: "CI", projectId: project.projectId })).rejects.toMatchObject({ code: "project_deleting" });
  });

  it("regenerates a new secret for the same client id; the old hash is gone", async () => {
    const { deps, project } = await setup();
    const created = await createKey(deps, alice, { name: "CI", projectId: project.projectId });
    const again = await regenerateKey(deps, alice, created.clientId);
    expect(again.clientId).toBe(created.clientId);
    expect(again.clientSecret).not.toBe(created.clientSecret);
    expect(deps.keys.items.get(created.clientId)!.secretHash).toBe(hashSecret(again.clientSecret));
    await expect(regenerateKey(deps, bob, created.clientId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("revokes idempotently; a revoked key stays listed and readable but cannot be regenerated", async () => {
    const { deps, project } = await setup();
    const created = await createKey(deps, alice, { name: "CI", projectId: project.projectId });
    await expect(revokeKey(deps, bob, created.clientId)).rejects.toBeInstanceOf(NotFoundError);
    expect(deps.keys.items.get(created.clientId)!.status).toBe("active");
    await revokeKey(deps, alice, created.clientId);
    await revokeKey(deps, alice, created.clientId);
    expect((await listKeys(deps, alice))[0]).toMatchObject({ status: "revoked" });
    await expect(regenerateKey(deps, alice, created.clientId)).rejects.toBeInstanceOf(ConflictError);
    await expect(keyUsage(deps, alice, created.clientId)).resolves.toMatchObject({ clientId: created.clientId });
  });

  it("reports 30 days of usage, accepted and rate-limited apart, with uploads, bytes and last use", async () => {
    const { deps, project } = await setup();
    const { clientId } = await createKey(deps, alice, { name: "CI", projectId: project.projectId });
    const today = deps.clock.now();
    const daysAgo = (n: number) => new Date(today.getTime() - n * 86_400_000);
    for (let i = 0; i < 4; i++) await deps.usage.request(clientId, today);
    await deps.usage.rateLimited(clientId, today); // a refused request is a request too
    await deps.usage.uploadCompleted(clientId, today, 1234);
    await deps.usage.request(clientId, daysAgo(3));
    await deps.usage.request(clientId, daysAgo(30)); // outside the window

    const usage = await keyUsage(deps, alice, clientId);
    expect(usage.days).toHaveLength(30);
    expect(usage.to).toBe("2026-03-10");
    expect(usage.from).toBe("2026-02-09");
    expect(usage.days.at(-1)).toEqual({ day: "2026-03-10", accepted: 4, rateLimited: 1, uploads: 1, bytes: 1234 });
    expect(usage.days.at(-4)).toMatchObject({ day: "2026-03-07", accepted: 1 });
    expect(usage.totals).toEqual({ accepted: 5, rateLimited: 1, uploads: 1, bytes: 1234 });
    expect(usage.lastUsedAt).toBe(today.toISOString());
    expect((await listKeys(deps, alice))[0]!.lastUsedAt).toBe(today.toISOString());
    await expect(keyUsage(deps, bob, clientId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("answers 404 for malformed client ids without a lookup", async () => {
    const { deps } = await setup();
    for (const id of [undefined, "", "a", "x".repeat(200), "hgr_../../"]) {
      await expect(keyUsage(deps, alice, id)).rejects.toBeInstanceOf(NotFoundError);
    }
  });

  it("is gone with its project", async () => {
    const { deps, project } = await setup();
    const { clientId } = await createKey(deps, alice, { name: "CI", projectId: project.projectId });
    await deleteProject(deps, alice, project.projectId, { confirmName: "App" }, { shouldStop: () => false });
    await expect(keyUsage(deps, alice, clientId)).rejects.toBeInstanceOf(NotFoundError);
    expect(await listKeys(deps, alice)).toEqual([]);
  });
});
