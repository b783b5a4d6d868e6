import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError, DependencyError, NotFoundError } from "../../errors/domain-errors";
import { MAX_ACTIVE_KEYS, MAX_PROJECTS } from "../../dashboard/limits";
import { dynamoFailure, queryAll } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * The project and key limits, exact under any concurrency. Counting the list before writing lets
 * parallel creates all pass the check (30 creates at 95 projects made 107). Instead a counter
 * lives on the owner's item — `projectCount` on the workspace, `activeKeys` on the project — and every
 * create is one transaction with a conditional `ADD 1` on it (`count < limit`), every removal or
 * revoke one with `ADD -1`: DynamoDB serializes the counter, so exactly the free places are taken.
 *
 * Items written before counting existed have no counter. A create that meets none initialises it
 * from a strongly consistent listing, in a transaction that also checks every listed item is still
 * there (still active, for keys): no create can slip between the listing and the counter because
 * every create needs the counter, and a removal in between cancels the initialisation, which is
 * then redone. A removal that meets no counter removes the item in a transaction that checks the
 * counter is still absent, so it can never be initialised from a listing that still held it.
 */

/** Rounds of (create, find why it was refused, count or retry); each needs another request to win. */
const ATTEMPTS = 8;
const limitReached = () => new ConflictError("limit_reached", "The limit is reached");
const retriesExhausted = (what: string) =>
  new DependencyError("dynamodb", `${what}: the limit counter kept changing; retry`);

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>[number];

/**
 * Runs a transaction: undefined when it committed, else which items failed their condition.
 * Transactions on one counter collide (DynamoDB cancels the loser with TransactionConflict rather
 * than queue it): those are retried here with a jittered wait, so only condition failures return.
 */
export async function transact(db: DocumentClient, what: string, items: TransactItem[]): Promise<boolean[] | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (error) {
      const reasons = cancellationCodes(error);
      if (!reasons) throw dynamoFailure(`TransactWriteItems(${what})`, error);
      if (reasons.includes("TransactionConflict") && attempt < CONFLICT_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(200, 10 * 2 ** Math.min(attempt, 5))));
        continue;
      }
      if (!reasons.includes("ConditionalCheckFailed")) throw dynamoFailure(`TransactWriteItems(${what})`, error);
      return reasons.map((code) => code === "ConditionalCheckFailed");
    }
  }
}

/** Up to 30 requests racing for one counter each win one round at least. */
const CONFLICT_RETRIES = 40;

function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== "TransactionCanceledException") return undefined;
  return ((error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? "None");
}

async function consistentGet(db: DocumentClient, tableName: string, key: Record<string, string>, what: string) {
  try {
    return (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
  } catch (error) {
    throw dynamoFailure(`GetItem(${what})`, error);
  }
}

// ---- projects: `projectCount` on WORKSPACE#<workspaceId> / WORKSPACE ----

/** Puts a project and its name item if the workspace has fewer than MAX_PROJECTS projects. */
export async function createCountedProject(
  db: DocumentClient,
  tableName: string,
  workspaceId: string,
  items: { project: Record<string, unknown>; name: Record<string, unknown> },
): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const failed = await transact(db, "create project", [
      { Put: { TableName: tableName, Item: items.project, ConditionExpression: "attribute_not_exists(pk)" } },
      { Put: { TableName: tableName, Item: items.name, ConditionExpression: "attribute_not_exists(pk)" } },
      {
        Update: {
          TableName: tableName,
          Key: keys.workspace(workspaceId),
          UpdateExpression: "ADD #count :one",
          // Never into a workspace whose delete has started (its purge may have listed its projects already).
          ConditionExpression: "#count < :max AND attribute_not_exists(deleting)",
          ExpressionAttributeNames: { "#count": "projectCount" },
          ExpressionAttributeValues: { ":one": 1, ":max": MAX_PROJECTS },
        },
      },
    ]);
    if (!failed) return;
    if (failed[0] || failed[1]) throw new ConflictError("already_exists", "This project exists already");
    const workspace = await consistentGet(db, tableName, keys.workspace(workspaceId), "workspace");
    if (!workspace || workspace.deleting === true) throw new NotFoundError("workspace_not_found", "No workspace with this id among yours");
    // Counted meanwhile by a concurrent create (it was absent when this transaction ran): retry.
    if (typeof workspace.projectCount === "number") {
      if (workspace.projectCount >= MAX_PROJECTS) throw limitReached();
      continue;
    }
    await initProjectCount(db, tableName, workspaceId);
  }
  throw retriesExhausted("create project");
}

async function initProjectCount(db: DocumentClient, tableName: string, workspaceId: string): Promise<void> {
  const projects = await queryAll(
    db,
    {
      TableName: tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":prefix": "PROJECT#" },
      ProjectionExpression: "pk, sk",
      ConsistentRead: true,
    },
    "projects to count",
  );
  // At the limit (or past it, from before counting) there is no place to give: the count waits
  // for removals, which also keeps the transaction within DynamoDB's 100 items.
  if (projects.length >= MAX_PROJECTS) throw limitReached();
  // Cancelled when a listed project went meanwhile or another request counted first: the caller retries.
  await transact(db, "count projects", [
    {
      Update: {
        TableName: tableName,
        Key: keys.workspace(workspaceId),
        UpdateExpression: "SET #count = :n",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(#count)",
        ExpressionAttributeNames: { "#count": "projectCount" },
        ExpressionAttributeValues: { ":n": projects.length },
      },
    },
    ...projects.map((Key) => ({ ConditionCheck: { TableName: tableName, Key, ConditionExpression: "attribute_exists(pk)" } })),
  ]);
}

/** Deletes a project item and takes it off its workspace's count (idempotent). */
export async function deleteCountedProject(db: DocumentClient, tableName: string, workspaceId: string, projectId: string): Promise<void> {
  const remove = { Delete: { TableName: tableName, Key: keys.project(workspaceId, projectId), ConditionExpression: "attribute_exists(pk)" } };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const counted = await transact(db, "delete project", [
      remove,
      {
        Update: {
          TableName: tableName,
          Key: keys.workspace(workspaceId),
          UpdateExpression: "ADD #count :minusOne",
          // Any count, even one a bug left at zero: a removal must never be stuck on its counter.
          ConditionExpression: "attribute_exists(#count)",
          ExpressionAttributeNames: { "#count": "projectCount" },
          ExpressionAttributeValues: { ":minusOne": -1 },
        },
      },
    ]);
    if (!counted || counted[0]) return;
    // No count (a workspace from before counting, or one being deleted): remove it uncounted,
    // as long as the count is still absent.
    const uncounted = await transact(db, "delete project", [
      remove,
      { ConditionCheck: { TableName: tableName, Key: keys.workspace(workspaceId), ConditionExpression: "attribute_not_exists(projectCount)" } },
    ]);
    if (!uncounted || uncounted[0]) return;
  }
  throw retriesExhausted("delete project");
}

// ---- keys: `activeKeys` on WORKSPACE#<workspaceId> / PROJECT#<projectId> ----

const PROJECT_ACTIVE = "(attribute_not_exists(#status) OR #status = :active)";

/** Puts an API key item if its project is active and has fewer than MAX_ACTIVE_KEYS active keys. */
export async function createCountedKey(
  db: DocumentClient,
  tableName: string,
  key: { workspaceId: string; projectId: string },
  item: Record<string, unknown>,
): Promise<void> {
  const project = keys.project(key.workspaceId, key.projectId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const failed = await transact(db, "create api key", [
      { Put: { TableName: tableName, Item: item, ConditionExpression: "attribute_not_exists(pk)" } },
      {
        Update: {
          TableName: tableName,
          Key: project,
          UpdateExpression: "ADD #count :one",
          ConditionExpression: `attribute_exists(pk) AND ${PROJECT_ACTIVE} AND #count < :max`,
          ExpressionAttributeNames: { "#count": "activeKeys", "#status": "status" },
          ExpressionAttributeValues: { ":one": 1, ":max": MAX_ACTIVE_KEYS, ":active": "active" },
        },
      },
    ]);
    if (!failed) return;
    if (failed[0]) throw new ConflictError("already_exists", "This client id exists already");
    const stored = await consistentGet(db, tableName, project, "project");
    if (!stored || (stored.status !== undefined && stored.status !== "active")) {
      throw new ConflictError("project_deleting", "This project is being deleted");
    }
    if (typeof stored.activeKeys === "number") {
      if (stored.activeKeys >= MAX_ACTIVE_KEYS) throw limitReached();
      continue;
    }
    await initActiveKeys(db, tableName, key.workspaceId, key.projectId);
  }
  throw retriesExhausted("create api key");
}

async function initActiveKeys(db: DocumentClient, tableName: string, workspaceId: string, projectId: string): Promise<void> {
  // gsi1 cannot be read strongly consistent; keys written before counting are long indexed,
  // and every key written since needs this counter, so none can be missing from the index.
  const keyItems = await queryAll(
    db,
    {
      TableName: tableName,
      IndexName: gsi1.name,
      KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
      ExpressionAttributeValues: { ":pk": gsi1.project(projectId), ":prefix": "APIKEY#" },
    },
    "keys to count",
  );
  const active = keyItems.filter((item) => item.status === "active").map((item) => item.clientId as string);
  if (active.length >= MAX_ACTIVE_KEYS) throw limitReached();
  await transact(db, "count keys", [
    {
      Update: {
        TableName: tableName,
        Key: keys.project(workspaceId, projectId),
        UpdateExpression: "SET #count = :n",
        ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(#count)",
        ExpressionAttributeNames: { "#count": "activeKeys" },
        ExpressionAttributeValues: { ":n": active.length },
      },
    },
    ...active.map((clientId) => ({
      ConditionCheck: {
        TableName: tableName,
        Key: keys.apiKey(clientId),
        ConditionExpression: "#status = :active",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":active": "active" },
      },
    })),
  ]);
}

/**
 * Revokes an active key of the project and takes it off the project's count (the project item in
 * `workspaceId`); false when it was not active. Who may revoke was decided by the policy before.
 */
export async function revokeCountedKey(
  db: DocumentClient,
  tableName: string,
  workspaceId: string,
  key: { clientId: string; projectId: string },
  at: string,
): Promise<boolean> {
  const revoke = {
    Update: {
      TableName: tableName,
      Key: keys.apiKey(key.clientId),
      UpdateExpression: "SET #status = :revoked, revokedAt = :at",
      ConditionExpression: "projectId = :projectId AND #status = :active",
      ExpressionAttributeNames: { "#status": "status" },
      ExpressionAttributeValues: { ":revoked": "revoked", ":active": "active", ":projectId": key.projectId, ":at": at },
    },
  };
  const project = keys.project(workspaceId, key.projectId);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const counted = await transact(db, "revoke key", [
      revoke,
      {
        Update: {
          TableName: tableName,
          Key: project,
          UpdateExpression: "ADD #count :minusOne",
          ConditionExpression: "attribute_exists(#count)",
          ExpressionAttributeNames: { "#count": "activeKeys" },
          ExpressionAttributeValues: { ":minusOne": -1 },
        },
      },
    ]);
    if (!counted) return true;
    if (counted[0]) return false;
    const uncounted = await transact(db, "revoke key", [
      revoke,
      { ConditionCheck: { TableName: tableName, Key: project, ConditionExpression: "attribute_not_exists(activeKeys)" } },
    ]);
    if (!uncounted) return true;
    if (uncounted[0]) return false;
  }
  throw retriesExhausted("revoke key");
}
