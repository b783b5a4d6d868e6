import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { transact, type TransactItem } from "../adapters/dynamo/counted-limits.dynamo";
import { newWorkspaceItems } from "../adapters/dynamo/workspace-catalog.dynamo";
import { dynamoFailure, isConditionFailure, queryAll } from "../adapters/dynamo/dynamo-errors";
import { keys } from "../adapters/dynamo/table-keys";
import { personalWorkspaceName } from "../workspaces/personal";
import { personalWorkspaceId } from "../workspaces/workspace-ids";
import { isMigrated, markMigrated, scanPages, type MigrationMarker } from "./migration-marker";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/**
 * Moves a table written before workspaces (issue 19) onto them (docs/teams.md "Migration"):
 *
 * - every user gets its personal workspace (`personalWorkspaceId(userId)`, owner member,
 *   `workspaceCount` 1) if it has none;
 * - its `PROJECT#` items move from `USER#<userId>` to `WORKSPACE#<personal>` with `workspaceId`
 *   (each project with its `PROJECTNAME#` item and the workspace's `projectCount` in one
 *   transaction: put new, delete old), and the user's `projectCount` goes;
 * - API keys and pending project deletes get `workspaceId` (their user's personal workspace: before
 *   workspaces every project was its user's).
 *
 * Idempotent: each step's condition is "not done yet" (the workspace absent, the old project item
 * still there, no `workspaceId`), so running it again, or after a crash half way, does only what is
 * left. A marker item (`MIGRATION#workspaces`) written at the end lets later runs (every `npm start`,
 * every deploy) return after one GetItem; `force` runs the whole pass anyway.
 *
 * A full Scan, once per table: the rejected alternative, migrating each user lazily at sign-in,
 * would leave API keys of users who never sign in again pointing nowhere the new code looks.
 */
export interface MigrationReport {
  /** Already migrated (the marker was there): nothing was read beyond it. */
  skipped: boolean;
  workspacesCreated: number;
  projectsMoved: number;
  keysUpdated: number;
  pendingDeletesUpdated: number;
}

export const WORKSPACES_MIGRATION: MigrationMarker = { pk: "MIGRATION#workspaces", sk: "MIGRATION" } as const;

export async function migrateToWorkspaces(
  db: DocumentClient,
  tableName: string,
  options: { now?: () => Date; force?: boolean } = {},
): Promise<MigrationReport> {
  const now = options.now ?? (() => new Date());
  const report: MigrationReport = { skipped: false, workspacesCreated: 0, projectsMoved: 0, keysUpdated: 0, pendingDeletesUpdated: 0 };
  if (!options.force && (await isMigrated(db, tableName, WORKSPACES_MIGRATION))) return { ...report, skipped: true };

  for await (const items of scanPages(
    db,
    {
      TableName: tableName,
      // Only the items this migration changes; the rest are read (a Scan reads all) but not returned.
      FilterExpression: "#type = :user OR ((#type = :apiKey OR #type = :pending) AND attribute_not_exists(workspaceId))",
      ExpressionAttributeNames: { "#type": "type" },
      ExpressionAttributeValues: { ":user": "user", ":apiKey": "apiKey", ":pending": "pendingDelete" },
    },
    "migration",
  )) {
    for (const item of items) {
      if (item.type === "user") {
        if (await ensurePersonalWorkspace(db, tableName, item, now)) report.workspacesCreated++;
        report.projectsMoved += await moveProjects(db, tableName, item.userId);
      } else if (typeof item.userId === "string") {
        // A key, or a project delete under way: both were their user's, now the personal workspace's.
        if (await setWorkspaceId(db, tableName, item, personalWorkspaceId(item.userId))) {
          if (item.type === "apiKey") report.keysUpdated++;
          else report.pendingDeletesUpdated++;
        }
      }
    }
  }

  await markMigrated(db, tableName, WORKSPACES_MIGRATION, now());
  return report;
}

/** The personal workspace with its owner, counted on the user; false when it was there already. */
async function ensurePersonalWorkspace(db: DocumentClient, tableName: string, user: Record<string, any>, now: () => Date): Promise<boolean> {
  const workspaceId = personalWorkspaceId(user.userId);
  const failed = await transact(db, "migrate: personal workspace", [
    ...newWorkspaceItems(tableName, {
      workspaceId,
      name: personalWorkspaceName({ email: user.email, ...(typeof user.displayName === "string" ? { displayName: user.displayName } : {}) }),
      personal: true,
      createdAt: typeof user.createdAt === "string" ? user.createdAt : now().toISOString(),
      createdBy: user.userId,
    }),
    {
      Update: {
        TableName: tableName,
        Key: keys.user(user.userId),
        UpdateExpression: "ADD workspaceCount :one",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":one": 1 },
      },
    },
  ]);
  // The workspace (or its owner) exists: made by sign-up, or by an earlier run. A user gone
  // meanwhile (the third condition) has nothing to migrate either.
  return failed === undefined;
}

/** Moves the user's projects (and their name items) into the personal workspace; how many moved. */
async function moveProjects(db: DocumentClient, tableName: string, userId: string): Promise<number> {
  const workspaceId = personalWorkspaceId(userId);
  const items = await queryAll(
    db,
    { TableName: tableName, KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)", ExpressionAttributeValues: { ":pk": keys.user(userId).pk, ":prefix": "PROJECT" }, ConsistentRead: true },
    "projects to migrate",
  );
  const projects = items.filter((item) => item.type !== "projectName");
  const names = items.filter((item) => item.type === "projectName");

  let moved = 0;
  for (const project of projects.filter((p) => p.type === "project")) {
    const name = names.find((n) => n.projectId === project.projectId);
    const items: TransactItem[] = [
      {
        Put: {
          TableName: tableName,
          // The workspace's partition, same sort key (table-keys' `project` once projects moved).
          Item: { ...project, pk: keys.workspace(workspaceId).pk, workspaceId },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
      { Delete: { TableName: tableName, Key: { pk: project.pk, sk: project.sk }, ConditionExpression: "attribute_exists(pk)" } },
      {
        Update: {
          TableName: tableName,
          Key: keys.workspace(workspaceId),
          UpdateExpression: "ADD projectCount :one",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":one": 1 },
        },
      },
    ];
    const nameItems: TransactItem[] = name
      ? [
          { Put: { TableName: tableName, Item: { ...name, pk: keys.workspace(workspaceId).pk }, ConditionExpression: "attribute_not_exists(pk)" } },
          { Delete: { TableName: tableName, Key: { pk: name.pk, sk: name.sk } } },
        ]
      : [];
    let failed = await transact(db, "migrate: move project", [...items, ...nameItems]);
    if (failed && name && failed[3] && !failed.slice(0, 3).some(Boolean)) {
      // The name is taken in the workspace already (a project made there meanwhile under the same
      // name): the project moves without its name item, which is dropped.
      failed = await transact(db, "migrate: move project", [...items, { Delete: { TableName: tableName, Key: { pk: name.pk, sk: name.sk } } }]);
    }
    if (!failed) moved++;
    // Otherwise moved by a concurrent run (the old item is gone): nothing left to do here.
  }
  // Names whose project is gone or moved without them: moved alone (never overwriting one).
  for (const name of names.filter((n) => !projects.some((p) => p.projectId === n.projectId))) {
    await transact(db, "migrate: move project name", [
      { Put: { TableName: tableName, Item: { ...name, pk: keys.workspace(workspaceId).pk }, ConditionExpression: "attribute_not_exists(pk)" } },
      { Delete: { TableName: tableName, Key: { pk: name.pk, sk: name.sk } } },
    ]);
  }
  // The project limit's counter lives on the workspace now.
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.user(userId),
        UpdateExpression: "REMOVE projectCount",
        ConditionExpression: "attribute_exists(pk)",
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw dynamoFailure("UpdateItem(migrate: user projectCount)", error);
  }
  return moved;
}

/** SET workspaceId on an item without one; false when it had one (or went) meanwhile. */
async function setWorkspaceId(db: DocumentClient, tableName: string, item: Record<string, any>, workspaceId: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: "SET workspaceId = :ws",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(workspaceId)",
        ExpressionAttributeValues: { ":ws": workspaceId },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw dynamoFailure("UpdateItem(migrate: workspaceId)", error);
  }
}
