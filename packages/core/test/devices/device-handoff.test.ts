import { describe, expect, it } from "vitest";
import {
  DEVICE_HANDOFF_TTL_SECONDS,
  DeviceHandoffError,
  enrollmentReturnUrl,
  parseDeviceHandoff,
  redeemDeviceHandoff,
  signDeviceHandoff,
  type EnrollmentRecord,
} from "../../src/devices";

/**
 * The device cookie's hand-off from a separate share host to the portal (docs/devices.md): signed,
 * short-lived, single use, and only for the tester who started the enrollment.
 */
const NOW = new Date("2026-11-26T12:00:00Z");
const SECRET = new Uint8Array(32).fill(3);
const HASH = "a".repeat(64);
const DEVICE = { udid: "00008030-001A35E11A88802E", product: "iPhone15,2", version: "22B83", name: "QA iPhone" };
const SEPARATE = { publicBaseUrl: "https://hangar.example.com", shareBaseUrl: "https://get.example.com" };

function world(enrollment: Partial<EnrollmentRecord> = {}) {
  const record: EnrollmentRecord = { challengeHash: HASH, workspaceIds: ["ws_1"], email: "qa@example.com", returnTo: "/apps", createdAt: NOW.toISOString(), ttl: 0, device: DEVICE, ...enrollment };
  let spent = false;
  const deps = {
    enrollments: {
      enrollment: async (hash: string) => (hash === HASH ? record : undefined),
      takeHandoff: async () => (spent ? false : (spent = true)),
    },
    deviceCookieSecret: { bytes: async () => SECRET },
    clock: { now: () => NOW },
  };
  return { deps, spent: () => spent };
}

describe("the hand-off", () => {
  it("goes with the way back to a portal page only when the portal is on another host", () => {
    const back = enrollmentReturnUrl(SECRET, { challengeHash: HASH, returnTo: "/tester/apps/prj_1" }, SEPARATE, NOW);
    expect(back).toMatch(/^https:\/\/hangar\.example\.com\/tester\/apps\/prj_1#device=v1\.[\w-]+\.[\w-]+$/);
    expect(parseDeviceHandoff(SECRET, back.split("#device=")[1]!, NOW)).toBe(HASH);
    // Same host: the cookie is already there. Other pages live on the share host.
    expect(enrollmentReturnUrl(SECRET, { challengeHash: HASH, returnTo: "/apps" }, { publicBaseUrl: "https://h.example", shareBaseUrl: "https://h.example" }, NOW)).toBe("/apps");
    expect(enrollmentReturnUrl(SECRET, { challengeHash: HASH, returnTo: "/share/abcdefghijkl" }, SEPARATE, NOW)).toBe("/share/abcdefghijkl");
    expect(enrollmentReturnUrl(SECRET, { challengeHash: HASH, returnTo: "/apps/my-app" }, SEPARATE, NOW)).toBe("/apps/my-app");
  });

  it("lives five minutes and names nothing when forged", () => {
    const token = signDeviceHandoff(SECRET, HASH, NOW);
    expect(parseDeviceHandoff(SECRET, token, new Date(NOW.getTime() + (DEVICE_HANDOFF_TTL_SECONDS - 1) * 1000))).toBe(HASH);
    expect(parseDeviceHandoff(SECRET, token, new Date(NOW.getTime() + DEVICE_HANDOFF_TTL_SECONDS * 1000))).toBeUndefined();
    expect(parseDeviceHandoff(new Uint8Array(32).fill(4), token, NOW)).toBeUndefined();
    expect(parseDeviceHandoff(SECRET, `${token}x`, NOW)).toBeUndefined();
    expect(parseDeviceHandoff(SECRET, "v1.e30.", NOW)).toBeUndefined();
    expect(parseDeviceHandoff(SECRET, "", NOW)).toBeUndefined();
  });

  it("is redeemed once, by the tester who started the enrollment, for an answered portal enrollment", async () => {
    const token = signDeviceHandoff(SECRET, HASH, NOW);
    const other = world();
    await expect(redeemDeviceHandoff(other.deps, { email: "someone@example.com" }, { handoff: token })).rejects.toBeInstanceOf(DeviceHandoffError);
    expect(other.spent()).toBe(false);
    await expect(redeemDeviceHandoff(world({ device: undefined }).deps, { email: "qa@example.com" }, { handoff: token })).rejects.toBeInstanceOf(DeviceHandoffError);
    await expect(redeemDeviceHandoff(world({ returnTo: "/share/abcdefghijkl" }).deps, { email: "qa@example.com" }, { handoff: token })).rejects.toBeInstanceOf(DeviceHandoffError);

    const w = world();
    expect(await redeemDeviceHandoff(w.deps, { email: "qa@example.com" }, { handoff: token })).toEqual(DEVICE);
    await expect(redeemDeviceHandoff(w.deps, { email: "qa@example.com" }, { handoff: token })).rejects.toMatchObject({ issues: [{ field: "handoff" }] });
  });
});
