import { DeleteCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { PendingDelete, PendingDeletes, PurgeTask } from "../../ports";
import { personalWorkspaceId } from "../../workspaces/workspace-ids";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";

/**
 * Pending-delete markers in one well-known partition (`DELETING`, docs/data-model.md): the sweep
 * finds them with one Query instead of a table scan. Deletes are rare and short-lived, so the
 * partition stays small; its items are written on start, touched per purge step, removed at the end.
 */
export class DynamoPendingDeletes implements PendingDeletes {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async started(task: PurgeTask, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.pendingDelete(task.projectId),
          UpdateExpression:
            "SET #type = :type, workspaceId = :workspaceId, projectId = :projectId, startedAt = if_not_exists(startedAt, :at), progressAt = :at",
          ExpressionAttributeNames: { "#type": "type" },
          ExpressionAttributeValues: { ":type": "pendingDelete", ":workspaceId": task.workspaceId, ":projectId": task.projectId, ":at": at },
        }),
      );
    } catch (error) {
      throw dynamoFailure("UpdateItem(pendingDelete)", error);
    }
  }

  async progressed(task: PurgeTask, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.pendingDelete(task.projectId),
          UpdateExpression: "SET progressAt = :at",
          // A finished delete's marker must not come back.
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":at": at },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw dynamoFailure("UpdateItem(pendingDelete)", error);
    }
  }

  async finished(task: PurgeTask): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.pendingDelete(task.projectId) }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(pendingDelete)", error);
    }
  }

  async stale(progressBefore: string, limit: number): Promise<PendingDelete[]> {
    const found: PendingDelete[] = [];
    let start: Record<string, unknown> | undefined;
    try {
      do {
        const page = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk",
            FilterExpression: "progressAt < :before",
            ExpressionAttributeValues: { ":pk": keys.pendingDelete("").pk, ":before": progressBefore },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        for (const item of page.Items ?? []) {
          // A marker from before workspaces names its user: the project is in their personal workspace.
          const workspaceId = typeof item.workspaceId === "string" ? item.workspaceId : personalWorkspaceId(String(item.userId));
          found.push({ kind: "project", workspaceId, projectId: item.projectId, startedAt: item.startedAt, progressAt: item.progressAt });
        }
        start = page.LastEvaluatedKey;
      } while (start && found.length < limit);
    } catch (error) {
      throw dynamoFailure("Query(pendingDelete)", error);
    }
    return found.sort((a, b) => a.progressAt.localeCompare(b.progressAt)).slice(0, limit);
  }
}
