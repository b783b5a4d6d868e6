import type { ProjectPurgeTask, ProjectView, WorkspaceCatalog, WorkspacePurgeTask } from "../ports";
import type { Budget, DashboardDeps } from "./dashboard-deps";

type PurgeDeps = Pick<DashboardDeps, "projects" | "keys" | "files" | "usage" | "objects" | "pendingDeletes" | "clock" | "appPages">;

/** What a workspace's purge needs of the workspace catalog. */
export type WorkspacePurgeCatalog = Pick<WorkspaceCatalog, "get" | "markDeleting" | "remove">;
/** A workspace's purge: a project purge's ports and the workspace catalog. */
export type WorkspacePurgeDeps = PurgeDeps & { workspaces: WorkspacePurgeCatalog };

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
export async function purgeProject(deps: PurgeDeps, task: ProjectPurgeTask, budget: Budget): Promise<"done" | "more"> {
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
  // Its app page's address and its update tokens, while the project item still names the slug.
  await deps.appPages?.forgetProject(task.workspaceId, task.projectId);
  await deps.projects.remove(task.workspaceId, task.projectId, project.name);
  await deps.pendingDeletes.finished(task);
  return "done";
}

/**
 * Starts deleting a workspace and purges it within `budget`; what does not fit goes to the
 * background (`{kind: "workspace"}`), as a project delete's rest does. The marker is written
 * first, then the workspace is marked deleting: from that request on no member has access (404
 * like an unknown id) and no project can be created in it. Used by the workspace delete and by
 * account deletion for each workspace the account alone owns.
 */
export async function deleteWholeWorkspace(
  deps: WorkspacePurgeDeps & Pick<DashboardDeps, "background">,
  workspaceId: string,
  budget: Budget,
): Promise<"deleted" | "deleting"> {
  const task: WorkspacePurgeTask = { kind: "workspace", workspaceId };
  await deps.pendingDeletes.started(task, deps.clock.now().toISOString());
  await deps.workspaces.markDeleting(workspaceId);
  if ((await purgeWorkspace(deps, task, budget)) === "done") return "deleted";
  await deps.background.schedule(task);
  return "deleting";
}

/**
 * Removes everything of a workspace being deleted, in an order that can stop anywhere and be run
 * again: every project is stopped first (keys revoked, so nothing works any more however long
 * the rest takes), then purged one by one (purgeProject, with its own marker), then the
 * workspace's own items: members, invitations and their tokens, its audit log and the workspace
 * item last (WorkspaceCatalog.remove); then the marker. Returns "more" when the budget ran out first.
 */
export async function purgeWorkspace(deps: WorkspacePurgeDeps, task: WorkspacePurgeTask, budget: Budget): Promise<"done" | "more"> {
  const workspace = await deps.workspaces.get(task.workspaceId);
  // Gone already, or not being deleted (never purge a workspace nobody asked to delete).
  if (!workspace || !workspace.deleting) {
    await deps.pendingDeletes.finished(task);
    return "done";
  }
  await deps.pendingDeletes.progressed(task, deps.clock.now().toISOString());
  // Listed again after each round: a project created by a request that passed its access check
  // just before the workspace was marked is purged too (later ones are refused by the catalog).
  for (;;) {
    const projects = await deps.projects.list(task.workspaceId);
    if (projects.length === 0) break;
    for (const project of projects) await stopProject(deps, project);
    for (const project of projects) {
      if ((await purgeProject(deps, { kind: "project", workspaceId: project.workspaceId, projectId: project.projectId }, budget)) === "more") return "more";
    }
  }
  if (budget.shouldStop()) return "more";
  await deps.workspaces.remove(task.workspaceId);
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
 * The housekeeping sweep: every project or workspace delete whose progress is older than `staleAfterMs`
 * (default STALE_DELETE_MS) is purged again, within `budget`, from where it stopped (every
 * step is idempotent). Until it is gone its marker stays, so a sweep cut short is resumed by the next one.
 */
export async function resumeStaleDeletes(deps: WorkspacePurgeDeps, budget: Budget, staleAfterMs = STALE_DELETE_MS): Promise<SweepOutcome> {
  const before = new Date(deps.clock.now().getTime() - staleAfterMs).toISOString();
  const stale = await deps.pendingDeletes.stale(before, SWEEP_PAGE);
  const outcome: SweepOutcome = { found: stale.length, finished: 0, unfinished: 0 };
  for (const pending of stale) {
    if (budget.shouldStop()) {
      outcome.unfinished++;
      continue;
    }
    const step =
      pending.kind === "workspace"
        ? purgeWorkspace(deps, { kind: "workspace", workspaceId: pending.workspaceId }, budget)
        : purgeProject(deps, { kind: "project", workspaceId: pending.workspaceId, projectId: pending.projectId }, budget);
    if ((await step) === "done") outcome.finished++;
    else outcome.unfinished++;
  }
  return outcome;
}
