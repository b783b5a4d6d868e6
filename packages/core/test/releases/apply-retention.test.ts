import { describe, expect, it } from "vitest";
import { applyRetention, runRetention } from "../../src";
import type { WebhookEvent } from "../../src/webhooks/webhook-events";
import { memoryDashboard, storedFile } from "../dashboard/memory-dashboard";

/*
 * The daily retention run against the dashboard's in-memory ports (docs/release-safety.md
 * "Retention"): what it removes goes the delete path's way, a build pinned meanwhile stays, and one
 * project's failure does not stop the others. test/retention.test.ts runs it on the local stack.
 */

const DAY = 86_400_000;
const owner = "usr_owner0000000000000";

async function project(deps: ReturnType<typeof memoryDashboard>, name: string, retention: { keepLatest?: number; maxAgeDays?: number }) {
  const projectId = `prj_${name}`;
  const workspaceId = "ws_team000000000000";
  await deps.projects.create({ projectId, workspaceId, userId: owner, name, description: "", color: "blue", createdAt: "2026-01-01T00:00:00.000Z" });
  const view = (await deps.projects.get(workspaceId, projectId))!;
  await deps.projects.update(view, { retention });
  return { projectId, workspaceId };
}

function withEvents(deps: ReturnType<typeof memoryDashboard>) {
  const events: WebhookEvent[] = [];
  return { deps: { ...deps, events: { publish: async (e: WebhookEvent) => void events.push(e) } }, events };
}

describe("the daily retention run", () => {
  it("removes what the rule names through the delete path: objects, records, counts, an audit entry by system, build.deleted with reason retention", async () => {
    const base = memoryDashboard();
    const { deps, events } = withEvents(base);
    const { projectId, workspaceId } = await project(base, "app", { keepLatest: 2 });
    const files = [0, 1, 2, 3].map((n) => storedFile(base, projectId, n));
    for (const f of files) await base.projects.recordUpload(workspaceId, projectId, f.completedAt!, f.fileSize);

    const outcome = await runRetention(deps, new Date(Date.UTC(2026, 0, 2)));
    expect(outcome).toEqual({ projects: 1, removed: 2, bytes: files[0]!.fileSize + files[1]!.fileSize, failed: 0 });
    expect([...base.files.records.keys()].sort()).toEqual([files[2]!.fileId, files[3]!.fileId]);
    expect(base.objects.count(`uploads/${projectId}/${files[0]!.fileId}/`)).toBe(0);
    const stored = (await base.projects.get(workspaceId, projectId))!;
    expect(stored).toMatchObject({ fileCount: 2, storageBytes: files[2]!.fileSize + files[3]!.fileSize });
    expect(base.audit.entries.filter((e) => e.action === "build.deleted")).toEqual([
      expect.objectContaining({ actor: { userId: "system" }, target: expect.objectContaining({ id: files[0]!.fileId }), details: expect.objectContaining({ reason: "retention", retention: "over_keep_latest" }) }),
      expect.objectContaining({ actor: { userId: "system" }, target: expect.objectContaining({ id: files[1]!.fileId }) }),
    ]);
    expect(events.map((e) => [e.type, (e.data as { reason: string }).reason, (e.data as { actor: unknown }).actor])).toEqual([
      ["build.deleted", "retention", { kind: "system" }],
      ["build.deleted", "retention", { kind: "system" }],
    ]);
    // Nothing more the same day.
    expect((await runRetention(deps, new Date(Date.UTC(2026, 0, 2)))).removed).toBe(0);
  });

  it("keeps a build pinned after the list was read", async () => {
    const base = memoryDashboard();
    const { projectId, workspaceId } = await project(base, "app", { maxAgeDays: 30 });
    const files = [0, 1, 2].map((n) => storedFile(base, projectId, n));
    const now = new Date(Date.UTC(2026, 0, 1) + 40 * DAY);
    base.clock.at = now;
    const listed = files.slice(0, 2).map((f) => f.fileId);
    // The run reads each build again just before removing it: pin the oldest at that moment.
    const get = base.files.get.bind(base.files);
    base.files.get = async (fileId: string) => {
      if (fileId === files[0]!.fileId) await base.files.setPinned(fileId, true);
      return get(fileId);
    };
    const view = (await base.projects.get(workspaceId, projectId))!;
    const removed = await applyRetention(base, view, now);
    expect(removed.map((v) => v.build.fileId)).toEqual([listed[1]]);
    expect([...base.files.records.keys()].sort()).toEqual([files[0]!.fileId, files[2]!.fileId]);
  });

  it("goes on with the other projects when one fails, and counts the failure", async () => {
    const base = memoryDashboard();
    const bad = await project(base, "bad", { keepLatest: 1 });
    const good = await project(base, "good", { keepLatest: 1 });
    for (const n of [0, 1]) storedFile(base, bad.projectId, n);
    const goodFiles = [2, 3].map((n) => storedFile(base, good.projectId, n));
    const page = base.files.page.bind(base.files);
    base.files.page = async (projectId: string, limit: number, after?: string) => {
      if (projectId === bad.projectId) throw new Error("storage unavailable");
      return page(projectId, limit, after);
    };
    const failures: string[] = [];
    const outcome = await runRetention(base, new Date(Date.UTC(2026, 0, 2)), (projectId) => failures.push(projectId));
    expect(outcome).toMatchObject({ projects: 1, removed: 1, failed: 1 });
    expect(failures).toEqual([bad.projectId]);
    expect(base.files.records.has(goodFiles[0]!.fileId)).toBe(false);
  });
});
