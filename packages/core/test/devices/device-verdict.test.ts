import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildVerdicts, deviceVerdict, modelName, signDeviceCookie, type BuildProfiles, type DeviceStore, type EnrolledDevice, type RecordOptions, type RecordOutcome } from "../../src/devices";

const NOW = new Date("2026-11-26T12:00:00Z");
const IN = "00008030-001A35E11A88802E";
const OUT = "00008110-000A1B2C3D4E5F60";
const adHoc = (kind = "ad-hoc", expiresAt = "2027-06-01T00:00:00Z") => ({
  metadata: { platform: "ios", provisioning: { kind, expiresAt, provisionedDevices: 2 } },
  provisionedUdids: [IN, "0123456789ABCDEF0123456789ABCDEF01234567"],
});
const claim = (udid: string) => ({ udid, product: "iPhone15,2", version: "18.1", name: "Anna's iPhone" });

describe("deviceVerdict", () => {
  it("says whether the cookie's device is in a development or ad hoc profile, and names it", () => {
    expect(deviceVerdict(adHoc(), claim(IN), NOW)).toEqual({
      kind: "in-profile",
      device: { name: "Anna's iPhone", model: "iPhone 14 Pro", product: "iPhone15,2", osVersion: "18.1", udid: IN },
    });
    expect(deviceVerdict(adHoc("development"), claim(OUT), NOW)).toMatchObject({ kind: "not-in-profile", device: { udid: OUT } });
    // A lower-case stored UDID (an old record) still matches.
    expect(deviceVerdict({ ...adHoc(), provisionedUdids: [IN.toLowerCase()] }, claim(IN), NOW).kind).toBe("in-profile");
    expect(deviceVerdict(adHoc(), undefined, NOW)).toEqual({ kind: "unknown-device" });
  });

  it("is not-applicable where a device list says nothing: Android, App Store, enterprise, expired, no UDIDs stored", () => {
    const cases = [
      { metadata: { platform: "android" } },
      adHoc("app-store"),
      adHoc("enterprise"),
      adHoc("ad-hoc", "2026-01-01T00:00:00Z"),
      { metadata: adHoc().metadata },
      { ...adHoc(), provisionedUdids: [] },
      { metadata: { platform: "ios" }, provisionedUdids: [IN] },
    ];
    for (const build of cases) {
      expect(deviceVerdict(build, claim(IN), NOW)).toEqual({ kind: "not-applicable" });
      expect(deviceVerdict(build, undefined, NOW)).toEqual({ kind: "not-applicable" });
    }
  });

  it("names models it knows and leaves the identifier otherwise", () => {
    expect(modelName("iPad13,18")).toBe("iPad (10th generation)");
    expect(modelName("iPhone99,1")).toBeNull();
    expect(modelName("toString")).toBeNull();
    expect(deviceVerdict(adHoc(), { udid: IN, product: "iPhone99,1", version: "26.0" }, NOW).device).toEqual({
      name: null,
      model: null,
      product: "iPhone99,1",
      osVersion: "26.0",
      udid: IN,
    });
  });
});

describe("buildVerdicts", () => {
  const secret = new Uint8Array(32).fill(7);
  function world(outcome: RecordOutcome = "created") {
    const reads: string[] = [];
    const writes: EnrolledDevice[] = [];
    const calls: { max: number; options?: RecordOptions }[] = [];
    const builds: BuildProfiles = {
      profileOf: async (fileId) => {
        reads.push(fileId);
        return fileId === "fil_old" ? { workspaceId: "ws_1" } : { workspaceId: "ws_1", provisionedUdids: [IN] };
      },
    };
    const devices: Pick<DeviceStore, "record"> = {
      record: async (device, max, options) => {
        writes.push(device);
        calls.push({ max, options });
        return outcome;
      },
    };
    let secretReads = 0;
    const sessionReads: string[] = [];
    // One live tester session (`live`) and one past its end (`ended`), as the store keeps them.
    const testerSessions = {
      create: async () => {},
      get: async (email: string, sessionId: string) => {
        sessionReads.push(email);
        const live = sessionId === sha256(TOKEN_LIVE) ? "2026-12-01T00:00:00Z" : sessionId === sha256(TOKEN_ENDED) ? "2026-11-01T00:00:00Z" : undefined;
        return live && { sessionId, email, createdAt: "2026-10-01T00:00:00Z", expiresAt: live };
      },
      delete: async () => {},
    };
    const deps = { builds, devices, deviceCookieSecret: { bytes: async () => (secretReads++, secret) }, testerSessions, clock: { now: () => NOW } };
    return { deps, reads, writes, calls, secretReads: () => secretReads, sessionReads };
  }
  const ios = (fileId: string) => ({ fileId, metadata: adHoc().metadata });
  const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
  const TOKEN_LIVE = "L".repeat(43);
  const TOKEN_ENDED = "E".repeat(43);
  const testerCookie = (email: string, token: string) => `${Buffer.from(email, "utf8").toString("base64url")}.${token}`;

  it("records a device from a share or app page under the signed-in tester's address, and nobody's without a live session", async () => {
    const signedIn = world();
    const cookie = signDeviceCookie(secret, claim(OUT));
    await buildVerdicts(signedIn.deps, { builds: [ios("fil_1")], cookies: [cookie], email: null, testerCookie: testerCookie("qa@example.com", TOKEN_LIVE) });
    expect(signedIn.writes.map(({ workspaceId, udid, email }) => ({ workspaceId, udid, email }))).toEqual([{ workspaceId: "ws_1", udid: OUT, email: "qa@example.com" }]);

    for (const other of [testerCookie("qa@example.com", TOKEN_ENDED), testerCookie("qa@example.com", "X".repeat(43)), "not-a-cookie", undefined]) {
      const anonymous = world();
      await buildVerdicts(anonymous.deps, { builds: [ios("fil_1")], cookies: [cookie], email: null, testerCookie: other });
      expect(anonymous.writes.map(({ workspaceId, udid, email }) => ({ workspaceId, udid, email })), String(other)).toEqual([{ workspaceId: "ws_1", udid: OUT, email: null }]);
    }

    // A page that names its tester keeps that address; a view that records nothing reads no session.
    const named = world();
    await buildVerdicts(named.deps, { builds: [ios("fil_1")], cookies: [cookie], email: "link@example.com", testerCookie: testerCookie("qa@example.com", TOKEN_LIVE) });
    expect(named.writes.map((d) => d.email)).toEqual(["link@example.com"]);
    expect(named.sessionReads).toEqual([]);
    const inside = world();
    await buildVerdicts(inside.deps, { builds: [ios("fil_1")], cookies: [signDeviceCookie(secret, claim(IN))], email: null, testerCookie: testerCookie("qa@example.com", TOKEN_LIVE) });
    expect(inside.sessionReads).toEqual([]);
  });

  it("records a device missing from a profile once per workspace, for the tester the request names", async () => {
    const w = world();
    const cookie = signDeviceCookie(secret, claim(OUT));
    const verdicts = await buildVerdicts(w.deps, { builds: [ios("fil_1"), ios("fil_2"), ios("fil_old")], cookies: ["not-ours", cookie], email: "qa@example.com" });
    expect(verdicts.get("fil_1")).toMatchObject({ kind: "not-in-profile", told: true });
    expect(verdicts.get("fil_2")).toMatchObject({ kind: "not-in-profile", told: true });
    expect(verdicts.get("fil_old")).toEqual({ kind: "not-applicable" });
    // The enroll callback's writer, create-only, under the workspace's limit of devices.
    expect(w.writes).toEqual([
      {
        deviceId: expect.stringMatching(/^dev_[0-9A-Za-z]{16}$/),
        workspaceId: "ws_1",
        udid: OUT,
        name: "Anna's iPhone",
        product: "iPhone15,2",
        model: "iPhone 14 Pro",
        osVersion: "18.1",
        serial: null,
        email: "qa@example.com",
        registeredAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
      },
    ]);
    expect(w.calls).toEqual([{ max: 1000, options: { ifAbsent: true } }]);
  });

  it("tells the team when the workspace has the device already, names a nameless one by its model", async () => {
    const known = world("exists");
    const { name: _, ...nameless } = claim(OUT);
    const out = await buildVerdicts(known.deps, { builds: [ios("fil_1")], cookies: [signDeviceCookie(secret, nameless)], email: null });
    expect(out.get("fil_1")).toMatchObject({ kind: "not-in-profile", told: true });
    expect(known.writes.map((d) => d.name)).toEqual(["iPhone 14 Pro"]);
  });

  it("tells nothing when the workspace is full, writes nothing for a device in the profile, and reads nothing for other builds", async () => {
    const full = world("limit_reached");
    const out = await buildVerdicts(full.deps, { builds: [ios("fil_1")], cookies: [signDeviceCookie(secret, claim(OUT))], email: null });
    expect(out.get("fil_1")).toMatchObject({ kind: "not-in-profile", told: false });
    // A workspace gone or being deleted has not been told either (test/devices.test.ts: nothing is written then).
    const gone = world("workspace_gone");
    const late = await buildVerdicts(gone.deps, { builds: [ios("fil_1")], cookies: [signDeviceCookie(secret, claim(OUT))], email: null });
    expect(late.get("fil_1")).toMatchObject({ kind: "not-in-profile", told: false });

    const w = world();
    const inside = await buildVerdicts(w.deps, { builds: [ios("fil_1")], cookies: [signDeviceCookie(secret, claim(IN))], email: null });
    expect(inside.get("fil_1")).toMatchObject({ kind: "in-profile" });
    expect(w.writes).toEqual([]);

    const none = world();
    const android = await buildVerdicts(none.deps, { builds: [{ fileId: "fil_a", metadata: { platform: "android" } }], cookies: [signDeviceCookie(secret, claim(IN))], email: null });
    expect(android.get("fil_a")).toEqual({ kind: "not-applicable" });
    expect(none.reads).toEqual([]);
    expect(none.secretReads()).toBe(0);
  });

  it("takes the UDIDs a page already holds (the share item's copy) without reading the file item, and reads for a build without them", async () => {
    const w = world();
    const cookie = signDeviceCookie(secret, claim(OUT));
    const carried = { ...ios("fil_new"), workspaceId: "ws_2", provisionedUdids: [IN] };
    const verdicts = await buildVerdicts(w.deps, { builds: [carried, ios("fil_1")], cookies: [cookie], email: null });
    expect(verdicts.get("fil_new")).toMatchObject({ kind: "not-in-profile", told: true });
    expect(verdicts.get("fil_1")).toMatchObject({ kind: "not-in-profile", told: true });
    // Only the build passed without its UDIDs (an old share item) was read; the device is recorded in both workspaces.
    expect(w.reads).toEqual(["fil_1"]);
    expect(w.writes.map((d) => d.workspaceId).sort()).toEqual(["ws_1", "ws_2"]);

    const inside = world();
    const ok = await buildVerdicts(inside.deps, { builds: [{ ...carried, provisionedUdids: [IN.toLowerCase()] }], cookies: [signDeviceCookie(secret, claim(IN))], email: null });
    expect(ok.get("fil_new")).toMatchObject({ kind: "in-profile" });
    expect(inside.reads).toEqual([]);
  });

  it("treats a forged or foreign cookie as no device", async () => {
    const w = world();
    const forged = signDeviceCookie(new Uint8Array(32).fill(8), claim(OUT));
    const verdicts = await buildVerdicts(w.deps, { builds: [ios("fil_1")], cookies: [forged], email: null });
    expect(verdicts.get("fil_1")).toEqual({ kind: "unknown-device" });
    expect(w.writes).toEqual([]);
  });
});
