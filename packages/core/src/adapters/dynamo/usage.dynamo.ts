import { BatchWriteCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { UsageCounter, UsageDay, UsageReader } from "../../ports";
import { dynamoFailure, getItem, untilProcessed } from "./dynamo-errors";
import type { UpdateParts } from "./rate-limiter.dynamo";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/** Day items outlive the 30 days the dashboard shows by a few days, then TTL removes them. */
const KEEP_SECONDS = 35 * 24 * 3600;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const ttlOf = (at: Date) => Math.floor(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1) / 1000) + KEEP_SECONDS;

/** An update of a key's day item (`USAGE#<clientId>` / `DAY#<day>`), its type and TTL set on the way. */
function usageDayUpdate(tableName: string, clientId: string, at: Date, expression: string, values: Record<string, unknown>, names: Record<string, string> = {}) {
  return {
    TableName: tableName,
    Key: keys.usageDay(clientId, dayOf(at)),
    UpdateExpression: `${expression}, #type = :type, #ttl = if_not_exists(#ttl, :ttl)`,
    ExpressionAttributeNames: { "#type": "type", "#ttl": "ttl", ...names },
    ExpressionAttributeValues: { ":type": "usage", ":ttl": ttlOf(at), ...values },
  };
}

/** A completed upload counted on its key's day: an item of complete's transaction (file-repository.dynamo.ts). */
export function usageUploadCount(tableName: string, clientId: string, at: Date, bytes: number) {
  return usageDayUpdate(tableName, clientId, at, "ADD uploads :one, #bytes :bytes SET lastUsedAt = :at", { ":one": 1, ":bytes": bytes, ":at": at.toISOString() }, { "#bytes": "bytes" });
}

/**
 * One item per key and UTC day (`USAGE#<clientId>` / `DAY#<day>`), updated with ADD so
 * concurrent requests never lose a count, plus the current day's accepted requests on the key's
 * own item (onItem), counted by the write that admits the request: an API-key request costs one
 * write in all (api-key-gate.dynamo.ts). Refused requests and completed uploads go to day items.
 */
export class DynamoUsage implements UsageCounter, UsageReader {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  private async add(at: Date, clientId: string, expression: string, values: Record<string, unknown>, names: Record<string, string> = {}) {
    try {
      return await this.db.send(new UpdateCommand({ ...usageDayUpdate(this.tableName, clientId, at, expression, values, names), ReturnValues: "UPDATED_OLD" }));
    } catch (error) {
      throw dynamoFailure("UpdateItem(usage)", error);
    }
  }

  /**
   * Today's accepted requests kept on the key's own item (`usageDay`, `usageRequests`,
   * `lastUsedAt`), counted by the same conditional update that admits the request
   * (api-key-gate.dynamo.ts): counting costs no write of its own. As DynamoRateLimiter.onItem:
   * `same` counts on the item's day, `fresh` starts today at one when the item holds an older day,
   * whose numbers `carryOver` then adds to that day's item. Readers add the key item's day to the
   * day items (days, lastUsedAt), so the dashboard reads the same numbers as before.
   */
  onItem(at: Date): { same: UpdateParts; fresh: UpdateParts; isCurrent(item: Record<string, unknown> | undefined): boolean } {
    const values = { ":usageDay": dayOf(at), ":usageOne": 1, ":usageAt": at.toISOString() };
    return {
      same: { add: ["usageRequests :usageOne"], set: ["lastUsedAt = :usageAt"], condition: "usageDay = :usageDay", values },
      fresh: {
        set: ["usageDay = :usageDay", "usageRequests = :usageOne", "lastUsedAt = :usageAt"],
        condition: "(attribute_not_exists(usageDay) OR usageDay <> :usageDay)",
        values,
      },
      isCurrent: (item: Record<string, unknown> | undefined) => item?.usageDay === values[":usageDay"],
    };
  }

  /** Moves an older day's count off the key item (as the fresh update returned it) onto that day's item. */
  async carryOver(clientId: string, keyItem: Record<string, unknown> | undefined): Promise<void> {
    const day = keyItem?.usageDay;
    const requests = Number(keyItem?.usageRequests ?? 0);
    if (typeof day !== "string" || requests <= 0) return;
    const lastUsedAt = typeof keyItem?.lastUsedAt === "string" ? keyItem.lastUsedAt : undefined;
    const at = new Date(`${day}T00:00:00.000Z`);
    // The day item's own lastUsedAt (a completed upload, a refused request) may be the later one.
    await this.add(at, clientId, "ADD requests :n SET keyLastUsedAt = :last", { ":n": requests, ":last": lastUsedAt ?? `${day}T00:00:00.000Z` });
  }

  /** A refused request still counts as a request of its day. */
  async rateLimited(clientId: string, at: Date): Promise<void> {
    await this.add(at, clientId, "ADD requests :one, rateLimited :one SET lastUsedAt = :at", { ":one": 1, ":at": at.toISOString() });
  }

  /** The key item's day (onItem): its count and last use, read beside the day items. */
  private async keyDay(clientId: string): Promise<{ day: string; requests: number; lastUsedAt?: string } | undefined> {
    const item = await getItem(this.db, this.tableName, keys.apiKey(clientId), "api key usage");
    if (typeof item?.usageDay !== "string") return undefined;
    return { day: item.usageDay, requests: Number(item.usageRequests ?? 0), ...(typeof item.lastUsedAt === "string" ? { lastUsedAt: item.lastUsedAt } : {}) };
  }

  async days(clientId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    try {
      const [out, onKey] = await Promise.all([
        this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk AND sk BETWEEN :from AND :to",
            ExpressionAttributeValues: { ":pk": `USAGE#${clientId}`, ":from": `DAY#${fromDay}`, ":to": `DAY#${toDay}` },
          }),
        ),
        this.keyDay(clientId),
      ]);
      const days = (out.Items ?? []).map((item) => {
        const day: UsageDay = {
          day: String(item.sk).slice(4),
          requests: Math.max(0, Number(item.requests ?? 0)),
          rateLimited: Number(item.rateLimited ?? 0),
          uploads: Number(item.uploads ?? 0),
          bytes: Number(item.bytes ?? 0),
        };
        const last = latest(item.lastUsedAt, item.keyLastUsedAt);
        if (last) day.lastUsedAt = last;
        return day;
      });
      if (onKey && onKey.day >= fromDay && onKey.day <= toDay) {
        let day = days.find((d) => d.day === onKey.day);
        if (!day) {
          day = { day: onKey.day, requests: 0, rateLimited: 0, uploads: 0, bytes: 0 };
          days.push(day);
          days.sort((a, b) => a.day.localeCompare(b.day));
        }
        day.requests += onKey.requests;
        const last = latest(day.lastUsedAt, onKey.lastUsedAt);
        if (last) day.lastUsedAt = last;
      }
      return days;
    } catch (error) {
      throw dynamoFailure("Query(usage)", error);
    }
  }

  async lastUsedAt(clientId: string): Promise<string | undefined> {
    try {
      const [out, onKey] = await Promise.all([
        this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: "pk = :pk",
          ExpressionAttributeValues: { ":pk": `USAGE#${clientId}` },
          ScanIndexForward: false,
          // A day item that holds no request (an old one's uploads only) has none: look a few days back.
          Limit: 5,
        }),
        ),
        this.keyDay(clientId),
      ]);
      const found = (out.Items ?? []).find((item) => latest(item.lastUsedAt, item.keyLastUsedAt));
      return latest(onKey?.lastUsedAt, found?.lastUsedAt, found?.keyLastUsedAt);
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

/** The latest of some ISO timestamps (ISO strings of one format sort as they read). */
function latest(...values: unknown[]): string | undefined {
  let best: string | undefined;
  for (const v of values) if (typeof v === "string" && (!best || v > best)) best = v;
  return best;
}

/** Deletes up to any number of items, 25 per BatchWriteItem, retrying what DynamoDB hands back. */
export async function batchDelete(db: DocumentClient, tableName: string, itemKeys: { pk: string; sk: string }[]): Promise<void> {
  await batchWrite(db, tableName, itemKeys.map((Key) => ({ DeleteRequest: { Key } })));
}

type WriteRequest = { DeleteRequest: { Key: { pk: string; sk: string } } } | { PutRequest: { Item: Record<string, unknown> } };

/** Puts and deletes (never two of one item), 25 per BatchWriteItem, retrying what DynamoDB hands back. */
export async function batchWrite(db: DocumentClient, tableName: string, all: WriteRequest[]): Promise<void> {
  for (let i = 0; i < all.length; i += 25) {
    await untilProcessed(all.slice(i, i + 25), async (requests) => {
      const out = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      return (out.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    });
  }
}
