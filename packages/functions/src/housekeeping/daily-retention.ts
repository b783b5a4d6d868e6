import { runRetention } from "@hangar/core";
import { retentionDeps } from "../composition/retention";
import { logger } from "../observability/logger";

/**
 * Issue 24 item 5 (docs/release-safety.md "Retention"): applies every project's retention policy
 * at `now`, removing what the preview lists at that moment through the path of a person's delete.
 * A project that fails is logged and left for tomorrow; the others go on.
 */
export async function runDailyRetention(now: Date): Promise<Record<string, number>> {
  const outcome = await runRetention(retentionDeps(), now, (projectId, error) =>
    logger.error("retention failed for a project", { error: error as Error, projectId }),
  );
  return { ...outcome };
}
