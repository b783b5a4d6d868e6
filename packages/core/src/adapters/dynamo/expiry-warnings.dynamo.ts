import { BatchGetCommand, BatchWriteCommand, DeleteCommand, PutCommand, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { ExpiryWarningStore, WatchedProject } from "../../ports/expiry-warning-store.port";
import { expiryMarker, type ExpiryKind } from "../../releases/expiry-warnings";
import { conditionalWrite, dynamoFailure, untilProcessed } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/** Markers outlive any threshold (30 days) with room to spare; the build's purge removes them earlier. */
const MARKER_TTL_SECONDS = 400 * 24 * 60 * 60;
const SCAN_PAGE = 1000;

/**
 * The expiry run's items (docs/data-model.md): markers `FILE#<fileId>` / `EXPIRYWARNING#<kind>#<days>`
 * in the build's partition (so deleting a build — a delete, a retention run, a project purge —
 * removes them with the rest of the partition), and opt-outs `USER#<userId>` / `PREF#expiry-mail`.
 *
 * Finding every project is a Scan filtered on `type = project`, once a day. Rejected: a registry
 * partition of all projects (one hot partition written by every create and delete, and a
 * migration for the projects stored before it) for a job that runs once a day and reads each
 * item once; the Scan's cost grows with the table, about one read unit per 4 KB a day.
 */
export class DynamoExpiryWarnings implements ExpiryWarningStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async *projects(): AsyncIterable<WatchedProject[]> {
    let start: Record<string, unknown> | undefined;
    do {
      let out;
      try {
        out = await this.db.send(
          new ScanCommand({
            TableName: this.tableName,
            FilterExpression: "#type = :project AND begins_with(pk, :ws) AND (attribute_not_exists(#status) OR #status <> :deleting)",
            ExpressionAttributeNames: { "#type": "type", "#status": "status", "#name": "name" },
            ExpressionAttributeValues: { ":project": "project", ":ws": "WORKSPACE#", ":deleting": "deleting" },
            ProjectionExpression: "projectId, workspaceId, #name",
            Limit: SCAN_PAGE,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
      } catch (error) {
        throw dynamoFailure("Scan(projects)", error);
      }
      const page = (out.Items ?? []).flatMap((item): WatchedProject[] =>
        typeof item.projectId === "string" && typeof item.workspaceId === "string"
          ? [{ projectId: item.projectId, workspaceId: item.workspaceId, name: typeof item.name === "string" ? item.name : "" }]
          : [],
      );
      if (page.length > 0) yield page;
      start = out.LastEvaluatedKey;
    } while (start);
  }

  async settled(fileIds: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    try {
      await Promise.all(
        fileIds.map(async (fileId) => {
          const out = await this.db.send(
            new QueryCommand({
              TableName: this.tableName,
              KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
              ExpressionAttributeValues: { ":pk": keys.file(fileId).pk, ":prefix": "EXPIRYWARNING#" },
              ProjectionExpression: "sk",
              ConsistentRead: true,
            }),
          );
          for (const item of out.Items ?? []) {
            const [, kind, days] = String(item.sk).split("#");
            if (kind && days) found.add(expiryMarker(fileId, kind as ExpiryKind, Number(days)));
          }
        }),
      );
    } catch (error) {
      throw dynamoFailure("Query(expiry markers)", error);
    }
    return found;
  }

  private marker(fileId: string, kind: ExpiryKind, thresholdDays: number, at: string) {
    return {
      ...keys.expiryWarning(fileId, kind, thresholdDays),
      type: "expiryWarning",
      fileId,
      kind,
      thresholdDays,
      at,
      ttl: Math.floor(Date.parse(at) / 1000) + MARKER_TTL_SECONDS,
    };
  }

  claim(fileId: string, kind: ExpiryKind, thresholdDays: number, at: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "PutItem(expiry marker)",
      new PutCommand({ TableName: this.tableName, Item: this.marker(fileId, kind, thresholdDays, at), ConditionExpression: "attribute_not_exists(pk)" }),
    );
  }

  async settle(fileId: string, kind: ExpiryKind, thresholds: readonly number[], at: string): Promise<void> {
    // An existing marker is overwritten by one that says the same: no condition needed.
    const requests = thresholds.map((t) => ({ PutRequest: { Item: this.marker(fileId, kind, t, at) } }));
    try {
      await untilProcessed(requests, async (batch) => {
        const out = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: batch } }));
        return (out.UnprocessedItems?.[this.tableName] ?? []) as typeof batch;
      });
    } catch (error) {
      throw dynamoFailure("BatchWriteItem(expiry markers)", error);
    }
  }

  async release(fileId: string, kind: ExpiryKind, thresholdDays: number): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.expiryWarning(fileId, kind, thresholdDays) }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(expiry marker)", error);
    }
  }

  async optedOut(userIds: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    const unique = [...new Set(userIds)];
    try {
      for (let i = 0; i < unique.length; i += 100) {
        await untilProcessed<Record<string, unknown>>(unique.slice(i, i + 100).map((id) => keys.expiryMailOptOut(id)), async (wanted) => {
          const got = await this.db.send(
            new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: wanted, ProjectionExpression: "pk", ConsistentRead: true } } }),
          );
          for (const item of got.Responses?.[this.tableName] ?? []) out.add(String(item.pk).slice("USER#".length));
          return got.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
        });
      }
    } catch (error) {
      throw dynamoFailure("BatchGetItem(expiry opt-outs)", error);
    }
    return out;
  }

  async optOut(userId: string, at: string): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.expiryMailOptOut(userId), type: "expiryMailOptOut", userId, at },
          // The first opt-out's time stays: a second click changes nothing.
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      if (error instanceof Error && error.name === "ConditionalCheckFailedException") return;
      throw dynamoFailure("PutItem(expiry opt-out)", error);
    }
  }
}
