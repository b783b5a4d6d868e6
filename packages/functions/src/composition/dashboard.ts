import { budgetOf, purgeProject, type Budget, type DashboardDeps, type ObjectPurger, type PurgeTask } from "@hangar/core";
import { getDashboardBase } from "./dashboard-base";
import { logger } from "../observability/logger";
import { backgroundTasks, PURGE_KEY } from "./background";
import { getRuntime } from "./root";
import type { Settings } from "./settings.schema";

let deps: DashboardDeps | undefined;

/**
 * The S3 client is only for deletes (presigned GETs need none), so it and the purger are loaded
 * on the first delete: listing builds, keys and usage never evaluates the S3 SDK at cold start.
 */
function lazyPurger(settings: Settings): ObjectPurger {
  let purger: Promise<ObjectPurger> | undefined;
  const build = async (): Promise<ObjectPurger> => (await import("./object-purger")).s3ObjectPurger(settings);
  return {
    purgePrefix: async (prefix) => {
      purger ??= build().catch((error: unknown) => {
        purger = undefined;
        throw error;
      });
      return (await purger).purgePrefix(prefix);
    },
  };
}

/** The dashboard's adapters with deletes (projects, files functions), built once per container on top of the shared root's clients. */
export function getDashboard(): DashboardDeps {
  if (deps) return deps;
  const runtime = getRuntime();
  const { settings } = runtime;
  deps = {
    ...getDashboardBase(),
    objects: lazyPurger(settings),
    background: backgroundTasks<PurgeTask>(
      settings.AWS_LAMBDA_FUNCTION_NAME,
      PURGE_KEY,
      (task) => continuePurge(task, budgetOf(runtime.clock, 10 * 60_000)),
      (task) => ({ projectId: task.projectId }),
    ),
  };
  return deps;
}

/** The budget of the part of a delete that runs inside the request. */
export const inlineBudget = (): Budget => budgetOf(getRuntime().clock, getRuntime().settings.HANGAR_DELETE_INLINE_MS);

/** Runs a purge for as long as `budget` allows, then schedules the rest again. */
export async function continuePurge(task: PurgeTask, budget: Budget): Promise<void> {
  const dashboard = getDashboard();
  const outcome = await purgeProject(dashboard, task, budget);
  logger.info("project purge step", { projectId: task.projectId, outcome });
  if (outcome === "more") await dashboard.background.schedule(task);
}
