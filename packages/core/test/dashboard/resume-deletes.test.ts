import { describe, expect, it } from "vitest";
import { createProject, deleteAccount, deleteProject, getProject } from "../support/through-http";
import { budgetOf, NotFoundError, personalWorkspaceId, resumeStaleDeletes, STALE_DELETE_MS } from "../../src";
import { memoryDashboard, storedFile } from "./memory-dashboard";

const alice = "usr_alice00000000000";
const ample = (deps: ReturnType<typeof memoryDashboard>) => budgetOf(deps.clock, 60_000);

/** A purger that dies after `n` objects, as a background run killed half way (timeout, crash) would. */
function dyingAfter(deps: ReturnType<typeof memoryDashboard>, n: number) {
  const real = deps.objects;
  let left = n;
  return {
    ...deps,
    objects: {
      purgePrefix: async (prefix: string) => {
        if (left <= 0) throw new Error("the background step was killed");
        const result = await real.purgePrefix(prefix);
        left -= result.deleted;
        return result;
      },
    },
  };
}

describe("deletes whose background run was lost", () => {
  it("a project delete killed half way is finished by the sweep once its progress is stale: project, files, share items and objects gone", async () => {
    const deps = memoryDashboard({ bucketPageSize: 10 });
    const project = await createProject(deps, alice, { name: "Doomed", color: "red" });
    for (let i = 0; i < 30; i++) storedFile(deps, project.projectId, i);
    const objects = deps.objects.count(`uploads/${project.projectId}/`);
    expect(objects).toBeGreaterThan(20);

    // The request purges until its purger dies after 20 objects: the error ends it, nothing is scheduled.
    await expect(deleteProject(dyingAfter(deps, 20), alice, project.projectId, { confirmName: "Doomed" }, ample(deps))).rejects.toThrow("killed");
    expect(deps.background.scheduled).toEqual([]);
    await expect(getProject(deps, alice, project.projectId)).resolves.toMatchObject({ status: "deleting" });
    const left = deps.objects.count(`uploads/${project.projectId}/`);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(objects);

    // Before the bound the sweep leaves it alone (a live worker may be on it)…
    deps.clock.advance(STALE_DELETE_MS - 1000);
    expect(await resumeStaleDeletes(deps, ample(deps))).toEqual({ found: 0, finished: 0, unfinished: 0 });
    // …after it, the sweep finishes the purge.
    deps.clock.advance(2000);
    expect(await resumeStaleDeletes(deps, ample(deps))).toEqual({ found: 1, finished: 1, unfinished: 0 });
    await expect(getProject(deps, alice, project.projectId)).rejects.toBeInstanceOf(NotFoundError);
    expect(deps.objects.count(`uploads/${project.projectId}/`)).toBe(0);
    expect(deps.files.records.size).toBe(0);
    expect(deps.files.shares.size).toBe(0);
    expect(deps.pendingDeletes.items.size).toBe(0);
    // Nothing left for the next sweep.
    deps.clock.advance(STALE_DELETE_MS * 2);
    expect((await resumeStaleDeletes(deps, ample(deps))).found).toBe(0);
  });

  it("a sweep cut short by its budget is continued by the next one until the project is gone", async () => {
    const deps = memoryDashboard({ bucketPageSize: 5 });
    const project = await createProject(deps, alice, { name: "Big", color: "blue" });
    for (let i = 0; i < 40; i++) storedFile(deps, project.projectId, i);
    await expect(deleteProject(dyingAfter(deps, 5), alice, project.projectId, { confirmName: "Big" }, ample(deps))).rejects.toThrow("killed");

    let sweeps = 0;
    for (;;) {
      deps.clock.advance(STALE_DELETE_MS + 1);
      sweeps++;
      let steps = 0;
      const outcome = await resumeStaleDeletes(deps, { shouldStop: () => steps++ >= 3 });
      if (outcome.found === 0) break;
      expect(sweeps).toBeLessThan(100);
    }
    expect(sweeps).toBeGreaterThan(2);
    expect(deps.objects.count()).toBe(0);
    await expect(getProject(deps, alice, project.projectId)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an account delete killed half way leaves markers for its workspace and each of its projects, and the sweep purges them", async () => {
    const deps = memoryDashboard({ bucketPageSize: 10 });
    const a = await createProject(deps, alice, { name: "A", color: "red" });
    const b = await createProject(deps, alice, { name: "B", color: "blue" });
    for (let i = 0; i < 10; i++) storedFile(deps, a.projectId, i);
    for (let i = 10; i < 20; i++) storedFile(deps, b.projectId, i);
    const account = { verifyPassword: async () => true, endSessions: async () => undefined, removeUser: async () => undefined };
    await expect(deleteAccount({ ...dyingAfter(deps, 10), account }, alice, { password: "x" }, ample(deps))).rejects.toThrow("killed");
    // The workspace's marker and one for each of its projects.
    expect(deps.pendingDeletes.items.size).toBe(3);

    deps.clock.advance(STALE_DELETE_MS + 1);
    expect(await resumeStaleDeletes(deps, ample(deps))).toMatchObject({ found: 3, finished: 3 });
    expect(deps.objects.count()).toBe(0);
    expect(deps.projects.items.size).toBe(0);
    expect(deps.workspaces.removed).toEqual([personalWorkspaceId(alice)]);
    expect(deps.pendingDeletes.items.size).toBe(0);
  });
});
