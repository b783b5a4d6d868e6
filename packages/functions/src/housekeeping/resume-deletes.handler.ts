import type { Context, ScheduledEvent } from "aws-lambda";
import { budgetOf, resumeStaleDeletes } from "@hangar/core";
import { workspaceDeleteDeps } from "../composition/dashboard";
import { getRuntime } from "../composition/root";
import { logger } from "../observability/logger";
import { flushMetrics } from "../observability/metrics";

/** Kept back from the function's timeout so a sweep stops between steps, never mid-batch. */
const MARGIN_MS = 10_000;
/** Without a Lambda context (the local stack's in-process timer): one minute per sweep. */
const LOCAL_BUDGET_MS = 60_000;

/**
 * Every 15 minutes (an EventBridge schedule on AWS; a timer in the local stack): project and workspace deletes
 * whose progress stopped longer than STALE_DELETE_MS ago are purged again from where they stopped.
 * A background run that failed for good (its retries exhausted, the event in the on-failure
 * queue) thus still ends with the project gone. Same code, permissions and settings as the
 * projects function's own purge; what a sweep does not finish, the next sweep continues.
 */
export async function handler(_event: ScheduledEvent | Record<string, never>, context?: Pick<Context, "getRemainingTimeInMillis">): Promise<void> {
  const budgetMs = context ? Math.max(1000, context.getRemainingTimeInMillis() - MARGIN_MS) : LOCAL_BUDGET_MS;
  try {
    const outcome = await resumeStaleDeletes(workspaceDeleteDeps(), budgetOf(getRuntime().clock, budgetMs));
    // A stale delete means a background run was lost: worth a warning (and the on-failure queue's alarm).
    if (outcome.found > 0) logger.warn("resumed stale deletes", { ...outcome });
  } finally {
    flushMetrics();
  }
}
