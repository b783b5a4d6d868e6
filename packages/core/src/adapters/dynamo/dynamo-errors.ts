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

/** Runs one SDK call and rethrows anything unexpected as a DependencyError. */
export async function dynamoCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw dynamoFailure(operation, error);
  }
}
