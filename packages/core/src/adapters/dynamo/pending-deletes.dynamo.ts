import { DeleteCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { PendingDelete, PendingDeletes, PurgeTask } from "../../ports";
import { personalWorkspaceId } from "../../workspaces/workspace-ids";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/** A project's marker `DELETING` / `PROJECT#<projectId>`, a workspace's `DELETING` / `WORKSPACE#<workspaceId>`. */
const markerKey = (task: PurgeTask) => (task.kind === "project" ? keys.pendingDelete(task.projectId) : keys.pendingWorkspaceDelete(task.workspaceId));

/**
 * Pending-delete markers in one well-known partition (`DELETING`, docs/data-model.md): the sweep
 * finds them with one Query instead of a table scan. Deletes are rare and short-lived, so the
 * partition stays small; its items are written on start, touched per purge step, removed at the end.
 */
export class DynamoPendingDeletes implements PendingDeletes {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async started(task: PurgeTask, at: string): Promise<void> {
    const project = task.kind === "project" ? { ":projectId": task.projectId } : {};
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: markerKey(task),
          UpdateExpression: `SET #type = :type, kind = :kind, workspaceId = :workspaceId, ${task.kind === "project" ? "projectId = :projectId, " : ""}startedAt = if_not_exists(startedAt, :at), progressAt = :at`,
          ExpressionAttributeNames: { "#type": "type" },
          ExpressionAttributeValues: { ":type": "pendingDelete", ":kind": task.kind, ":workspaceId": task.workspaceId, ...project, ":at": at },
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
          Key: markerKey(task),
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
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: markerKey(task) }));
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
          if (item.kind === "workspace") {
            found.push({ kind: "workspace", workspaceId: item.workspaceId, startedAt: item.startedAt, progressAt: item.progressAt });
            continue;
          }
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
