import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { migrateToWorkspaces, type MigrationReport } from "@hangar/core/migrations";
import { logger } from "../observability/logger";

/**
 * The deploy's data migration onto workspaces (issue 19; docs/teams.md "Migration"), run by the
 * API stack's SST Script when it is created (the first deploy with teams) and when its version
 * changes. Idempotent: a run after a failed one continues where that stopped, and a stage that
 * migrated already stops at the marker after one read. The local stack runs the same function
 * of core before it serves (packages/local/src/local-stack.ts).
 *
 * Only the table: it reads the table name from the environment and needs none of the HTTP
 * functions' settings (no origin secret, no bucket).
 */
export async function handler(): Promise<MigrationReport> {
  const tableName = process.env.HANGAR_TABLE_NAME;
  if (!tableName) throw new Error("HANGAR_TABLE_NAME is not set");
  const client = new DynamoDBClient({ ...(process.env.HANGAR_DYNAMODB_ENDPOINT ? { endpoint: process.env.HANGAR_DYNAMODB_ENDPOINT } : {}) });
  try {
    const report = await migrateToWorkspaces(DynamoDBDocumentClient.from(client), tableName);
    logger.info("workspaces migration", { ...report });
    return report;
  } finally {
    client.destroy();
  }
}
