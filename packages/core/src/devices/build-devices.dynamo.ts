import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { conditionalWrite, dynamoFailure, getItem } from "../adapters/dynamo/dynamo-errors";
import { gsi1, keys } from "../adapters/dynamo/table-keys";
import type { BuildDevicesStore, BuildProfile, UnlistedDevice, UnlistedOutcome } from "./build-verdicts";
import { modelName } from "./device-models";
import { MAX_DEVICE_NAME_LENGTH, MAX_DEVICES_PER_WORKSPACE } from "./devices.schema";
import { newDeviceId } from "./enrollment";

/** The stored UDIDs as a list, whether written as a list or a string set. */
function udidsOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((u): u is string => typeof u === "string");
  if (value instanceof Set) return [...value].filter((u): u is string => typeof u === "string");
  return undefined;
}

/**
 * The verdict's reads and its one write on the table: the file item's workspace and UDIDs, and a
 * device item (`WORKSPACE#<ws>` / `DEVICE#<UDID>`, the shape the enroll callback writes; fields in
 * docs/data-model.md) for a device a build's profile does not list.
 */
export class DynamoBuildDevices implements BuildDevicesStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async profileOf(fileId: string): Promise<BuildProfile | undefined> {
    const item = await getItem(this.db, this.tableName, keys.file(fileId), "file profile");
    if (!item) return undefined;
    const udids = udidsOf(item.provisionedUdids);
    return { ...(typeof item.workspaceId === "string" ? { workspaceId: item.workspaceId } : {}), ...(udids ? { provisionedUdids: udids } : {}) };
  }

  async recordUnlisted({ workspaceId, claim, email }: UnlistedDevice, now: Date): Promise<UnlistedOutcome> {
    const key = keys.device(workspaceId, claim.udid);
    // Seen before (the usual case on a second visit): one read, no write, no count.
    if (await getItem(this.db, this.tableName, key, "device")) return "known";
    if ((await this.count(workspaceId)) >= MAX_DEVICES_PER_WORKSPACE) return "full";
    const deviceId = newDeviceId();
    const at = now.toISOString();
    const model = modelName(claim.product);
    const made = await conditionalWrite(
      this.db,
      "PutItem(device)",
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...key,
          type: "device",
          deviceId,
          workspaceId,
          udid: claim.udid,
          name: (claim.name ?? model ?? claim.product).slice(0, MAX_DEVICE_NAME_LENGTH),
          product: claim.product,
          model,
          osVersion: claim.version,
          serial: null,
          email,
          registeredAt: at,
          updatedAt: at,
          appleRegistration: null,
          gsi1pk: gsi1.device(deviceId),
          gsi1sk: "DEVICE",
        },
        // A concurrent visit (or the enroll callback) wrote it first: theirs stays.
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return made ? "recorded" : "known";
  }

  /** The workspace's devices (a COUNT Query of its partition's `DEVICE#` items: 1,000 small items fit one page). */
  private async count(workspaceId: string): Promise<number> {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    try {
      do {
        const page = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk AND begins_with(sk, :device)",
            ExpressionAttributeValues: { ":pk": `WORKSPACE#${workspaceId}`, ":device": "DEVICE#" },
            Select: "COUNT",
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        total += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start);
    } catch (error) {
      throw dynamoFailure("Query(devices count)", error);
    }
    return total;
  }
}
