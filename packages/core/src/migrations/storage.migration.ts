import { GetCommand, PutCommand, ScanCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { dynamoFailure } from "../adapters/dynamo/dynamo-errors";
import { DynamoFileCatalog } from "../adapters/dynamo/file-catalog.dynamo";
import { DynamoProjectCatalog } from "../adapters/dynamo/project-catalog.dynamo";
import { sumStorage } from "../releases/project-storage";

/**
 * Counts the storage of every project stored before the counter existed (docs/release-safety.md
 * "Storage"), so no project answers `storageBytes: null` after the deploy that brings it.
 *
 * Each project without `storageCounted` is counted the way its first read would count it: the
 * catalog's `countStorage` sums its completed builds and writes the sum only while the counter is
 * in the state it read (an upload completing meanwhile makes the write fail and the count is taken
 * again). A project whose three tries all lose such a race, or that is being deleted, stays
 * uncounted: its first read counts it, as before. Projects created since the counter exists start
 * counted and are not read.
 *
 * Idempotent like the workspaces migration: a counted project is skipped by the Scan's filter, and
 * a marker item (`MIGRATION#storage`) written at the end lets later runs (every `npm start`, every
 * deploy) return after one GetItem; `force` runs the whole pass anyway. Run after the workspaces
 * migration: it reads projects by their workspace.
 *
 * A full Scan, once per table: the rejected alternative, the daily housekeeping counting a few
 * projects a day, would leave projects answering null for days after the deploy.
 */
export interface StorageMigrationReport {
  /** Already migrated (the marker was there): nothing was read beyond it. */
  skipped: boolean;
  /** Projects counted by this run. */
  projectsCounted: number;
  /** Projects left to their first read (being deleted, or their count lost three races with uploads). */
  projectsLeft: number;
}

export const STORAGE_MIGRATION = { pk: "MIGRATION#storage", sk: "MIGRATION" } as const;

export async function migrateStorageCounts(
  db: DynamoDBDocumentClient,
  tableName: string,
  options: { now?: () => Date; force?: boolean } = {},
): Promise<StorageMigrationReport> {
  const now = options.now ?? (() => new Date());
  const report: StorageMigrationReport = { skipped: false, projectsCounted: 0, projectsLeft: 0 };
  if (!options.force) {
    try {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: STORAGE_MIGRATION, ConsistentRead: true }));
      if (Item) return { ...report, skipped: true };
    } catch (error) {
      throw dynamoFailure("GetItem(migration marker)", error);
    }
  }

  const projects = new DynamoProjectCatalog(db, tableName);
  const files = new DynamoFileCatalog(db, tableName, now);
  let start: Record<string, unknown> | undefined;
  do {
    let page;
    try {
      page = await db.send(
        new ScanCommand({
          TableName: tableName,
          // Only projects never counted; the rest are read (a Scan reads all) but not returned.
          FilterExpression: "#type = :project AND attribute_not_exists(storageCounted)",
          ProjectionExpression: "workspaceId, projectId, #status",
          ExpressionAttributeNames: { "#type": "type", "#status": "status" },
          ExpressionAttributeValues: { ":project": "project" },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
    } catch (error) {
      throw dynamoFailure("Scan(storage migration)", error);
    }
    for (const item of page.Items ?? []) {
      const { workspaceId, projectId } = item as { workspaceId?: unknown; projectId?: unknown };
      // A project not yet moved onto a workspace (the workspaces migration runs first) or being deleted.
      if (typeof workspaceId !== "string" || typeof projectId !== "string" || item.status === "deleting") {
        report.projectsLeft++;
        continue;
      }
      const bytes = await projects.countStorage(workspaceId, projectId, () => sumStorage(files, projectId));
      if (bytes === undefined) report.projectsLeft++;
      else report.projectsCounted++;
    }
    start = page.LastEvaluatedKey;
  } while (start);

  try {
    await db.send(new PutCommand({ TableName: tableName, Item: { ...STORAGE_MIGRATION, type: "migration", doneAt: now().toISOString() } }));
  } catch (error) {
    throw dynamoFailure("PutItem(migration marker)", error);
  }
  return report;
}
