import { PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { newDeviceId, type Device } from "@hangar/core/devices";
import { keys } from "@hangar/core/dynamo";
import { randomBytes } from "node:crypto";

/**
 * Device items written straight into the table, as the enroll callback leaves them
 * (docs/data-model.md: `WORKSPACE#<ws>` / `DEVICE#<UDID>`, gsi1 `DEVICE#<deviceId>` / `DEVICE`):
 * for tests of the dashboard's Devices page and of Register with Apple, which start from devices a
 * workspace already has. The enrollment itself is the enroll tests' (test/devices*.test.ts).
 */

/** A UDID of the 2018-and-later shape, random. */
export const newUdid = () => `00008${randomBytes(2).toString("hex").slice(0, 3).toUpperCase()}-${randomBytes(8).toString("hex").toUpperCase()}`;

/** A device as every device answer shows it (core's `Device`). */
export type SeededDevice = Device;

export async function seedDevice(doc: DynamoDBDocumentClient, tableName: string, workspaceId: string, given: Partial<SeededDevice> = {}): Promise<SeededDevice> {
  const device: SeededDevice = {
    deviceId: newDeviceId(),
    udid: newUdid(),
    name: "iPhone",
    product: "iPhone15,2",
    model: "iPhone 14 Pro",
    osVersion: "22B83",
    serial: null,
    email: null,
    registeredAt: new Date().toISOString(),
    appleRegistration: null,
    ...given,
  };
  await doc.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.device(workspaceId, device.udid),
        type: "device",
        workspaceId,
        ...device,
        updatedAt: device.registeredAt,
        gsi1pk: `DEVICE#${device.deviceId}`,
        gsi1sk: "DEVICE",
      },
    }),
  );
  return device;
}
