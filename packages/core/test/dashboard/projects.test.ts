import { describe, expect, it } from "vitest";
import { createProject, deleteProject, getProject, listProjects, updateProject } from "../support/through-http";
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  budgetOf,
  MAX_PROJECTS,
  purgeProject,
  personalWorkspaceId,
} from "../../src";
import { memoryDashboard, storedFile } from "./memory-dashboard";

const forever = { shouldStop: () => false };
const alice = "usr_alice00000000000";
const aliceWs = personalWorkspaceId(alice);
const bob = "usr_bob0000000000000";

async function fieldsOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).issues.map((i) => i.field);
}

describe("projects", () => {
  it("creates a project with a trimmed name, description and palette color", async () => {
    const deps = memoryDashboard();
    const p = await createProject(deps, alice, { name: "  Mobile app ", description: "iOS and Android", color: "green" });
    expect(p).toMatchObject({ name: "Mobile app", description: "iOS and Android", color: "green", colorHex: "#15803d", status: "active", fileCount: 0, lastUploadAt: null });
    expect(p.projectId).toMatch(/^prj_/);
  });

  it("refuses names outside 1–80 characters, descriptions over 500, unknown colors and invisible characters", async () => {
    const deps = memoryDashboard();
    expect(await fieldsOf(createProject(deps, alice, { name: " ", color: "blue" }))).toEqual(["name"]);
    expect(await fieldsOf(createProject(deps, alice, { name: "x".repeat(81), color: "blue" }))).toEqual(["name"]);
    expect(await fieldsOf(createProject(deps, alice, { name: "ok", description: "d".repeat(501), color: "blue" }))).toEqual(["description"]);
    expect(await fieldsOf(createProject(deps, alice, { name: "ok", color: "magenta" }))).toEqual(["color"]);
    expect(await fieldsOf(createProject(deps, alice, { name: "evil\u202Egpa.exe", color: "blue" }))).toEqual(["name"]);
    await expect(createProject(deps, alice, { name: "x".repeat(80), description: "d".repeat(500), color: "blue" })).resolves.toBeDefined();
  });

  it("refuses a project over the account's limit with 409 limit_reached; deleting one frees a place", async () => {
    const deps = memoryDashboard();
    const made = [];
    for (let i = 0; i < MAX_PROJECTS; i++) made.push(await createProject(deps, alice, { name: `App ${i}`, color: "blue" }));
    const refused = await createProject(deps, alice, { name: "One too many", color: "blue" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).code).toBe("limit_reached");
    expect((refused as ConflictError).message).toContain(String(MAX_PROJECTS));
    // Another account is not affected, and a deleted project frees its place.
    await createProject(deps, bob, { name: "Bob's", color: "red" });
    await deleteProject(deps, alice, made[0]!.projectId, { confirmName: "App 0" }, forever);
    await createProject(deps, alice, { name: "One too many", color: "blue" });
  });

  it("keeps names unique per account regardless of case, but not across accounts", async () => {
    const deps = memoryDashboard();
    await createProject(deps, alice, { name: "Shop", color: "blue" });
    const taken = await createProject(deps, alice, { name: "SHOP", color: "red" }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ConflictError);
    expect((taken as ConflictError).details).toEqual({ fields: [{ field: "name", message: "is already the name of a project in this workspace" }] });
    await expect(createProject(deps, bob, { name: "shop", color: "red" })).resolves.toMatchObject({ name: "shop" });
  });

  it("lists only the caller's projects, newest first, with file count and last upload", async () => {
    const deps = memoryDashboard();
    const older = await createProject(deps, alice, { name: "Older", color: "blue" });
    deps.clock.advance(1000);
    const newer = await createProject(deps, alice, { name: "Newer", color: "red" });
    await createProject(deps, bob, { name: "Bob's", color: "gray" });
    await deps.projects.recordUpload(aliceWs, older.projectId, "2026-03-10T13:00:00.000Z");
    const list = await listProjects(deps, alice);
    expect(list.map((p) => p.name)).toEqual(["Newer", "Older"]);
    expect(list[1]).toMatchObject({ fileCount: 1, lastUploadAt: "2026-03-10T13:00:00.000Z" });
    expect(list[0]!.projectId).toBe(newer.projectId);
  });

  it("renames (freeing the old name), recolors, and answers 404 for another account's project", async () => {
    const deps = memoryDashboard();
    const p = await createProject(deps, alice, { name: "Old", color: "blue" });
    const updated = await updateProject(deps, alice, p.projectId, { name: "New", color: "pink" });
    expect(updated).toMatchObject({ name: "New", color: "pink", description: "" });
    await expect(createProject(deps, alice, { name: "old", color: "blue" })).resolves.toBeDefined();
    await expect(updateProject(deps, bob, p.projectId, { name: "Mine" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getProject(deps, bob, p.projectId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getProject(deps, alice, "../../etc")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("deletes only when confirmed with the project's name", async () => {
    const deps = memoryDashboard();
    const p = await createProject(deps, alice, { name: "Keep Me", color: "blue" });
    expect(await fieldsOf(deleteProject(deps, alice, p.projectId, { confirmName: "keep" }, forever))).toEqual(["confirmName"]);
    expect(await fieldsOf(deleteProject(deps, alice, p.projectId, {}, forever))).toEqual(["confirmName"]);
    await expect(getProject(deps, alice, p.projectId)).resolves.toMatchObject({ status: "active" });
    await expect(deleteProject(deps, bob, p.projectId, { confirmName: "Keep Me" }, forever)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("deletes keys, usage, records, share items, every object version and the name, leaving other projects alone", async () => {
    const deps = memoryDashboard();
    const doomed = await createProject(deps, alice, { name: "Doomed", color: "red" });
    const kept = await createProject(deps, alice, { name: "Kept", color: "blue" });
    await deps.keys.create({ clientId: "hgr_doomed", secretHash: "h", name: "ci", projectId: doomed.projectId, userId: alice, status: "active", createdAt: "t" });
    await deps.usage.request("hgr_doomed", deps.clock.now());
    for (let i = 0; i < 30; i++) storedFile(deps, doomed.projectId, i);
    storedFile(deps, kept.projectId, 99);
    deps.objects.putVersion(`uploads/${doomed.projectId}/fil_orphan/App.apk`); // a pending upload whose record expired

    await expect(deleteProject(deps, alice, doomed.projectId, { confirmName: "doomed" }, forever)).resolves.toEqual({ status: "deleted" });

    expect(await deps.projects.get(aliceWs, doomed.projectId)).toBeUndefined();
    expect([...deps.projects.names.keys()]).toEqual([`${aliceWs}/kept`]);
    expect(deps.keys.items.size).toBe(0);
    expect(await deps.usage.days("hgr_doomed", "2000-01-01", "2100-01-01")).toEqual([]);
    expect([...deps.files.records.values()].map((f) => f.projectId)).toEqual([kept.projectId]);
    expect(deps.files.shares.size).toBe(1);
    expect(deps.objects.count(`uploads/${doomed.projectId}/`)).toBe(0);
    expect(deps.objects.count(`uploads/${kept.projectId}/`)).toBe(3);
  });

  it("hands a large project to the background when the budget runs out, shows it deleting, and a later run finishes it", async () => {
    const deps = memoryDashboard({ bucketPageSize: 50 });
    const big = await createProject(deps, alice, { name: "Big", color: "purple" });
    await deps.keys.create({ clientId: "hgr_big", secretHash: "h", name: "ci", projectId: big.projectId, userId: alice, status: "active", createdAt: "t" });
    for (let i = 0; i < 2500; i++) storedFile(deps, big.projectId, i);

    // A budget that allows one step: the request answers with the project deleting.
    let steps = 0;
    const outcome = await deleteProject(deps, alice, big.projectId, { confirmName: "Big" }, { shouldStop: () => steps++ >= 1 });
    expect(outcome).toEqual({ status: "deleting" });
    expect(deps.background.scheduled).toEqual([{ kind: "project", workspaceId: aliceWs, projectId: big.projectId }]);
    await expect(getProject(deps, alice, big.projectId)).resolves.toMatchObject({ status: "deleting" });
    // The key stopped working at once, before the files are gone.
    expect(deps.keys.items.get("hgr_big")?.status).toBe("revoked");
    await expect(updateProject(deps, alice, big.projectId, { name: "x" })).rejects.toMatchObject({ code: "project_deleting" });

    // The background run, in small budgets as Lambda invocations would be, until done.
    let runs = 0;
    for (;;) {
      runs++;
      let budgetSteps = 0;
      const task = deps.background.scheduled[0]!;
      if (task.kind !== "project") throw new Error("expected a project's purge");
      const result = await purgeProject(deps, task, { shouldStop: () => budgetSteps++ >= 10 });
      if (result === "done") break;
    }
    expect(runs).toBeGreaterThan(1);
    expect(deps.files.records.size).toBe(0);
    expect(deps.files.shares.size).toBe(0);
    expect(deps.objects.count()).toBe(0);
    expect(deps.keys.items.size).toBe(0);
    await expect(getProject(deps, alice, big.projectId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("never purges a project nobody asked to delete", async () => {
    const deps = memoryDashboard();
    const p = await createProject(deps, alice, { name: "Active", color: "blue" });
    storedFile(deps, p.projectId, 1);
    await expect(purgeProject(deps, { kind: "project", workspaceId: aliceWs, projectId: p.projectId }, budgetOf(deps.clock, 1000))).resolves.toBe("done");
    expect(deps.files.records.size).toBe(1);
    expect(deps.objects.count()).toBe(3);
  });
});
