import { DynamoFileCatalog } from "../adapters/dynamo/file-catalog.dynamo";
import { DynamoProjectCatalog } from "../adapters/dynamo/project-catalog.dynamo";
import { sumStorage } from "../releases/project-storage";
import { isMigrated, markMigrated, scanPages, type MigrationMarker } from "./migration-marker";
import type { DocumentClient } from "../adapters/dynamo/document-client";

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

export const STORAGE_MIGRATION: MigrationMarker = { pk: "MIGRATION#storage", sk: "MIGRATION" } as const;

export async function migrateStorageCounts(
  db: DocumentClient,
  tableName: string,
  options: { now?: () => Date; force?: boolean } = {},
): Promise<StorageMigrationReport> {
  const now = options.now ?? (() => new Date());
  const report: StorageMigrationReport = { skipped: false, projectsCounted: 0, projectsLeft: 0 };
  if (!options.force && (await isMigrated(db, tableName, STORAGE_MIGRATION))) return { ...report, skipped: true };

  const projects = new DynamoProjectCatalog(db, tableName);
  const files = new DynamoFileCatalog(db, tableName, now);
  for await (const items of scanPages(
    db,
    {
      TableName: tableName,
      // Only projects never counted; the rest are read (a Scan reads all) but not returned.
      FilterExpression: "#type = :project AND attribute_not_exists(storageCounted)",
      ProjectionExpression: "workspaceId, projectId, #status",
      ExpressionAttributeNames: { "#type": "type", "#status": "status" },
      ExpressionAttributeValues: { ":project": "project" },
    },
    "storage migration",
  )) {
    for (const item of items) {
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
  }

  await markMigrated(db, tableName, STORAGE_MIGRATION, now());
  return report;
}
