import { describe, expect, it } from "vitest";
import { createKey, createProject, deleteFile, deleteProject, regenerateKey, revokeKey, updateProject } from "../support/through-http";
import { ForbiddenError, personalWorkspaceId, type Actor } from "../../src";
import { memoryDashboard, storedFile } from "./memory-dashboard";

const alice = "usr_alice00000000000";
const bob = "usr_bob0000000000000";
const team = "ws_team000000000000";
const forever = { shouldStop: () => false };
const actor: Actor = { userId: alice, client: { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36" } };

describe("the dashboard's changes in the audit log", () => {
  it("records each change after it succeeded, with who and from where, in the project's workspace", async () => {
    const deps = memoryDashboard();
    const project = await createProject(deps, actor, { name: "App", color: "blue" });
    await updateProject(deps, actor, project.projectId, { name: "Shop" });
    const key = await createKey(deps, actor, { name: "CI", projectId: project.projectId });
    await regenerateKey(deps, actor, key.clientId);
    await revokeKey(deps, actor, key.clientId);
    // A second revoke changes nothing, and logs nothing.
    await revokeKey(deps, actor, key.clientId);
    const file = storedFile(deps, project.projectId, 1);
    await deleteFile(deps, actor, file.fileId);
    await deleteProject(deps, actor, project.projectId, { confirmName: "Shop" }, forever);

    expect(deps.audit.entries.map((e) => e.action)).toEqual([
      "project.created",
      "project.updated",
      "key.created",
      "key.regenerated",
      "key.revoked",
      "build.deleted",
      "project.deleted",
    ]);
    for (const entry of deps.audit.entries) {
      expect(entry.workspaceId).toBe(personalWorkspaceId(alice));
      expect(entry.actor).toEqual({ userId: alice, ip: "203.0.113.7", userAgentFamily: "Chrome" });
    }
    expect(deps.audit.entries[1]).toMatchObject({ target: { type: "project", id: project.projectId, label: "Shop" }, details: { previousName: "App" } });
    expect(deps.audit.entries[5]).toMatchObject({ target: { type: "build", id: file.fileId } });
    // The secret is in no entry.
    expect(JSON.stringify(deps.audit.entries)).not.toContain(key.clientSecret);
  });

  it("logs nothing for a refused change", async () => {
    const deps = memoryDashboard();
    deps.workspaces.add(team, alice, "owner");
    deps.workspaces.add(team, bob, "viewer");
    const project = await createProject(deps, alice, { name: "Team app", color: "blue", workspaceId: team });
    const before = deps.audit.entries.length;
    await expect(createKey(deps, bob, { name: "CI", projectId: project.projectId })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateProject(deps, bob, project.projectId, { name: "Mine" })).rejects.toMatchObject({ code: "forbidden", details: { permission: "projects.manage", role: "viewer" } });
    expect(deps.audit.entries).toHaveLength(before);
  });
});
