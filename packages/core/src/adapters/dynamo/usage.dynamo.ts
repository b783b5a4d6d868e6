import { BatchWriteCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { UsageCounter, UsageDay, UsageMark, UsageReader } from "../../ports";
import { dynamoFailure, untilProcessed } from "./dynamo-errors";
import { keys } from "./table-keys";

/** Day items outlive the 30 days the dashboard shows by a few days, then TTL removes them. */
const KEEP_SECONDS = 35 * 24 * 3600;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const ttlOf = (at: Date) => Math.floor(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1) / 1000) + KEEP_SECONDS;

/**
 * One item per key and UTC day (`USAGE#<clientId>` / `DAY#<day>`), updated with ADD so
 * concurrent requests never lose a count. Each request costs one UpdateItem, sent in parallel
 * with the rate-limit update (see core/auth/authenticate.ts).
 */
export class DynamoUsage implements UsageCounter, UsageReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async add(at: Date, clientId: string, expression: string, values: Record<string, unknown>, names: Record<string, string> = {}) {
    try {
      return await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.usageDay(clientId, dayOf(at)),
          UpdateExpression: `${expression}, #type = :type, #ttl = if_not_exists(#ttl, :ttl)`,
          ExpressionAttributeNames: { "#type": "type", "#ttl": "ttl", ...names },
          ExpressionAttributeValues: { ":type": "usage", ":ttl": ttlOf(at), ...values },
          ReturnValues: "UPDATED_OLD",
        }),
      );
    } catch (error) {
      throw dynamoFailure("UpdateItem(usage)", error);
    }
  }

  async request(clientId: string, at: Date): Promise<UsageMark> {
    const out = await this.add(at, clientId, "ADD requests :one SET lastUsedAt = :at", { ":one": 1, ":at": at.toISOString() });
    const previous = out.Attributes?.lastUsedAt;
    return typeof previous === "string" ? { previousLastUsedAt: previous } : {};
  }

  async refund(clientId: string, at: Date, mark: UsageMark): Promise<void> {
    if (mark.previousLastUsedAt) {
      await this.add(at, clientId, "ADD requests :minusOne SET lastUsedAt = :previous", {
        ":minusOne": -1,
        ":previous": mark.previousLastUsedAt,
      });
      return;
    }
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.usageDay(clientId, dayOf(at)),
          UpdateExpression: "ADD requests :minusOne REMOVE lastUsedAt",
          ExpressionAttributeValues: { ":minusOne": -1 },
        }),
      );
    } catch (error) {
      throw dynamoFailure("UpdateItem(usage refund)", error);
    }
  }

  async rateLimited(clientId: string, at: Date): Promise<void> {
    await this.add(at, clientId, "ADD rateLimited :one SET lastUsedAt = :at", { ":one": 1, ":at": at.toISOString() });
  }

  async uploadCompleted(clientId: string, at: Date, bytes: number): Promise<void> {
    await this.add(at, clientId, "ADD uploads :one, #bytes :bytes SET lastUsedAt = :at", { ":one": 1, ":bytes": bytes, ":at": at.toISOString() }, { "#bytes": "bytes" });
  }

  async days(clientId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    try {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
          ExpressionAttributeValues: { ":pk": `USAGE#${clientId}`, ":from": `DAY#${fromDay}`, ":to": `DAY#${toDay}` },
        }),
      );
      return (out.Items ?? []).map((item) => {
        const day: UsageDay = {
          day: String(item.sk).slice(4),
          requests: Math.max(0, Number(item.requests ?? 0)),
          rateLimited: Number(item.rateLimited ?? 0),
          uploads: Number(item.uploads ?? 0),
          bytes: Number(item.bytes ?? 0),
        };
        if (typeof item.lastUsedAt === "string") day.lastUsedAt = item.lastUsedAt;
        return day;
      });
    } catch (error) {
      throw dynamoFailure("Query(usage)", error);
    }
  }

  async lastUsedAt(clientId: string): Promise<string | undefined> {
    try {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": `USAGE#${clientId}` },
          ScanIndexForward: false,
          // A day that only saw refunded requests has no lastUsedAt: look a few days back.
          Limit: 5,
        }),
      );
      const found = (out.Items ?? []).find((item) => typeof item.lastUsedAt === "string");
      return found?.lastUsedAt as string | undefined;
    } catch (error) {
      throw dynamoFailure("Query(last used)", error);
    }
  }

  async removeAll(clientId: string): Promise<void> {
    try {
      for (;;) {
        const out = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": `USAGE#${clientId}` },
            ProjectionExpression: "pk, sk",
            Limit: 25,
          }),
        );
        const items = out.Items ?? [];
        if (items.length === 0) return;
        await batchDelete(this.db, this.tableName, items.map((i) => ({ pk: i.pk as string, sk: i.sk as string })));
      }
    } catch (error) {
      throw dynamoFailure("BatchWriteItem(usage)", error);
    }
  }
}

/** Deletes up to any number of items, 25 per BatchWriteItem, retrying what DynamoDB hands back. */
export async function batchDelete(db: DynamoDBDocumentClient, tableName: string, itemKeys: { pk: string; sk: string }[]): Promise<void> {
  await batchWrite(db, tableName, itemKeys.map((Key) => ({ DeleteRequest: { Key } })));
}

type WriteRequest = { DeleteRequest: { Key: { pk: string; sk: string } } } | { PutRequest: { Item: Record<string, unknown> } };

/** Puts and deletes (never two of one item), 25 per BatchWriteItem, retrying what DynamoDB hands back. */
export async function batchWrite(db: DynamoDBDocumentClient, tableName: string, all: WriteRequest[]): Promise<void> {
  for (let i = 0; i < all.length; i += 25) {
    await untilProcessed(all.slice(i, i + 25), async (requests) => {
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      return (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    });
  }
}
