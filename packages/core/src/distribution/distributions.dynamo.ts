import {
  BatchGetCommand,
  BatchWriteCommand,
  PutCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { conditionalWrite, dynamoFailure, getItem, isConditionFailure, queryAll, untilProcessed } from "../adapters/dynamo/dynamo-errors";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { DistributionRecord, DistributionStore, NewRecipient, Recipient } from "./distribution.port";
import type { RecipientStatus } from "./distribution.schema";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/**
 * Parallel conditional puts of one distribution: 1,000 recipients are ~16 rounds of 64 (the SDK's
 * default socket pool is 50 per host, so a few wait for a socket); one build's recipients share
 * a partition (`FILE#<fileId>`), whose 1,000 writes per second DynamoDB adaptive capacity absorbs.
 */
const WRITE_CONCURRENCY = 64;

async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

function toRecipient(item: Record<string, any>): Recipient {
  return {
    email: item.email,
    fileId: item.fileId,
    projectId: item.projectId,
    workspaceId: item.workspaceId,
    distributionId: item.distributionId,
    createdAt: item.createdAt,
    status: item.status,
    ...(item.sentAt ? { sentAt: item.sentAt } : {}),
    viaGroups: Array.isArray(item.viaGroups) ? item.viaGroups : [],
    ...(item.leaseUntil ? { leaseUntil: item.leaseUntil } : {}),
    attempts: Number(item.attempts ?? 0),
  };
}

function toDistribution(item: Record<string, any>): DistributionRecord {
  return {
    distributionId: item.distributionId,
    fileId: item.fileId,
    projectId: item.projectId,
    workspaceId: item.workspaceId,
    workspaceName: item.workspaceName ?? "",
    groups: item.groups ?? [],
    testers: item.testers ?? [],
    message: item.message ?? null,
    notify: item.notify !== false,
    recipients: Number(item.recipients ?? 0),
    createdAt: item.createdAt,
    createdBy: item.createdBy,
  };
}

/**
 * Distributions, recipients, install links, unsubscribes and default groups in the one table
 * (docs/data-model.md). The recipient is the unit of exactly-once: its conditional put makes one
 * copy per tester per build, its conditional status updates (claim, settle) make one mail.
 */
export class DynamoDistributions implements DistributionStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async addRecipients(recipients: readonly NewRecipient[], installLinkHashes: ReadonlyMap<string, string>): Promise<Set<string>> {
    const written = new Set<string>();
    await inParallel(recipients, WRITE_CONCURRENCY, async (r) => {
      const made = await conditionalWrite(
        this.db,
        "PutItem(recipient)",
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...keys.recipient(r.fileId, r.email),
            type: "recipient",
            ...r,
            attempts: 0,
            gsi1pk: gsi1.tester(r.email),
            gsi1sk: `BUILD#${r.createdAt}#${r.fileId}`,
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
      if (made) written.add(r.email);
    });
    // The personal install links of the new copies: idempotent puts (a token names one pair for ever).
    const links = recipients.filter((r) => written.has(r.email) && installLinkHashes.has(r.email));
    for (const batch of chunks(links, 25)) {
      const requests = batch.map((r) => ({
        PutRequest: {
          Item: {
            ...keys.installLink(installLinkHashes.get(r.email)!),
            type: "installLink",
            email: r.email,
            fileId: r.fileId,
            projectId: r.projectId,
            workspaceId: r.workspaceId,
            createdAt: r.createdAt,
          },
        },
      }));
      await this.batchWrite(requests);
    }
    return written;
  }

  private async batchWrite(requests: Record<string, unknown>[]): Promise<void> {
    try {
      await untilProcessed(requests, async (pending) => {
        const out = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending as never } }));
        return (out.UnprocessedItems?.[this.tableName] ?? []) as Record<string, unknown>[];
      });
    } catch (error) {
      throw dynamoFailure("BatchWriteItem(install links)", error);
    }
  }

  /** BatchGetItem of up to any number of keys (100 per call, in parallel), projected to `projection`. */
  private async batchGet(keyList: Record<string, string>[], projection: string, names: Record<string, string> = {}): Promise<Record<string, any>[]> {
    const found: Record<string, any>[] = [];
    try {
      await Promise.all(
        chunks(keyList, 100).map((batch) =>
          untilProcessed(batch, async (pending) => {
            const out = await this.db.send(
              new BatchGetCommand({
                RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true, ProjectionExpression: projection, ExpressionAttributeNames: { "#pk": "pk", "#sk": "sk", ...names } } },
              }),
            );
            found.push(...(out.Responses?.[this.tableName] ?? []));
            return (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Record<string, string>[];
          }),
        ),
      );
    } catch (error) {
      throw dynamoFailure("BatchGetItem", error);
    }
    return found;
  }

  async existingRecipients(fileId: string, emails: readonly string[]): Promise<Map<string, RecipientStatus>> {
    if (emails.length === 0) return new Map();
    const items = await this.batchGet(emails.map((e) => keys.recipient(fileId, e)), "#pk, #sk, email, #status", { "#status": "status" });
    return new Map(items.map((i) => [i.email as string, i.status as RecipientStatus]));
  }

  async putDistribution(record: DistributionRecord): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({ TableName: this.tableName, Item: { ...keys.distribution(record.fileId, record.distributionId), type: "distribution", ...record } }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(distribution)", error);
    }
  }

  async getDistribution(fileId: string, distributionId: string): Promise<DistributionRecord | undefined> {
    const item = await getItem(this.db, this.tableName, keys.distribution(fileId, distributionId), "distribution", { consistent: true });
    return item ? toDistribution(item) : undefined;
  }

  private queryFile(fileId: string, prefix: string): Promise<Record<string, any>[]> {
    return queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.file(fileId).pk, ":prefix": prefix },
        ConsistentRead: true,
      },
      "distributions",
    );
  }

  async listDistributions(fileId: string): Promise<DistributionRecord[]> {
    return (await this.queryFile(fileId, "DISTRIBUTION#")).map(toDistribution);
  }

  async listRecipients(fileId: string): Promise<Recipient[]> {
    return (await this.queryFile(fileId, "RECIPIENT#")).map(toRecipient);
  }

  async unsubscribed(projectId: string, emails: readonly string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const items = await this.batchGet(emails.map((e) => keys.unsubscribe(projectId, e)), "#pk, #sk");
    return new Set(items.map((i) => String(i.pk).slice("UNSUBSCRIBED#".length)));
  }

  async suppressed(emails: readonly string[]): Promise<Set<string>> {
    if (emails.length === 0) return new Set();
    const items = await this.batchGet(emails.map((e) => keys.suppression(e)), "#pk, #sk");
    return new Set(items.map((i) => String(i.pk).slice("SUPPRESSED#".length)));
  }

  async unsubscribe(projectId: string, email: string, at: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.unsubscribe(projectId, email),
          // The first time is kept: a second click changes nothing.
          UpdateExpression: "SET #type = :type, #at = if_not_exists(#at, :at), projectId = :projectId, email = :email",
          ExpressionAttributeNames: { "#type": "type", "#at": "at" },
          ExpressionAttributeValues: { ":type": "unsubscribe", ":at": at, ":projectId": projectId, ":email": email },
        }),
      );
    } catch (error) {
      throw dynamoFailure("UpdateItem(unsubscribe)", error);
    }
  }

  async claim(fileId: string, email: string, now: string, leaseUntil: string): Promise<Recipient | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.recipient(fileId, email),
          UpdateExpression: "SET #status = :sending, leaseUntil = :lease ADD attempts :one",
          ConditionExpression: "#status = :queued OR (#status = :sending AND leaseUntil < :now)",
          ExpressionAttributeNames: { "#status": "status" },
          ExpressionAttributeValues: { ":sending": "sending", ":queued": "queued", ":lease": leaseUntil, ":now": now, ":one": 1 },
          ReturnValues: "ALL_NEW",
        }),
      );
      return Attributes ? toRecipient(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure("UpdateItem(recipient claim)", error);
    }
  }

  async settle(fileId: string, email: string, leaseUntil: string, status: RecipientStatus, at: string): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(recipient settle)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.recipient(fileId, email),
        UpdateExpression: status === "sent" ? "SET #status = :status, sentAt = :at REMOVE leaseUntil" : "SET #status = :status REMOVE leaseUntil",
        ConditionExpression: "#status = :sending AND leaseUntil = :lease",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":status": status, ":sending": "sending", ":lease": leaseUntil, ...(status === "sent" ? { ":at": at } : {}) },
      }),
    );
  }

  async release(fileId: string, email: string, leaseUntil: string): Promise<void> {
    await conditionalWrite(
      this.db,
      "UpdateItem(recipient release)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.recipient(fileId, email),
        UpdateExpression: "SET #status = :queued REMOVE leaseUntil",
        ConditionExpression: "#status = :sending AND leaseUntil = :lease",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":queued": "queued", ":sending": "sending", ":lease": leaseUntil },
      }),
    );
  }

  async defaultGroups(workspaceId: string, projectId: string): Promise<string[]> {
    const items = await this.batchGet([keys.project(workspaceId, projectId)], "#pk, #sk, defaultGroupIds");
    const ids = items[0]?.defaultGroupIds;
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
  }

  async setDefaultGroups(workspaceId: string, projectId: string, groupIds: readonly string[]): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(project default groups)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.project(workspaceId, projectId),
        UpdateExpression: groupIds.length > 0 ? "SET defaultGroupIds = :ids" : "REMOVE defaultGroupIds",
        ConditionExpression: "attribute_exists(pk)",
        ...(groupIds.length > 0 ? { ExpressionAttributeValues: { ":ids": [...groupIds] } } : {}),
      }),
    );
  }
}
