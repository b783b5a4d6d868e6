import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancelledConditions, conditionalWrite, dynamoFailure, getItem, isConditionFailure, queryAll } from "../adapters/dynamo/dynamo-errors";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { DeviceClaim } from "./device-cookie";
import type { DeviceRecord, DeviceStore, EnrolledDevice, EnrollmentRecord, EnrollmentStore, RecordOptions, RecordOutcome, TesterWorkspaces } from "./device-store.port";
import type { DocumentClient } from "../adapters/dynamo/document-client";

type Item = Record<string, any>;

function toRecord(item: Item): DeviceRecord {
  return {
    deviceId: item.deviceId,
    workspaceId: item.workspaceId,
    udid: item.udid,
    name: item.name,
    product: item.product,
    model: item.model ?? null,
    osVersion: item.osVersion,
    serial: item.serial ?? null,
    email: item.email ?? null,
    registeredAt: item.registeredAt,
    updatedAt: item.updatedAt ?? item.registeredAt,
    appleRegistration: item.appleRegistration ?? null,
    ...(item.renamed === true ? { renamed: true } : {}),
  };
}

/**
 * Devices and enrollments in the single table (docs/data-model.md). The workspace's limit is
 * checked by counting its device items before a new one is created (a COUNT query of one
 * partition, about one page at the limit): two enrollments at the very same moment may pass it by
 * one, which a limit against runaway growth tolerates. `record` is the only writer of new device
 * items (the enroll callback, and the tester pages' "the team has been told" with `ifAbsent`).
 */
export class DynamoDevices implements DeviceStore, EnrollmentStore, TesterWorkspaces {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async list(workspaceId: string): Promise<DeviceRecord[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":prefix": "DEVICE#" },
      },
      "devices",
    );
    return items.map(toRecord);
  }

  async byId(deviceId: string): Promise<DeviceRecord | undefined> {
    let item: Item | undefined;
    try {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk AND gsi1sk = :sk",
          ExpressionAttributeValues: { ":pk": gsi1.device(deviceId), ":sk": "DEVICE" },
          Limit: 1,
        }),
      );
      item = out.Items?.[0];
    } catch (error) {
      throw dynamoFailure("Query(device by id)", error);
    }
    if (!item) return undefined;
    // The index is eventually consistent: read the item itself, so a device just removed is gone.
    const fresh = await getItem(this.db, this.tableName, keys.device(item.workspaceId, item.udid), "device", { consistent: true });
    return fresh && fresh.deviceId === deviceId ? toRecord(fresh) : undefined;
  }

  private async count(workspaceId: string): Promise<number> {
    let total = 0;
    let start: Item | undefined;
    try {
      do {
        const page = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":prefix": "DEVICE#" },
            Select: "COUNT",
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        total += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
    } catch (error) {
      throw dynamoFailure("Query(count devices)", error);
    }
    return total;
  }

  async record(device: EnrolledDevice, max: number, { ifAbsent = false }: RecordOptions = {}): Promise<RecordOutcome> {
    const key = keys.device(device.workspaceId, device.udid);
    const existing = await getItem(this.db, this.tableName, key, "device", { consistent: true });
    // Seen before (the verdict's usual case on a second visit): one read, no count, no write.
    if (existing && ifAbsent) return "exists";
    if (existing) {
      await this.update(device, existing);
      return "updated";
    }
    if ((await this.count(device.workspaceId)) >= max) return "limit_reached";
    // With a check that the workspace is there and not being deleted: its purge ends with a Query of
    // its partition, so a device put after that would outlive it.
    let created = true;
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...key, type: "device", ...device, appleRegistration: null, gsi1pk: gsi1.device(device.deviceId), gsi1sk: "DEVICE" },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              ConditionCheck: {
                TableName: this.tableName,
                Key: keys.workspace(device.workspaceId),
                ConditionExpression: "attribute_exists(pk) AND NOT (deleting = :yes)",
                ExpressionAttributeValues: { ":yes": true },
              },
            },
          ],
        }),
      );
    } catch (error) {
      const failed = cancelledConditions(error);
      if (!failed) throw dynamoFailure("TransactWriteItems(device)", error);
      if (failed[1]) return "workspace_gone";
      created = false;
    }
    if (created) return "created";
    // Written at the same moment by another request (an enrollment, a tester page): create-only keeps theirs,
    if (ifAbsent) return "exists";
    // an enrollment updates it.
    const now = await getItem(this.db, this.tableName, key, "device", { consistent: true });
    if (now) await this.update(device, now);
    return "updated";
  }

  private async update(device: EnrolledDevice, existing: Item): Promise<void> {
    const name = existing.renamed === true ? existing.name : device.name;
    const email = existing.email ?? device.email;
    await conditionalWrite(
      this.db,
      "UpdateItem(device)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.device(device.workspaceId, device.udid),
        UpdateExpression: "SET product = :product, model = :model, osVersion = :os, serial = :serial, updatedAt = :at, email = :email, #name = :name",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#name": "name" },
        ExpressionAttributeValues: {
          ":product": device.product,
          ":model": device.model,
          ":os": device.osVersion,
          ":serial": device.serial,
          ":at": device.updatedAt,
          ":email": email,
          ":name": name,
        },
      }),
    );
  }

  async rename(device: Pick<DeviceRecord, "workspaceId" | "udid" | "deviceId">, name: string, at: string): Promise<DeviceRecord | undefined> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.device(device.workspaceId, device.udid),
          UpdateExpression: "SET #name = :name, renamed = :yes, updatedAt = :at",
          ConditionExpression: "deviceId = :id",
          ExpressionAttributeNames: { "#name": "name" },
          ExpressionAttributeValues: { ":name": name, ":yes": true, ":at": at, ":id": device.deviceId },
          ReturnValues: "ALL_NEW",
        }),
      );
      return out.Attributes ? toRecord(out.Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure("UpdateItem(rename device)", error);
    }
  }

  remove(device: Pick<DeviceRecord, "workspaceId" | "udid" | "deviceId">): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "DeleteItem(device)",
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.device(device.workspaceId, device.udid),
        ConditionExpression: "deviceId = :id",
        ExpressionAttributeValues: { ":id": device.deviceId },
      }),
    );
  }

  async createEnrollment(enrollment: EnrollmentRecord): Promise<void> {
    const { challengeHash, ...rest } = enrollment;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.enrollment(challengeHash), type: "enrollment", challengeHash, ...rest },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(enrollment)", error);
    }
  }

  async enrollment(challengeHash: string, now: Date): Promise<EnrollmentRecord | undefined> {
    try {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.enrollment(challengeHash), ConsistentRead: true }));
      if (!Item || Item.ttl * 1000 <= now.getTime()) return undefined;
      return {
        challengeHash,
        workspaceIds: Item.workspaceIds ?? [],
        email: Item.email ?? null,
        returnTo: Item.returnTo,
        createdAt: Item.createdAt,
        ttl: Item.ttl,
        ...(Item.device ? { device: Item.device as DeviceClaim } : {}),
      };
    } catch (error) {
      throw dynamoFailure("GetItem(enrollment)", error);
    }
  }

  attachDevice(challengeHash: string, device: DeviceClaim, now: Date): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(enrollment)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.enrollment(challengeHash),
        UpdateExpression: "SET device = :device",
        ConditionExpression: "attribute_exists(pk) AND #ttl > :now AND (attribute_not_exists(device) OR device.udid = :udid)",
        ExpressionAttributeNames: { "#ttl": "ttl" },
        ExpressionAttributeValues: { ":device": device, ":now": Math.floor(now.getTime() / 1000), ":udid": device.udid },
      }),
    );
  }

  takeHandoff(challengeHash: string, now: Date): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(enrollment hand-off)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.enrollment(challengeHash),
        UpdateExpression: "SET handedOffAt = :at",
        ConditionExpression: "attribute_exists(pk) AND #ttl > :now AND attribute_exists(device) AND attribute_not_exists(handedOffAt)",
        ExpressionAttributeNames: { "#ttl": "ttl" },
        ExpressionAttributeValues: { ":at": now.toISOString(), ":now": Math.floor(now.getTime() / 1000) },
      }),
    );
  }

  async workspacesOf(email: string): Promise<string[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        IndexName: gsi1.name,
        KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
        ExpressionAttributeValues: { ":pk": gsi1.tester(email), ":prefix": "GROUP#" },
        ProjectionExpression: "workspaceId",
      },
      "tester groups",
    );
    return [...new Set(items.map((i) => i.workspaceId).filter((w): w is string => typeof w === "string"))];
  }
}
