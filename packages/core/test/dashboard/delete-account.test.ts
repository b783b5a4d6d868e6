import { describe, expect, it } from "vitest";
import { createKey, createProject, deleteAccount } from "../support/through-http";
import { ValidationError, personalWorkspaceId, purgeWorkspace, type AccountCloser } from "../../src";
import { memoryDashboard, storedFile } from "./memory-dashboard";

const alice = "usr_alice00000000000";
const aliceWs = personalWorkspaceId(alice);

function closer(password = "right password") {
  const calls: string[] = [];
  const account: AccountCloser = {
    verifyPassword: async (_userId, given) => given === password,
    endSessions: async (userId) => void calls.push(`endSessions ${userId}`),
    removeUser: async (userId) => void calls.push(`removeUser ${userId}`),
  };
  return { account, calls };
}

describe("account deletion", () => {
  it("refuses a wrong password and changes nothing", async () => {
    const deps = memoryDashboard();
    const p = await createProject(deps, alice, { name: "App", color: "blue" });
    const { account, calls } = closer();
    const error = await deleteAccount({ ...deps, account }, alice, { password: "wrong" }, { shouldStop: () => false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([{ field: "password", message: "is not your current password" }]);
    expect(await deps.projects.get(aliceWs, p.projectId)).toMatchObject({ status: "active" });
    expect(calls).toEqual([]);
  });

  it("purges every project, then ends the sessions and removes the user", async () => {
    const deps = memoryDashboard();
    const one = await createProject(deps, alice, { name: "One", color: "blue" });
    const two = await createProject(deps, alice, { name: "Two", color: "red" });
    await createKey(deps, alice, { name: "CI", projectId: one.projectId });
    storedFile(deps, one.projectId, 1);
    storedFile(deps, two.projectId, 2);
    const { account, calls } = closer();
    await expect(deleteAccount({ ...deps, account }, alice, { password: "right password" }, { shouldStop: () => false })).resolves.toEqual({
      status: "deleted",
    });
    expect(deps.projects.items.size).toBe(0);
    expect(deps.projects.names.size).toBe(0);
    expect(deps.keys.items.size).toBe(0);
    expect(deps.files.records.size).toBe(0);
    expect(deps.objects.count()).toBe(0);
    expect(calls).toEqual([`endSessions ${alice}`, `removeUser ${alice}`]);
  });

  it("hands unfinished projects to the background with their keys already revoked", async () => {
    const deps = memoryDashboard();
    const big = await createProject(deps, alice, { name: "Big", color: "blue" });
    const key = await createKey(deps, alice, { name: "CI", projectId: big.projectId });
    for (let i = 0; i < 300; i++) storedFile(deps, big.projectId, i);
    const { account, calls } = closer();
    const outcome = await deleteAccount({ ...deps, account }, alice, { password: "right password" }, { shouldStop: () => true });
    expect(outcome).toEqual({ status: "deleting" });
    // The whole workspace continues in the background (its projects, then its own items).
    expect(deps.background.scheduled).toEqual([{ kind: "workspace", workspaceId: aliceWs }]);
    expect(deps.keys.items.get(key.clientId)?.status).toBe("revoked");
    expect(calls).toEqual([`endSessions ${alice}`, `removeUser ${alice}`]);

    // The background run ends with the workspace gone too, not only its projects.
    expect(await purgeWorkspace(deps, { kind: "workspace", workspaceId: aliceWs }, { shouldStop: () => false })).toBe("done");
    expect(deps.projects.items.size).toBe(0);
    expect(deps.workspaces.removed).toEqual([aliceWs]);
    expect(deps.pendingDeletes.items.size).toBe(0);
  });
});
