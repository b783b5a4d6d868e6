import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { randomUUID } from "node:crypto";
import { transact } from "../adapters/dynamo/counted-limits.dynamo";
import { conditionalWrite, dynamoFailure, getItem, queryAll } from "../adapters/dynamo/dynamo-errors";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { DeliveryRecord, WebhookChanges, WebhookEndpoint, WebhookQueue, WebhookStore, WebhookTask } from "../ports/webhooks.port";
import type { DeliveryAttemptView, DeliveryState } from "./webhooks.schema";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/** Deliveries (and their attempts) are kept 30 days, then DynamoDB's TTL removes them. */
export const DELIVERY_TTL_SECONDS = 30 * 86_400;

const ENDPOINT_FIELDS = [
  "webhookId", "workspaceId", "type", "url", "description", "events", "projectIds", "branchFilter", "enabled", "disabledReason",
  "secret", "previousSecret", "previousSecretExpiresAt", "failureStreak", "failingSince", "createdAt", "updatedAt",
] as const;

function endpointOf(item: Record<string, any>): WebhookEndpoint {
  const e = Object.fromEntries(ENDPOINT_FIELDS.map((f) => [f, item[f] ?? null])) as unknown as WebhookEndpoint;
  return { ...e, projectIds: item.projectIds ?? [], failureStreak: item.failureStreak ?? 0, description: item.description ?? "" };
}

function deliveryOf(item: Record<string, any>): DeliveryRecord {
  return {
    deliveryId: item.deliveryId,
    webhookId: item.webhookId,
    workspaceId: item.workspaceId,
    event: item.event,
    test: Boolean(item.test),
    body: item.body,
    state: item.state,
    createdAt: item.createdAt,
    nextAttemptAt: item.nextAttemptAt ?? null,
    attempts: item.attempts ?? [],
  };
}

/**
 * Webhook endpoints live in their workspace's partition (`WEBHOOK#<id>`): the fan-out of an event
 * is one Query of that partition's webhook items, and the per-workspace limit is a counter on the
 * workspace item (`webhookCount`, a conditional `ADD` in the create's transaction, as
 * counted-limits.dynamo.ts does for projects). gsi1 finds one by id for the `/api/webhooks/{id}` routes.
 *
 * A delivery is one item in its endpoint's partition with its attempts as a list (at most 15 of
 * 2 KB of answer each, far below the item limit), so the log's page is one Query.
 */
export class DynamoWebhookStore implements WebhookStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async create(endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    const failed = await transact(this.db, "createWebhook", [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.workspace(endpoint.workspaceId),
          UpdateExpression: "ADD webhookCount :one",
          ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(webhookCount) OR webhookCount < :max)",
          ExpressionAttributeValues: { ":one": 1, ":max": max },
        },
      },
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.webhook(endpoint.workspaceId, endpoint.webhookId), type: "webhook", gsi1pk: gsi1.webhook(endpoint.webhookId), gsi1sk: "WEBHOOK", ...this.fields(endpoint) },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ]);
    return failed === undefined;
  }

  /** The item's attributes; `type` is the table's item type, so the endpoint's type is `kind`. */
  private fields(endpoint: WebhookEndpoint): Record<string, unknown> {
    const { type, failingSince, ...rest } = endpoint;
    // failingSince is absent, never null, while nothing fails: settle's if_not_exists relies on it.
    return { ...rest, kind: type, ...(failingSince ? { failingSince } : {}) };
  }

  private endpoint(item: Record<string, any> | undefined): WebhookEndpoint | undefined {
    return item ? endpointOf({ ...item, type: item.kind }) : undefined;
  }

  async find(webhookId: string): Promise<WebhookEndpoint | undefined> {
    const items = await queryAll(
      this.db,
      { TableName: this.tableName, IndexName: gsi1.name, KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk", ExpressionAttributeValues: { ":pk": gsi1.webhook(webhookId), ":sk": "WEBHOOK" } },
      "webhookById",
    );
    // The index holds keys only on some stages: read the item itself, strongly consistent.
    return items[0] ? this.get(items[0].workspaceId as string, webhookId) : undefined;
  }

  async get(workspaceId: string, webhookId: string): Promise<WebhookEndpoint | undefined> {
    return this.endpoint(await getItem(this.db, this.tableName, keys.webhook(workspaceId, webhookId), "webhook", { consistent: true }));
  }

  /**
   * Whether the workspace has any webhook endpoint (enabled or not): one Query of at most one key,
   * eventually consistent. The event publisher's check before it queues an event (composition/events.ts).
   */
  async any(workspaceId: string): Promise<boolean> {
    try {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
          ExpressionAttributeValues: { ":pk": `WORKSPACE#${workspaceId}`, ":sk": "WEBHOOK#" },
          ProjectionExpression: "pk",
          Limit: 1,
        }),
      );
      return (page.Items?.length ?? 0) > 0;
    } catch (error) {
      throw dynamoFailure("Query(anyWebhook)", error);
    }
  }

  async list(workspaceId: string): Promise<WebhookEndpoint[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
        ExpressionAttributeValues: { ":pk": `WORKSPACE#${workspaceId}`, ":sk": "WEBHOOK#" },
        ConsistentRead: true,
      },
      "webhooks",
    );
    return items.map((item) => this.endpoint(item)!).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  private async updateItem(workspaceId: string, webhookId: string, what: string, set: Record<string, unknown>, remove: string[] = []): Promise<WebhookEndpoint | undefined> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const parts = Object.entries(set).map(([field, value], i) => {
      names[`#f${i}`] = field === "type" ? "kind" : field;
      values[`:v${i}`] = value;
      return `#f${i} = :v${i}`;
    });
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.webhook(workspaceId, webhookId),
          UpdateExpression: `SET ${parts.join(", ")}${remove.length ? ` REMOVE ${remove.join(", ")}` : ""}`,
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          // The answer is the item as written, not a second read.
          ReturnValues: "ALL_NEW",
        }),
      );
      return this.endpoint(Attributes);
    } catch (error) {
      if ((error as Error).name === "ConditionalCheckFailedException") return undefined;
      throw dynamoFailure(`UpdateItem(${what})`, error);
    }
  }

  update(workspaceId: string, webhookId: string, changes: WebhookChanges, now: string): Promise<WebhookEndpoint | undefined> {
    const set: Record<string, unknown> = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    // Turning an endpoint back on starts a fresh count of failures.
    if (changes.enabled === true) Object.assign(set, { failureStreak: 0, disabledReason: null });
    return this.updateItem(workspaceId, webhookId, "updateWebhook", { ...set, updatedAt: now }, changes.enabled === true ? ["failingSince"] : []);
  }

  rotateSecret(workspaceId: string, webhookId: string, secret: string, previous: { secret: string; expiresAt: string } | null, now: string) {
    return this.updateItem(workspaceId, webhookId, "rotateWebhookSecret", {
      secret,
      previousSecret: previous?.secret ?? null,
      previousSecretExpiresAt: previous?.expiresAt ?? null,
      updatedAt: now,
    });
  }

  async remove(workspaceId: string, webhookId: string): Promise<void> {
    // Its deliveries stay until their TTL: nothing reads them once the endpoint is gone.
    await transact(this.db, "deleteWebhook", [
      { Delete: { TableName: this.tableName, Key: keys.webhook(workspaceId, webhookId), ConditionExpression: "attribute_exists(pk)" } },
      { Update: { TableName: this.tableName, Key: keys.workspace(workspaceId), UpdateExpression: "ADD webhookCount :minusOne", ExpressionAttributeValues: { ":minusOne": -1 } } },
    ]);
  }

  lease(workspaceId: string, webhookId: string, now: Date, seconds: number): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(leaseWebhook)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhook(workspaceId, webhookId),
        UpdateExpression: "SET leaseUntil = :until",
        ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)",
        ExpressionAttributeValues: { ":until": now.getTime() + seconds * 1000, ":now": now.getTime() },
      }),
    );
  }

  async settle(workspaceId: string, webhookId: string, ok: boolean, now: Date, disableWhen: (streak: number, failingSince: string) => boolean): Promise<{ disabled: boolean }> {
    const key = keys.webhook(workspaceId, webhookId);
    if (ok) {
      await conditionalWrite(
        this.db,
        "UpdateItem(settleWebhook)",
        new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: "SET failureStreak = :zero REMOVE leaseUntil, failingSince", ConditionExpression: "attribute_exists(pk)", ExpressionAttributeValues: { ":zero": 0 } }),
      );
      return { disabled: false };
    }
    let after: Record<string, any> | undefined;
    try {
      ({ Attributes: after } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: "ADD failureStreak :one SET failingSince = if_not_exists(failingSince, :now) REMOVE leaseUntil",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":one": 1, ":now": now.toISOString() },
          ReturnValues: "ALL_NEW",
        }),
      ));
    } catch (error) {
      if ((error as Error).name === "ConditionalCheckFailedException") return { disabled: false };
      throw dynamoFailure("UpdateItem(settleWebhook)", error);
    }
    const since = typeof after?.failingSince === "string" ? after.failingSince : now.toISOString();
    if (!after?.enabled || !disableWhen(Number(after.failureStreak), since)) return { disabled: false };
    // Exactly one settle disables it (and so mails): the one whose conditional write turns it off.
    const disabled = await conditionalWrite(
      this.db,
      "UpdateItem(disableWebhook)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: "SET enabled = :false, disabledReason = :failing, updatedAt = :now",
        ConditionExpression: "enabled = :true",
        ExpressionAttributeValues: { ":false": false, ":true": true, ":failing": "failing", ":now": now.toISOString() },
      }),
    );
    return { disabled };
  }

  putDelivery(delivery: DeliveryRecord): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "PutItem(webhookDelivery)",
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.webhookDelivery(delivery.webhookId, delivery.deliveryId),
          type: "webhookDelivery",
          ...delivery,
          ttl: Math.floor(Date.parse(delivery.createdAt) / 1000) + DELIVERY_TTL_SECONDS,
        },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  }

  async getDelivery(webhookId: string, deliveryId: string): Promise<DeliveryRecord | undefined> {
    const item = await getItem(this.db, this.tableName, keys.webhookDelivery(webhookId, deliveryId), "webhookDelivery", { consistent: true });
    return item ? deliveryOf(item) : undefined;
  }

  async listDeliveries(webhookId: string, options: { after?: string; limit: number }): Promise<{ items: DeliveryRecord[]; after?: string }> {
    try {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
          ExpressionAttributeValues: { ":pk": `WEBHOOK#${webhookId}`, ":sk": "DELIVERY#" },
          ScanIndexForward: false,
          Limit: options.limit,
          ...(options.after ? { ExclusiveStartKey: keys.webhookDelivery(webhookId, options.after) } : {}),
        }),
      );
      const items = (page.Items ?? []).map(deliveryOf);
      return { items, ...(page.LastEvaluatedKey && items.length ? { after: items[items.length - 1]!.deliveryId } : {}) };
    } catch (error) {
      throw dynamoFailure("Query(webhookDeliveries)", error);
    }
  }

  async recordAttempt(webhookId: string, deliveryId: string, attempt: DeliveryAttemptView, state: DeliveryState, nextAttemptAt: string | null): Promise<void> {
    await conditionalWrite(
      this.db,
      "UpdateItem(webhookAttempt)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhookDelivery(webhookId, deliveryId),
        UpdateExpression: "SET attempts = list_append(if_not_exists(attempts, :empty), :attempt), #state = :state, nextAttemptAt = :next",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: { ":empty": [], ":attempt": [attempt], ":state": state, ":next": nextAttemptAt },
      }),
    );
  }

  async close(webhookId: string, deliveryId: string, state: DeliveryState): Promise<void> {
    await conditionalWrite(
      this.db,
      "UpdateItem(closeDelivery)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhookDelivery(webhookId, deliveryId),
        UpdateExpression: "SET #state = :state, nextAttemptAt = :null",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: { ":state": state, ":null": null },
      }),
    );
  }

  reopen(webhookId: string, deliveryId: string, nextAttemptAt: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(redeliver)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhookDelivery(webhookId, deliveryId),
        UpdateExpression: "SET #state = :pending, nextAttemptAt = :next",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: { ":pending": "pending", ":next": nextAttemptAt },
      }),
    );
  }
}

/** How long a claimed task stays invisible to other polls (SQS's visibility timeout). */
const CLAIM_SECONDS = 60;

/**
 * The local stack's stand-in for the SQS queue: tasks are items of one partition with the time
 * they are due; the in-process worker (packages/local) claims due ones by pushing their due time
 * forward in a conditional write (a crashed run's task comes back after CLAIM_SECONDS, as an SQS
 * message whose visibility timeout lapsed) and deletes them once handled. Publishing an event is
 * one PutItem.
 */
export class DynamoWebhookQueue implements WebhookQueue {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async send(task: WebhookTask & { notBefore?: string }, delaySeconds: number): Promise<void> {
    const due = Math.max(Date.now() + delaySeconds * 1000, task.notBefore ? Date.parse(task.notBefore) : 0);
    try {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keys.webhookTask(randomUUID()), type: "webhookTask", dueAt: due, task, ttl: Math.floor(due / 1000) + 2 * 86_400 } }));
    } catch (error) {
      throw dynamoFailure("PutItem(webhookTask)", error);
    }
  }

  /** The due tasks (at most `limit`), each claimed by this poll. */
  async claimDue(now: Date, limit: number): Promise<{ id: string; task: WebhookTask }[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk",
        FilterExpression: "dueAt <= :now",
        ExpressionAttributeValues: { ":pk": "WEBHOOKQUEUE", ":now": now.getTime() },
        ConsistentRead: true,
      },
      "webhookTasks",
    );
    const claimed: { id: string; task: WebhookTask }[] = [];
    for (const item of items.sort((a, b) => a.dueAt - b.dueAt).slice(0, limit)) {
      const ok = await conditionalWrite(
        this.db,
        "UpdateItem(claimWebhookTask)",
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: "SET dueAt = :later",
          ConditionExpression: "dueAt = :seen",
          ExpressionAttributeValues: { ":later": now.getTime() + CLAIM_SECONDS * 1000, ":seen": item.dueAt },
        }),
      );
      if (ok) claimed.push({ id: item.sk as string, task: item.task as WebhookTask });
    }
    return claimed;
  }

  async done(id: string): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: "WEBHOOKQUEUE", sk: id } }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(webhookTask)", error);
    }
  }
}
