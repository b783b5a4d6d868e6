import { describe, expect, it } from "vitest";
import { deviceOfUserAgent, installOffer, type Device } from "../../src/links";

const now = new Date("2026-11-25T12:00:00.000Z");
const ios = (provisioning?: Record<string, unknown>) => ({ metadata: { appName: "A", bundleId: "a", version: "1", platform: "ios" as const, ...(provisioning ? { provisioning } : {}) } });
const android = { metadata: { appName: "A", bundleId: "a", version: "1", platform: "android" as const } };
const adHoc = ios({ kind: "ad-hoc", expiresAt: "2036-01-01T00:00:00Z", provisionedDevices: 3 });
const labels = (offer: ReturnType<typeof installOffer>) => offer.actions.map((a) => `${a.primary ? "*" : ""}${a.label}`);
const offer = (file: Parameters<typeof installOffer>[0], device: Device, insecure = false) => installOffer(file, device, { insecure, now });

describe("the install decision", () => {
  it("reads the device from the User-Agent; iPadOS Safari (a Mac agent) is a desktop", () => {
    expect(deviceOfUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)")).toBe("ios");
    expect(deviceOfUserAgent("Mozilla/5.0 (Linux; Android 14; Pixel 8)")).toBe("android");
    expect(deviceOfUserAgent("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Version/17.1 Safari/605.1.15")).toBe("desktop");
    expect(deviceOfUserAgent(undefined)).toBe("desktop");
  });

  it("an installable iOS build: Install first on an iPhone, Install on iPhone or iPad and a QR code on desktops, Download only on Android", () => {
    expect(labels(offer(adHoc, "ios"))).toEqual(["*Install", "Download IPA"]);
    expect(offer(adHoc, "ios").actions.map((a) => a.action)).toEqual(["install", "download"]);
    expect(labels(offer(adHoc, "desktop"))).toEqual(["*Install on iPhone or iPad", "Download IPA"]);
    expect(offer(adHoc, "desktop").qrTap).toBe("Install");
    expect(offer(adHoc, "ios").qrTap).toBeUndefined();
    const onAndroid = offer(adHoc, "android");
    expect(labels(onAndroid)).toEqual(["Download IPA"]);
    expect(onAndroid.notices).toEqual([{ kind: "wrong_platform", platform: "ios" }]);
  });

  it("names the registered devices of development and ad hoc builds, not of enterprise ones", () => {
    expect(offer(adHoc, "ios").registeredDevices).toBe(3);
    expect(offer(ios({ kind: "development", expiresAt: "2036-01-01T00:00:00Z", provisionedDevices: 1 }), "ios").registeredDevices).toBe(1);
    expect(offer(ios({ kind: "enterprise", expiresAt: "2036-01-01T00:00:00Z" }), "ios").registeredDevices).toBeUndefined();
  });

  it.each([
    ["app_store_signed", ios({ kind: "app-store", expiresAt: "2036-01-01T00:00:00Z" })],
    ["profile_expired", ios({ kind: "ad-hoc", expiresAt: "2020-01-02T00:00:00Z", provisionedDevices: 3 })],
    ["no_devices", ios({ kind: "ad-hoc", expiresAt: "2036-01-01T00:00:00Z", provisionedDevices: 0 })],
    ["no_profile", ios()],
  ] as const)("an iOS build iOS refuses (%s) gets no Install anywhere, Download as the primary button, and says why", (reason, file) => {
    for (const device of ["ios", "desktop"] as const) {
      const o = offer(file, device, true);
      expect(labels(o)).toEqual(["*Download IPA"]);
      // The refusal is what matters: no https notice beside it.
      expect(o.notices).toEqual([{ kind: "not_installable", reason }]);
      expect(o.registeredDevices).toBeUndefined();
    }
    expect(offer(file, "desktop").qrTap).toBe("Download IPA");
  });

  it("over plain http Install stays, beside a notice that iOS needs https (not on Android, where it does not matter)", () => {
    expect(offer(adHoc, "ios", true).notices).toEqual([{ kind: "needs_https" }]);
    expect(labels(offer(adHoc, "ios", true))).toEqual(["*Install", "Download IPA"]);
    expect(offer(adHoc, "desktop", true).notices).toEqual([{ kind: "needs_https" }]);
    expect(offer(adHoc, "android", true).notices).toEqual([{ kind: "wrong_platform", platform: "ios" }]);
  });

  it("an APK: Download first on Android and desktops, outlined on an iPhone with a notice", () => {
    expect(labels(offer(android, "android"))).toEqual(["*Download APK"]);
    expect(offer(android, "android").notices).toEqual([]);
    expect(labels(offer(android, "desktop"))).toEqual(["*Download APK"]);
    expect(offer(android, "desktop").qrTap).toBe("Download APK");
    expect(labels(offer(android, "ios"))).toEqual(["Download APK"]);
    expect(offer(android, "ios").notices).toEqual([{ kind: "wrong_platform", platform: "android" }]);
  });
});
