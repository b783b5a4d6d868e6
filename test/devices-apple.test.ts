import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { keys } from "@hangar/core/dynamo";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDevice, type SeededDevice } from "./support/devices-seed";
import { startFakeAppStoreConnect, type FakeAppStoreConnect } from "./support/fake-app-store-connect";
import { startStackProcess, type StackProcess } from "./support/local-stack-process";
import { accountOn, type StackAccount } from "./support/stack-account";

/**
 * Register with Apple end to end (issue 22 item 4, docs/devices.md): a local stack configured with
 * an App Store Connect key (the .p8 as a file and the base URL of a local fake, the two local-only
 * settings) registers a workspace's devices through `POST /api/workspaces/{workspaceId}/devices/apple`.
 * The fake verifies each token with the key's public key and each body's shape; the device items
 * record Apple's id. The shared stack has it off: test/workspace-roles.test.ts sees its 409.
 */

const ISSUER = "69a6de7e-0a4c-47e3-e053-5b8c7c11a4d1";
const KEY_ID = "ABCDE12345";
const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });

let fake: FakeAppStoreConnect;
let stack: StackProcess;
let dataDir: string;
let doc: DynamoDBDocumentClient;
let owner: StackAccount;
let viewer: StackAccount;
let devices: SeededDevice[];

beforeAll(async () => {
  fake = await startFakeAppStoreConnect({ publicKey: pair.publicKey, issuerId: ISSUER, keyId: KEY_ID });
  dataDir = mkdtempSync(join(tmpdir(), "hangar-asc-"));
  const keyFile = join(dataDir, "AuthKey_ABCDE12345.p8");
  writeFileSync(keyFile, pair.privateKey.export({ type: "pkcs8", format: "pem" }));
  stack = await startStackProcess(dataDir, {
    HANGAR_DYNAMODB_IN_MEMORY: "1",
    HANGAR_ASC_ENABLED: "1",
    HANGAR_ASC_ISSUER_ID: ISSUER,
    HANGAR_ASC_KEY_ID: KEY_ID,
    HANGAR_ASC_PRIVATE_KEY_FILE: keyFile,
    HANGAR_ASC_BASE_URL: fake.baseUrl,
  });
  const info = stack.info;
  doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials }));
  [owner, viewer] = await Promise.all([accountOn(info, "asc-owner"), accountOn(info, "asc-viewer")]);
  devices = await Promise.all([
    seedDevice(doc, info.tableName, owner.workspaceId, { name: "Ana's iPhone", email: "ana@example.com" }),
    seedDevice(doc, info.tableName, owner.workspaceId, { name: "QA iPad\twith a tab", product: "iPad13,18", model: "iPad (10th generation)" }),
    seedDevice(doc, info.tableName, owner.workspaceId, { name: "Old one" }),
  ]);
  // The third is in the team's Apple account already (added by hand on Apple's portal).
  fake.devices.set(devices[2]!.udid, { id: "HANDMADE01", name: "Old one" });
}, 240_000);

afterAll(async () => {
  doc?.destroy();
  await stack?.stop();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const stored = async (udid: string) =>
  (await doc.send(new GetCommand({ TableName: stack.info.tableName, Key: keys.device(owner.workspaceId, udid), ConsistentRead: true }))).Item;

describe("POST /api/workspaces/{workspaceId}/devices/apple", () => {
  it("registers new devices with App Store Connect, finds the ones Apple had, and records Apple's ids", async () => {
    const ids = devices.map((d) => d.deviceId);
    const reply = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: ids });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ registered: [ids[0], ids[1]], already: [ids[2]], failed: [] });

    // What Apple saw: every token verified with the public key, ES256, the issuer, the audience, ≤ 20 minutes.
    expect(fake.problems).toEqual([]);
    const posts = fake.requests.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(3);
    for (const request of fake.requests) {
      expect(request.header).toEqual({ alg: "ES256", kid: KEY_ID, typ: "JWT" });
      expect(request.claims).toMatchObject({ iss: ISSUER, aud: "appstoreconnect-v1" });
      expect((request.claims.exp as number) - (request.claims.iat as number)).toBeLessThanOrEqual(1200);
    }
    expect(posts.map((r) => r.body).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(
      [
        { data: { type: "devices", attributes: { name: "Ana's iPhone", udid: devices[0]!.udid, platform: "IOS" } } },
        // Apple gets one line: the tab became a space.
        { data: { type: "devices", attributes: { name: "QA iPad with a tab", udid: devices[1]!.udid, platform: "IOS" } } },
        { data: { type: "devices", attributes: { name: "Old one", udid: devices[2]!.udid, platform: "IOS" } } },
      ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    );

    // The items carry Apple's ids (the Devices page shows "Registered with Apple").
    expect((await stored(devices[0]!.udid))!.appleRegistration).toEqual({ at: expect.any(String), appleDeviceId: fake.devices.get(devices[0]!.udid)!.id });
    expect((await stored(devices[2]!.udid))!.appleRegistration).toEqual({ at: expect.any(String), appleDeviceId: "HANDMADE01" });

    // The workspace's audit log names each device Apple now has, who did it and how it went.
    const log = await owner.dash("GET", `/api/workspaces/${owner.workspaceId}/audit?action=device.registered_with_apple`);
    expect(log.status, log.text).toBe(200);
    const entries = (log.json.items as { target: { id: string }; actor: { email: string } }[]).sort((a, b) => ids.indexOf(a.target.id) - ids.indexOf(b.target.id));
    expect(entries).toEqual([
      expect.objectContaining({
        action: "device.registered_with_apple",
        actor: expect.objectContaining({ email: owner.email }),
        target: { type: "device", id: ids[0], label: "Ana's iPhone" },
        details: { outcome: "registered", appleDeviceId: fake.devices.get(devices[0]!.udid)!.id },
      }),
      expect.objectContaining({ target: { type: "device", id: ids[1], label: "QA iPad\twith a tab" }, details: { outcome: "registered", appleDeviceId: fake.devices.get(devices[1]!.udid)!.id } }),
      expect.objectContaining({ target: { type: "device", id: ids[2], label: "Old one" }, details: { outcome: "already", appleDeviceId: "HANDMADE01" } }),
    ]);
  });

  it("does not send a device Hangar registered again, and names what it cannot register", async () => {
    fake.requests.length = 0;
    fake.invalidUdids.add(devices[1]!.udid);
    const stranger = "dev_0000000000000000";
    const reply = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: [devices[0]!.deviceId, stranger] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ registered: [], already: [devices[0]!.deviceId], failed: [{ deviceId: stranger, message: "Not a device of this workspace (removed meanwhile?)" }] });
    expect(fake.requests).toEqual([]);
    // Nothing changed, so nothing new in the audit log.
    const log = await owner.dash("GET", `/api/workspaces/${owner.workspaceId}/audit?action=device.registered_with_apple`);
    expect(log.json.items).toHaveLength(3);
  });

  it("answers Apple's refusal per device, in Apple's words, and records nothing for it", async () => {
    const fresh = await seedDevice(doc, stack.info.tableName, owner.workspaceId, { name: "Refused" });
    fake.invalidUdids.add(fresh.udid);
    const reply = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: [fresh.deviceId] });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.failed).toEqual([{ deviceId: fresh.deviceId, message: `An invalid value '${fresh.udid}' was provided for the parameter 'udid'. (409)` }]);
    expect((await stored(fresh.udid))!.appleRegistration).toBeNull();
    const log = await owner.dash("GET", `/api/workspaces/${owner.workspaceId}/audit?action=device.registered_with_apple`);
    expect(log.json.items.map((e: { target: { id: string } }) => e.target.id)).not.toContain(fresh.deviceId);
  });

  it("validates the body (1 to 100 device ids) and keeps other workspaces out", async () => {
    const empty = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: [] });
    expect(empty.status).toBe(400);
    const tooMany = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: Array.from({ length: 101 }, (_, i) => `dev_${String(i).padStart(16, "0")}`) });
    expect(tooMany.status).toBe(400);
    const malformed = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: ["00008110-000A1C2E0E38801E"] });
    expect(malformed.status).toBe(400);
    // Another account's workspace is a 404, as an unknown id.
    const foreign = await viewer.dash("POST", `/api/workspaces/${owner.workspaceId}/devices/apple`, { deviceIds: [devices[0]!.deviceId] });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe("workspace_not_found");
  });
});
