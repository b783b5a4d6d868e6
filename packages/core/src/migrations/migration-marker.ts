import { GetCommand, PutCommand, ScanCommand, type ScanCommandInput, type ScanCommandOutput } from "@aws-sdk/lib-dynamodb";
import { dynamoFailure } from "../adapters/dynamo/dynamo-errors";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/**
 * What every data migration shares (workspaces.migration.ts, storage.migration.ts): a marker item
 * written once the whole pass is done, so later runs (every `npm start`, every deploy) stop after
 * one consistent GetItem; and the pass itself, a consistent Scan read page by page.
 */
export type MigrationMarker = { readonly pk: `MIGRATION#${string}`; readonly sk: "MIGRATION" };

/** Whether the migration behind `marker` has run to its end on this table. */
export async function isMigrated(db: DocumentClient, tableName: string, marker: MigrationMarker): Promise<boolean> {
  try {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: marker, ConsistentRead: true }));
    return Item !== undefined;
  } catch (error) {
    throw dynamoFailure("GetItem(migration marker)", error);
  }
}

/** Written last: a pass cut short (a timeout, a crash) leaves no marker and runs again whole. */
export async function markMigrated(db: DocumentClient, tableName: string, marker: MigrationMarker, at: Date): Promise<void> {
  try {
    await db.send(new PutCommand({ TableName: tableName, Item: { ...marker, type: "migration", doneAt: at.toISOString() } }));
  } catch (error) {
    throw dynamoFailure("PutItem(migration marker)", error);
  }
}

/** The items a consistent Scan returns, one page at a time (`label` names a failure). */
export async function* scanPages(db: DocumentClient, input: Omit<ScanCommandInput, "ConsistentRead" | "ExclusiveStartKey">, label: string): AsyncGenerator<NonNullable<ScanCommandOutput["Items"]>, void> {
  let start: Record<string, unknown> | undefined;
  do {
    let page;
    try {
      page = await db.send(new ScanCommand({ ...input, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    } catch (error) {
      throw dynamoFailure(`Scan(${label})`, error);
    }
    yield page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}
