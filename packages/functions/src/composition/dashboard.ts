import {
  budgetOf,
  purgeProject,
  purgeWorkspace,
  type AccountCloser,
  type AccountWorkspaces,
  type Budget,
  type DashboardDeps,
  type DeleteWorkspaceDeps,
  type PurgeTask,
} from "@hangar/core";
import { logger } from "../observability/logger";
import { accountCloser } from "./account-closer";
import { backgroundTasks, PURGE_KEY } from "./background";
import { dashboardBaseDeps } from "./dashboard-base";
import { lazyPurger } from "./lazy-purger";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * The dashboard's ports with the deletes of whole projects (projects function, the housekeeping
 * sweep): the purge continues in the background when the request's budget runs out.
 */
export const dashboardDeps = once((): DashboardDeps => {
  const { settings, clock } = getRuntime();
  return {
    ...dashboardBaseDeps(),
    objects: lazyPurger(),
    background: backgroundTasks<PurgeTask>(
      settings.AWS_LAMBDA_FUNCTION_NAME,
      PURGE_KEY,
      (task) => continuePurge(task, budgetOf(clock, 10 * 60_000)),
      (task): Record<string, string> => (task.kind === "project" ? { projectId: task.projectId } : { workspaceId: task.workspaceId }),
    ),
  };
});

/**
 * The ports of deleting a whole workspace (its route, account deletion, the resume sweep): the
 * dashboard's with the full workspace catalog (marking it deleting, removing its own items).
 */
export const workspaceDeleteDeps = (): DeleteWorkspaceDeps => ({ ...dashboardDeps(), workspaces: workspaceCatalog() });

/**
 * Account deletion's ports: the dashboard's, the accounts side's password check and session
 * ends (account-closer.ts), and the account's workspaces (those it alone owns go, it leaves the others). A static import on purpose: esbuild bundles a dynamic import's target
 * anyway (SST builds one file per function), and wrapped for lazy evaluation it tree-shakes
 * worse: the projects bundle grew by 50 KB and its import got slower, not faster.
 */
export const deleteAccountDeps = (): DeleteWorkspaceDeps & { account: AccountCloser; memberships: AccountWorkspaces } => ({
  ...workspaceDeleteDeps(),
  account: accountCloser(),
  memberships: workspaceCatalog(),
});

/** The budget of the part of a delete that runs inside the request. */
export const inlineBudget = (): Budget => budgetOf(getRuntime().clock, getRuntime().settings.HANGAR_DELETE_INLINE_MS);

/** Runs a purge (a project's or a whole workspace's) for as long as `budget` allows, then schedules the rest again. */
export async function continuePurge(task: PurgeTask, budget: Budget): Promise<void> {
  const deps = workspaceDeleteDeps();
  if (task.kind === "workspace") {
    const outcome = await purgeWorkspace(deps, task, budget);
    logger.info("workspace purge step", { workspaceId: task.workspaceId, outcome });
    if (outcome === "more") await deps.background.schedule(task);
    return;
  }
  const outcome = await purgeProject(deps, task, budget);
  logger.info("project purge step", { projectId: task.projectId, outcome });
  if (outcome === "more") await deps.background.schedule(task);
}
