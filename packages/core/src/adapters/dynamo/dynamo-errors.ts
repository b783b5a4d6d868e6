import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type QueryCommandInput } from "@aws-sdk/lib-dynamodb";
import { DependencyError } from "../../errors/domain-errors";
import type { DocumentClient } from "./document-client";

/**
 * Translates SDK failures into domain errors at the adapter boundary, as Powertools' DynamoDB
 * persistence layer does: core and handlers never see SDK exception classes.
 */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === "ConditionalCheckFailedException";
}

/** For TransactWriteItems: which of its items failed their condition. */
export function cancelledConditions(error: unknown): boolean[] | undefined {
  if (!(error instanceof Error) || error.name !== "TransactionCanceledException") return undefined;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code === "ConditionalCheckFailed");
}

/**
 * Refusals DynamoDB gives the same way every time for the same request: an item over 400 KB, a
 * malformed expression, a value it cannot serialize. Retrying cannot help, so they must never
 * look like an outage (503 + Retry-After makes clients retry forever and pages the operator on
 * whatever a stranger sends).
 */
const DETERMINISTIC = new Set(["ValidationException", "SerializationException"]);

/** A request DynamoDB refused for what it is, not for the state of the service: a bug of ours. */
export class DynamoRequestRejected extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "DynamoRequestRejected";
  }
}

function isDeterministic(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (DETERMINISTIC.has(error.name)) return true;
  // A transaction reports an item's ValidationException as a cancellation reason.
  if (error.name !== "TransactionCanceledException") return false;
  const reasons = (error as Error & { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.some((r) => r.Code === "ValidationError");
}

/**
 * Outages and throttling become DependencyError (503, retryable); deterministic refusals become
 * DynamoRequestRejected, which is no HangarError, so the HTTP layer answers 500 internal_error
 * and logs it.
 */
export function dynamoFailure(operation: string, error: unknown): DependencyError | DynamoRequestRejected {
  const name = error instanceof Error ? error.name : "UnknownError";
  if (isDeterministic(error)) {
    return new DynamoRequestRejected(`DynamoDB refused ${operation} (${name}): ${error instanceof Error ? error.message : ""}`, {
      cause: error,
    });
  }
  return new DependencyError("dynamodb", `DynamoDB ${operation} failed (${name})`, { cause: error });
}

/**
 * Sends a batch (BatchWriteItem, BatchGetItem) until DynamoDB has processed all of it: `send`
 * returns what came back unprocessed, retried with exponential backoff, nine tries at most.
 */
export async function untilProcessed<T>(batch: T[], send: (batch: T[]) => Promise<T[]>): Promise<void> {
  let pending = batch;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 8) throw new Error("DynamoDB left items unprocessed after retries");
    if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    pending = await send(pending);
  }
}

/**
 * One conditional write (Put, Update or Delete with a ConditionExpression): true when it was
 * made, false when its condition failed; any other failure translated like every other call.
 */
export async function conditionalWrite(db: DocumentClient, operation: string, command: PutCommand | UpdateCommand | DeleteCommand): Promise<boolean> {
  try {
    // One branch per command class: the client's send() is typed per command, not for a union.
    if (command instanceof UpdateCommand) await db.send(command);
    else if (command instanceof PutCommand) await db.send(command);
    else await db.send(command);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw dynamoFailure(operation, error);
  }
}

/** One GetItem, SDK failures translated: every repository reads single items through this. */
export async function getItem(
  db: DocumentClient,
  tableName: string,
  key: Record<string, string>,
  what: string,
  options: { consistent?: boolean } = {},
): Promise<Record<string, any> | undefined> {
  try {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: key, ...(options.consistent ? { ConsistentRead: true } : {}) }),
    );
    return Item;
  } catch (error) {
    throw dynamoFailure(`GetItem(${what})`, error);
  }
}

/**
 * Every item a Query matches, page after page, SDK failures translated: for partitions bounded by
 * a limit of the service (a workspace's members, projects, invitations; a user's sessions), where
 * the caller needs them all. With `limit`, at most that many, first in the Query's order (each page
 * asks only for what is still missing): for lists the service caps, such as a tester's newest
 * installs. Paged lists the dashboard shows use their own cursor instead.
 */
export async function queryAll(
  db: DocumentClient,
  input: Omit<QueryCommandInput, "ExclusiveStartKey" | "Limit">,
  what: string,
  limit = Infinity,
): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let start: Record<string, any> | undefined;
  try {
    do {
      const page = await db.send(
        new QueryCommand({
          ...input,
          ...(Number.isFinite(limit) ? { Limit: limit - items.length } : {}),
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start && items.length < limit);
  } catch (error) {
    throw dynamoFailure(`Query(${what})`, error);
  }
  return items;
}
