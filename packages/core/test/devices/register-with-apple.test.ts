import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConflictError, ForbiddenError, type AppleDeviceStore, type AuditEntryInput, type Membership, type RegistrableDevice, type Role } from "../../src";
import { AppStoreConnectRegistry, appleDeviceName, registerDevicesWithApple } from "../../src/devices";
import { startFakeAppStoreConnect, type FakeAppStoreConnect } from "../../../../test/support/fake-app-store-connect";

/**
 * Register with Apple (docs/devices.md) against a local App Store Connect that checks what Apple
 * checks: the ES256 token's signature with the key's public key, its header and claims, and the
 * JSON:API body. The adapter is the real one; only Apple's host is replaced.
 */

const ISSUER = "57246542-96fe-1a63-e053-0824d011072a";
const KEY_ID = "2X9R4HXF34";
const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
const pem = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const clock = { now: () => new Date() };

let fake: FakeAppStoreConnect;
beforeAll(async () => {
  fake = await startFakeAppStoreConnect({ publicKey: keys.publicKey, issuerId: ISSUER, keyId: KEY_ID });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.problems.length = 0;
  fake.devices.clear();
  fake.invalidUdids.clear();
});

const registry = (privateKeyPem = pem) => new AppStoreConnectRegistry({ key: async () => ({ issuerId: ISSUER, keyId: KEY_ID, privateKeyPem }), clock, baseUrl: fake.baseUrl });

describe("the App Store Connect adapter", () => {
  it("registers a device with an ES256 token Apple accepts and the JSON:API body", async () => {
    const outcome = await registry().register({ name: "Ana's iPhone", udid: "00008110-000A1C2E0E38801E" });
    expect(fake.problems).toEqual([]);
    expect(outcome).toEqual({ kind: "registered", appleDeviceId: fake.devices.get("00008110-000A1C2E0E38801E")!.id });
    const [request] = fake.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v1/devices");
    expect(request!.header).toEqual({ alg: "ES256", kid: KEY_ID, typ: "JWT" });
    expect(request!.claims).toMatchObject({ iss: ISSUER, aud: "appstoreconnect-v1" });
    const { iat, exp } = request!.claims as { iat: number; exp: number };
    expect(exp - iat).toBeLessThanOrEqual(1200);
    expect(Math.abs(iat - Date.now() / 1000)).toBeLessThan(120);
    expect(request!.body).toEqual({ data: { type: "devices", attributes: { name: "Ana's iPhone", udid: "00008110-000A1C2E0E38801E", platform: "IOS" } } });
  });

  it("answers already for a device Apple has, with Apple's id looked up by UDID", async () => {
    fake.devices.set("00008030-001A35E11A88802E", { id: "APPLE42", name: "By hand" });
    const outcome = await registry().register({ name: "Ben", udid: "00008030-001A35E11A88802E" });
    expect(outcome).toEqual({ kind: "already", appleDeviceId: "APPLE42" });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/devices", "GET /v1/devices?filter%5Budid%5D=00008030-001A35E11A88802E&limit=1"]);
    expect(fake.problems).toEqual([]);
  });

  it("reports Apple's refusal in Apple's words", async () => {
    fake.invalidUdids.add("0000000000000000000000000000000000000000");
    const outcome = await registry().register({ name: "Bad", udid: "0000000000000000000000000000000000000000" });
    expect(outcome).toEqual({ kind: "failed", message: "An invalid value '0000000000000000000000000000000000000000' was provided for the parameter 'udid'. (409)" });
  });

  it("a token signed with another key is refused by the fake (it checks the signature), and reported as a key problem", async () => {
    const other = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const outcome = await registry(other).register({ name: "Ana", udid: "00008110-000A1C2E0E38801E" });
    expect(fake.problems).toEqual(["POST /v1/devices: signature does not verify with the key's public key"]);
    expect(outcome.kind).toBe("failed");
    expect(outcome.kind === "failed" && outcome.message).toMatch(/refused the API key \(401\)/);
    expect(fake.devices.size).toBe(0);
  });

  it("signs once for a batch: the token is reused while it lives", async () => {
    const adapter = registry();
    await adapter.register({ name: "A", udid: "00008110-000A1C2E0E38801A" });
    await adapter.register({ name: "B", udid: "00008110-000A1C2E0E38801B" });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]!.claims).toEqual(fake.requests[1]!.claims);
  });

  it("sends names Apple takes: one line, no control characters, at most 50 characters", () => {
    expect(appleDeviceName("Ana's\tiPhone\n(work)")).toBe("Ana's iPhone (work)");
    expect(appleDeviceName("x".repeat(80))).toHaveLength(50);
    expect(appleDeviceName("  \u0007 ")).toBe("iPhone");
  });
});

describe("registerDevicesWithApple", () => {
  const WS = "ws_0123456789abcdef";
  const device = (n: number, extra: Partial<RegistrableDevice> = {}): RegistrableDevice => ({
    deviceId: `dev_000000000000000${n}`,
    udid: `00008110-000A1C2E0E3880${String(n).padStart(2, "0")}`,
    name: `Phone ${n}`,
    model: "iPhone 14 Pro",
    appleRegistration: null,
    ...extra,
  });

  function deps(role: Role, configured = true) {
    const stored = new Map([device(1), device(2), device(3, { appleRegistration: { at: "2026-01-01T00:00:00.000Z", appleDeviceId: "OLD" } }), device(4, { name: "" })].map((d) => [d.deviceId, d]));
    const marked: { udid: string; appleDeviceId: string | null }[] = [];
    const devices: AppleDeviceStore = {
      devicesOf: async () => new Map(stored),
      markRegistered: async (_ws, udid, registration) => {
        marked.push({ udid, appleDeviceId: registration.appleDeviceId });
        return true;
      },
    };
    const membership = async (workspaceId: string, userId: string): Promise<Membership | undefined> => (workspaceId === WS ? { workspaceId, userId, role, joinedAt: "2026-01-01T00:00:00.000Z" } : undefined);
    const audited: AuditEntryInput[] = [];
    const audit = { record: async (entry: AuditEntryInput) => void audited.push(entry) };
    return { deps: { workspaces: { membership }, devices, apple: configured ? registry() : undefined, audit, clock }, marked, audited };
  }

  it("registers new devices, skips ones Hangar registered, names strangers as failed, in the order asked", async () => {
    fake.devices.set(device(2).udid, { id: "APPLE2", name: "By hand" });
    const { deps: d, marked, audited } = deps("developer");
    const ids = ["dev_0000000000000004", "dev_0000000000000001", "dev_0000000000000002", "dev_0000000000000003", "dev_9999999999999999"];
    const answer = await registerDevicesWithApple(d, { userId: "u1" }, { workspaceId: WS, deviceIds: ids });
    expect(answer).toEqual({
      registered: ["dev_0000000000000004", "dev_0000000000000001"],
      already: ["dev_0000000000000002", "dev_0000000000000003"],
      failed: [{ deviceId: "dev_9999999999999999", message: "Not a device of this workspace (removed meanwhile?)" }],
    });
    expect(fake.problems).toEqual([]);
    // A device without a name goes to Apple under its model.
    expect(fake.devices.get(device(4).udid)!.name).toBe("iPhone 14 Pro");
    expect(marked.sort((a, b) => a.udid.localeCompare(b.udid))).toEqual([
      { udid: device(1).udid, appleDeviceId: fake.devices.get(device(1).udid)!.id },
      { udid: device(2).udid, appleDeviceId: "APPLE2" },
      { udid: device(4).udid, appleDeviceId: fake.devices.get(device(4).udid)!.id },
    ]);
    // One audit entry per device whose record changed; none for the one sent before or the stranger.
    expect(audited.map((e) => [e.target?.id, e.details?.outcome]).sort()).toEqual([
      ["dev_0000000000000001", "registered"],
      ["dev_0000000000000002", "already"],
      ["dev_0000000000000004", "registered"],
    ]);
    expect(audited.find((e) => e.target?.id === "dev_0000000000000002")).toEqual({
      workspaceId: WS,
      actor: { userId: "u1" },
      action: "device.registered_with_apple",
      target: { type: "device", id: "dev_0000000000000002", label: "Phone 2" },
      details: { outcome: "already", appleDeviceId: "APPLE2" },
    });
  });

  it("is 409 apple_not_configured when the stage has no key, after the access check", async () => {
    const off = deps("developer", false).deps;
    await expect(registerDevicesWithApple(off, { userId: "u1" }, { workspaceId: WS, deviceIds: ["dev_0000000000000001"] })).rejects.toMatchObject({ code: "apple_not_configured" });
    await expect(registerDevicesWithApple(off, { userId: "u1" }, { workspaceId: WS, deviceIds: ["dev_0000000000000001"] })).rejects.toBeInstanceOf(ConflictError);
    await expect(registerDevicesWithApple(deps("viewer", false).deps, { userId: "u1" }, { workspaceId: WS, deviceIds: ["dev_0000000000000001"] })).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("is forbidden to viewers, and a 404 outside the workspace", async () => {
    await expect(registerDevicesWithApple(deps("viewer").deps, { userId: "u1" }, { workspaceId: WS, deviceIds: ["dev_0000000000000001"] })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(registerDevicesWithApple(deps("owner").deps, { userId: "u1" }, { workspaceId: "ws_ffffffffffffffff", deviceIds: ["dev_0000000000000001"] })).rejects.toMatchObject({ code: "workspace_not_found" });
    expect(fake.requests).toEqual([]);
  });
});
