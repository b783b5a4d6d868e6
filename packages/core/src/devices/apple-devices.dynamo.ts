import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionalWrite, queryAll } from "../adapters/dynamo/dynamo-errors";
import { keys } from "../adapters/dynamo/table-keys";
import type { AppleDeviceStore, RegistrableDevice } from "../ports/apple-device-registry.port";
import type { DocumentClient } from "../adapters/dynamo/document-client";

/**
 * The device items (docs/data-model.md, `WORKSPACE#<ws>` / `DEVICE#<UDID>`) as "Register with
 * Apple" reads and marks them. One paged Query of the workspace's device items rather than a gsi1
 * Query per id: a request names up to 100 devices of one workspace, which has at most 1,000 (a few
 * hundred KB, one or two pages), and a device of another workspace is then simply absent.
 */
export class DynamoAppleDeviceStore implements AppleDeviceStore {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async devicesOf(workspaceId: string): Promise<Map<string, RegistrableDevice>> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :sk)",
        ExpressionAttributeValues: { ":pk": `WORKSPACE#${workspaceId}`, ":sk": "DEVICE#" },
        ProjectionExpression: "deviceId, udid, #name, model, appleRegistration",
        ExpressionAttributeNames: { "#name": "name" },
      },
      "workspaceDevices",
    );
    return new Map(
      items.map((item) => [
        String(item.deviceId),
        {
          deviceId: String(item.deviceId),
          udid: String(item.udid),
          name: typeof item.name === "string" ? item.name : "",
          model: typeof item.model === "string" ? item.model : null,
          appleRegistration: item.appleRegistration ?? null,
        },
      ]),
    );
  }

  markRegistered(workspaceId: string, udid: string, registration: { at: string; appleDeviceId: string }): Promise<boolean> {
    return conditionalWrite(
      this.db,
      "UpdateItem(deviceAppleRegistration)",
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.device(workspaceId, udid),
        UpdateExpression: "SET appleRegistration = :registration",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":registration": registration },
      }),
    );
  }
}
