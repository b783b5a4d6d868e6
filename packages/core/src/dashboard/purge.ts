import type { PurgeTask, ProjectView } from "../ports";
import type { Budget, DashboardDeps } from "./dashboard-deps";

type PurgeDeps = Pick<DashboardDeps, "projects" | "keys" | "files" | "usage" | "objects" | "clock">;

/** Files removed per step: one gsi1 page, then batched deletes of records and share items. */
const FILE_PAGE = 100;

/** Marks the project deleting and revokes its keys, so nothing new arrives while it is purged. */
export async function stopProject(deps: PurgeDeps, project: ProjectView): Promise<void> {
  if (project.status === "active") await deps.projects.markDeleting(project.userId, project.projectId);
  const at = deps.clock.now().toISOString();
  const keys = await deps.keys.listByProject(project.projectId);
  await Promise.all(keys.filter((k) => k.status === "active").map((k) => deps.keys.revoke(project.userId, k, at)));
}

/**
 * Removes everything of a project, in an order that can stop anywhere and be run again: file
 * records and share items page by page, then every object version under `uploads/<projectId>/`
 * (which also catches objects whose pending record expired), then keys and their usage, and
 * last the project and its name item. Returns "more" when the budget ran out first.
 */
export async function purgeProject(deps: PurgeDeps, task: PurgeTask, budget: Budget): Promise<"done" | "more"> {
  const project = await deps.projects.get(task.userId, task.projectId);
  if (!project) return "done";
  if (project.status === "active") return "done"; // Never purge a project nobody asked to delete.

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
  await deps.projects.remove(task.userId, task.projectId, project.name);
  return "done";
}
