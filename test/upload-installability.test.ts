import { beforeAll, describe, expect, it } from "vitest";
import { ipaFixtures, mobileprovision } from "../packages/inspect/fixtures/ipa-fixtures";
import { zipToBuffer } from "../packages/inspect/fixtures/zip-writer";
import { call, newKey, readFixture, upload, type Key } from "./support/api";
import { fixtures } from "./support/fixtures";

/**
 * Complete on the local stack says whether testers can install the build from its link: the
 * committed App Store fixture, and development IPAs built here from the fixture definitions with an
 * expired profile and with an empty device list (so the answers do not change as the calendar does).
 */
let key: Key;
beforeAll(async () => {
  key = await newKey();
});

/** The development fixture (xml-plist.ipa) with its profile replaced. */
function developmentIpa(profile: { expires: Date; devices: string[] }): Promise<Buffer> {
  const demo = ipaFixtures.find((f) => f.file === "xml-plist.ipa")!;
  const provision = mobileprovision({
    AppIDName: "Demo",
    Name: "Demo development",
    TeamIdentifier: ["TEAM123456"],
    ExpirationDate: profile.expires,
    ProvisionedDevices: profile.devices,
    Entitlements: { "application-identifier": "TEAM123456.com.example", "get-task-allow": true },
  });
  return zipToBuffer(demo.entries.map((e) => (e.name.endsWith("embedded.mobileprovision") ? { ...e, data: provision } : e)));
}

const FAR_FUTURE = new Date("2099-01-01T00:00:00Z");
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

describe("complete's installable and reason", () => {
  it("app_store_signed for an App Store-signed IPA", async () => {
    const path = fixtures("ipa").find((f) => f.endsWith("unicode-names.ipa"))!;
    const { completed } = await upload(key, "rocket.ipa", readFixture(path));
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json.metadata).toMatchObject({ provisioning: { kind: "app-store" }, installable: false, reason: "app_store_signed" });
    // The spec's fields are there as before, and the diff against the previous build (issue 24).
    expect(Object.keys(completed.json).sort()).toEqual(["diff", "downloadUrl", "fileId", "message", "metadata", "shareUrl", "userKey"]);
  });

  it("profile_expired for a profile that expired before the upload", async () => {
    const bytes = await developmentIpa({ expires: new Date("2024-01-01T00:00:00Z"), devices: ["00008030-000A1"] });
    const { completed } = await upload(key, "expired.ipa", new Uint8Array(bytes));
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json.metadata).toMatchObject({ installable: false, reason: "profile_expired" });
  });

  it("no_devices for a development profile listing no device, and the share page says so with no Install link", async () => {
    const bytes = await developmentIpa({ expires: FAR_FUTURE, devices: [] });
    const { completed } = await upload(key, "nodevices.ipa", new Uint8Array(bytes));
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json.metadata).toMatchObject({ installable: false, reason: "no_devices" });
    const page = await call(`/share/${completed.json.userKey}`, { headers: { Accept: "text/html", "User-Agent": IPHONE } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Cannot be installed over the air.");
    expect(page.text).toContain("lists no devices");
    expect(page.text).not.toContain("itms-services://");
  });

  it("installable for a current development profile with devices, and for an APK", async () => {
    const ipa = await developmentIpa({ expires: FAR_FUTURE, devices: ["00008030-000A1", "00008030-000A2"] });
    const ios = await upload(key, "demo.ipa", new Uint8Array(ipa));
    expect(ios.completed.status, ios.completed.text).toBe(200);
    expect(ios.completed.json.metadata).toMatchObject({ platform: "ios", installable: true });
    expect(ios.completed.json.metadata).not.toHaveProperty("reason");

    const apk = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
    const android = await upload(key, "app.apk", readFixture(apk));
    expect(android.completed.status, android.completed.text).toBe(200);
    expect(android.completed.json.metadata).toMatchObject({ platform: "android", installable: true });
  });
});
