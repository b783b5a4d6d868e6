import { S3Client } from "@aws-sdk/client-s3";
import { budgetOf, purgeProject, type Budget, type DashboardDeps, type PurgeTask } from "@hangar/core";
import { DynamoFileCatalog, DynamoUsage } from "@hangar/core/dynamo";
import { S3ObjectPurger } from "@hangar/core/s3";
import { logger } from "../observability/logger";
import { backgroundTasks } from "./background";
import { getRuntime } from "./root";

let deps: DashboardDeps | undefined;

/**
 * The dashboard functions' adapters (projects, keys, files), built once per container on top of
 * the shared root's clients. The S3 client is only for deletes; presigned GETs need none.
 */
export function getDashboard(): DashboardDeps {
  if (deps) return deps;
  const runtime = getRuntime();
  const { settings, db } = runtime;
  const table = settings.HANGAR_TABLE_NAME;
  const s3 = new S3Client({
    region: settings.AWS_REGION,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT, forcePathStyle: true } : {}),
  });
  deps = {
    projects: runtime.projects,
    keys: runtime.apiKeys,
    files: new DynamoFileCatalog(db, table, () => runtime.clock.now()),
    // Reading usage works whether or not counting is on.
    usage: runtime.usage ?? new DynamoUsage(db, table),
    objects: new S3ObjectPurger(s3, settings.HANGAR_BUCKET_NAME),
    signer: runtime.signer,
    background: backgroundTasks(settings.AWS_LAMBDA_FUNCTION_NAME, (task) => continuePurge(task, budgetOf(runtime.clock, 10 * 60_000))),
    clock: runtime.clock,
    ids: runtime.ids,
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
