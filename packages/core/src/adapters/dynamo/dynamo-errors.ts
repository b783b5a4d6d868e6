import { GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DependencyError } from "../../errors/domain-errors";

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

export function dynamoFailure(operation: string, error: unknown): DependencyError {
  const name = error instanceof Error ? error.name : "UnknownError";
  return new DependencyError("dynamodb", `DynamoDB ${operation} failed (${name})`, { cause: error });
}

/** One GetItem, SDK failures translated: every repository reads single items through this. */
export async function getItem(
  db: DynamoDBDocumentClient,
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
