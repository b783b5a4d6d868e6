import { describe, expect, it } from "vitest";
import { createKey, createProject } from "../support/through-http";
import { deleteWorkspace, ForbiddenError, NotFoundError, purgeWorkspace, ValidationError } from "../../src";
import { memoryDashboard, storedFile } from "./memory-dashboard";

const alice = "usr_alice00000000000";
const bob = "usr_bob0000000000000";
const team = "ws_team000000000000";
const ample = { shouldStop: () => false };

/** A team workspace (its memory name is its id) owned by alice, bob an admin, with one project, a key and builds. */
async function teamWithBuilds(files = 3) {
  const deps = memoryDashboard();
  deps.workspaces.add(team, alice, "owner");
  deps.workspaces.add(team, bob, "admin");
  const project = await createProject(deps, alice, { name: "App", color: "blue", workspaceId: team });
  const key = await createKey(deps, alice, { name: "CI", projectId: project.projectId });
  for (let i = 0; i < files; i++) storedFile(deps, project.projectId, i);
  return { deps, project, key };
}

describe("deleting a workspace", () => {
  it("is the owners' only, confirmed by the name, and 404 for non-members", async () => {
    const { deps } = await teamWithBuilds();
    await expect(deleteWorkspace(deps, { userId: bob }, { workspaceId: team, confirmName: team }, ample)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteWorkspace(deps, { userId: "usr_eve0000000000000" }, { workspaceId: team, confirmName: team }, ample)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteWorkspace(deps, { userId: alice }, { workspaceId: team, confirmName: "another" }, ample)).rejects.toBeInstanceOf(ValidationError);
    expect(deps.projects.items.size).toBe(1);
    expect(await deps.workspaces.membership(team, bob)).toBeDefined();
  });

  it("removes its projects, builds, objects and keys, then the workspace and its members", async () => {
    const { deps } = await teamWithBuilds();
    await expect(deleteWorkspace(deps, { userId: alice }, { workspaceId: team, confirmName: team.toUpperCase() }, ample)).resolves.toEqual({ status: "deleted" });
    expect(deps.projects.items.size).toBe(0);
    expect(deps.keys.items.size).toBe(0);
    expect(deps.files.records.size).toBe(0);
    expect(deps.objects.count()).toBe(0);
    expect(deps.workspaces.removed).toEqual([team]);
    expect(await deps.workspaces.membership(team, bob)).toBeUndefined();
    expect(deps.pendingDeletes.items.size).toBe(0);
  });

  it("out of budget: gone for its members and its keys revoked at once, the rest in the background", async () => {
    const { deps, key } = await teamWithBuilds(300);
    const outcome = await deleteWorkspace(deps, { userId: alice }, { workspaceId: team, confirmName: team }, { shouldStop: () => true });
    expect(outcome).toEqual({ status: "deleting" });
    expect(deps.background.scheduled).toEqual([{ kind: "workspace", workspaceId: team }]);
    expect(await deps.workspaces.membership(team, alice)).toBeUndefined();
    expect(await deps.workspaces.membership(team, bob)).toBeUndefined();
    expect(deps.keys.items.get(key.clientId)?.status).toBe("revoked");
    expect(deps.projects.items.size).toBe(1);
    // Creating a project there is refused like in any workspace one is not a member of.
    await expect(createProject(deps, alice, { name: "Late", color: "red", workspaceId: team })).rejects.toBeInstanceOf(NotFoundError);

    // The background run, in small budgets as Lambda invocations would be, until done; every step can repeat.
    let runs = 0;
    for (;;) {
      runs++;
      let steps = 0;
      if ((await purgeWorkspace(deps, { kind: "workspace", workspaceId: team }, { shouldStop: () => steps++ >= 5 })) === "done") break;
    }
    expect(runs).toBeGreaterThan(1);
    expect(deps.projects.items.size).toBe(0);
    expect(deps.objects.count()).toBe(0);
    expect(deps.workspaces.removed).toEqual([team]);
    expect(deps.pendingDeletes.items.size).toBe(0);
    // Once more (a retried invocation): nothing to do.
    expect(await purgeWorkspace(deps, { kind: "workspace", workspaceId: team }, ample)).toBe("done");
  });
});
