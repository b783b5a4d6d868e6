import type { PurgeTask, ProjectView } from "../ports";
import type { Budget, DashboardDeps } from "./dashboard-deps";

type PurgeDeps = Pick<DashboardDeps, "projects" | "keys" | "files" | "usage" | "objects" | "pendingDeletes" | "clock">;

/**
 * How long a delete may go without progress before the housekeeping sweep takes it up again. A
 * background step starts with a fresh `progressAt` and runs at most 10 minutes (the projects
 * function's background budget), and Lambda's async queue adds seconds to minutes; 15 minutes
 * without a new step means the step and its retries failed (they end in the on-failure queue).
 */
export const STALE_DELETE_MS = 15 * 60_000;

/** Files removed per step: one gsi1 page, then batched deletes of records and share items. */
const FILE_PAGE = 100;

/**
 * Marks the project deleting and revokes its keys, so nothing new arrives while it is purged.
 * The pending-delete marker is written first: no project is ever "deleting" without one.
 */
export async function stopProject(deps: PurgeDeps, project: ProjectView): Promise<void> {
  const at = deps.clock.now().toISOString();
  await deps.pendingDeletes.started({ kind: "project", workspaceId: project.workspaceId, projectId: project.projectId }, at);
  if (project.status === "active") await deps.projects.markDeleting(project.workspaceId, project.projectId);
  const keys = await deps.keys.listByProject(project.projectId);
  await Promise.all(keys.filter((k) => k.status === "active").map((k) => deps.keys.revoke(project.workspaceId, k, at)));
}

/**
 * Removes everything of a project, in an order that can stop anywhere and be run again: file
 * records and share items page by page, then every object version under `uploads/<projectId>/`
 * (which also catches objects whose pending record expired), then keys and their usage, and
 * last the project and its name item. Returns "more" when the budget ran out first.
 */
export async function purgeProject(deps: PurgeDeps, task: PurgeTask, budget: Budget): Promise<"done" | "more"> {
  const project = await deps.projects.get(task.workspaceId, task.projectId);
  // Gone already, or active (never purge a project nobody asked to delete): only a marker to drop.
  if (!project || project.status === "active") {
    await deps.pendingDeletes.finished(task);
    return "done";
  }
  await deps.pendingDeletes.progressed(task, deps.clock.now().toISOString());

  for (;;) {
    if (budget.shouldStop()) return "more";
    const page = await deps.files.page(task.projectId, FILE_PAGE);
    if (page.items.length === 0) break;
    await deps.files.removeMany(page.items);
  }
  for (;;) {
    if (budget.shouldStop()) return "more";
    const { more } = await deps.objects.purgePrefix(`uploads/${task.projectId}/`);
    if (!more) break;
  }
  const keys = await deps.keys.listByProject(task.projectId);
  for (const key of keys) {
    await deps.usage.removeAll(key.clientId);
    await deps.keys.remove(key.clientId);
  }
  await deps.projects.remove(task.workspaceId, task.projectId, project.name);
  await deps.pendingDeletes.finished(task);
  return "done";
}

export interface SweepOutcome {
  /** Stale deletes found (at most one page). */
  found: number;
  finished: number;
  /** Taken up but not finished within the budget: the next sweep continues them. */
  unfinished: number;
}

/** Stale deletes taken up per sweep; a sweep that finds more leaves the rest to the next one. */
const SWEEP_PAGE = 25;

/**
 * The housekeeping sweep: every project delete whose progress is older than `staleAfterMs`
 * (default STALE_DELETE_MS) is purged again, within `budget`, from where it stopped (every
 * step is idempotent). Until it is gone its marker stays, so a sweep cut short is resumed by the next one.
 */
export async function resumeStaleDeletes(deps: PurgeDeps, budget: Budget, staleAfterMs = STALE_DELETE_MS): Promise<SweepOutcome> {
  const before = new Date(deps.clock.now().getTime() - staleAfterMs).toISOString();
  const stale = await deps.pendingDeletes.stale(before, SWEEP_PAGE);
  const outcome: SweepOutcome = { found: stale.length, finished: 0, unfinished: 0 };
  for (const pending of stale) {
    if (budget.shouldStop()) {
      outcome.unfinished++;
      continue;
    }
    const task = { kind: "project", workspaceId: pending.workspaceId, projectId: pending.projectId } as const;
    if ((await purgeProject(deps, task, budget)) === "done") outcome.finished++;
    else outcome.unfinished++;
  }
  return outcome;
}
