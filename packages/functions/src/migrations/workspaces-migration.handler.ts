import { DynamoJsonClient } from "@hangar/core/dynamo";
import { migrateStorageCounts, migrateToWorkspaces, type MigrationReport, type StorageMigrationReport } from "@hangar/core/migrations";
import { loadSettings } from "../composition/settings.schema";
import { logger } from "../observability/logger";

/**
 * The deploy's data migration onto workspaces (issue 19; docs/teams.md "Migration"), run by the
 * API stack's SST Script when it is created (the first deploy with teams) and when its version
 * changes. Idempotent: a run after a failed one continues where that stopped, and a stage that
 * migrated already stops at the marker after one read. The local stack runs the same function
 * of core before it serves (packages/local/src/local-stack.ts).
 *
 * Then, on the workspaces' layout, every project's storage counted once (issue 24's counter;
 * docs/release-safety.md "Storage"), so no project answers `storageBytes: null` after the deploy.
 *
 * Only the table: its own DynamoDB client, without the runtime every HTTP function builds (rate
 * limiter, signer, metrics).
 */
export async function handler(): Promise<MigrationReport & { storage: StorageMigrationReport }> {
  const settings = loadSettings();
  const db = new DynamoJsonClient({ region: settings.AWS_REGION, endpoint: settings.HANGAR_DYNAMODB_ENDPOINT });
  const tableName = settings.HANGAR_TABLE_NAME;
  try {
    const report = await migrateToWorkspaces(db, tableName);
    logger.info("workspaces migration", { ...report });
    const storage = await migrateStorageCounts(db, tableName);
    logger.info("storage migration", { ...storage });
    return { ...report, storage };
  } finally {
    db.destroy();
  }
}
