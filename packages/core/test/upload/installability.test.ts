import { readFileSync } from "node:fs";
import { BufferRangeReader, inspectPackage } from "@hangar/inspect";
import { describe, expect, it } from "vitest";
import { ipaFixtures, mobileprovision } from "../../../inspect/fixtures/ipa-fixtures";
import { zipToBuffer } from "../../../inspect/fixtures/zip-writer";
import { toMetadata } from "../../src/adapters/s3/ranged-package-inspector";
import {
  Presign,
  completeUpload,
  defaultUploadSettings,
  installability,
  parseInput,
  presignUpload,
  type InspectedPackage,
  type PackageInspector,
  type StoredPackage,
} from "../../src";
import { MemoryFiles, MemoryStorage, apiKey, fixedClock, sequentialIds } from "../support/fakes";

const fixture = (name: string) => readFileSync(new URL(`../../../inspect/fixtures/${name}`, import.meta.url));
const links = { publicBaseUrl: "https://api.test", shareBaseUrl: "https://share.test" };

/** The real extractor over bytes in memory: what complete sees of a real package. */
class BytesInspector implements PackageInspector {
  constructor(private readonly bytes: Buffer) {}
  async inspect(pkg: StoredPackage): Promise<InspectedPackage> {
    return { metadata: toMetadata(await inspectPackage(new BufferRangeReader(this.bytes), { fileName: pkg.fileName })) };
  }
}

/** Uploads `bytes` through presign and complete at `completedAt`; answers complete's metadata. */
async function complete(bytes: Buffer, fileName: string, completedAt = "2026-11-21T23:00:00.000Z") {
  const files = new MemoryFiles();
  const storage = new MemoryStorage();
  // Presigned a minute before the complete (a pending upload lives 15 minutes).
  const clock = fixedClock(new Date(Date.parse(completedAt) - 60_000).toISOString());
  const deps = { files, storage, signer: storage, inspector: new BytesInspector(bytes), clock, ids: sequentialIds(), settings: defaultUploadSettings };
  const fileType = fileName.endsWith(".apk") ? "application/vnd.android.package-archive" : "application/octet-stream";
  const { key } = await presignUpload(deps, apiKey(), parseInput(Presign, { fileName, fileSize: bytes.length, fileType }));
  storage.objects.set(key, { size: bytes.length, contentType: fileType });
  clock.set(completedAt);
  return completeUpload(deps, apiKey(), { key, fileName, fileType, fileSize: bytes.length }, links);
}

/** The development fixture (xml-plist.ipa) with its profile's device list emptied. */
async function developmentIpaWithoutDevices(): Promise<Buffer> {
  const demo = ipaFixtures.find((f) => f.file === "xml-plist.ipa")!;
  const profile = {
    AppIDName: "Demo",
    Name: "Demo development",
    TeamIdentifier: ["TEAM123456"],
    ExpirationDate: new Date("2027-03-01T12:00:00.000Z"),
    ProvisionedDevices: [],
    Entitlements: { "application-identifier": "TEAM123456.com.example", "get-task-allow": true },
  };
  return zipToBuffer(
    demo.entries.map((entry) => (entry.name.endsWith("embedded.mobileprovision") ? { ...entry, data: mobileprovision(profile) } : entry)),
  );
}

describe("complete says whether testers can install the build from its link", () => {
  it("development, ad hoc and enterprise IPAs with a current profile are installable", async () => {
    for (const name of ["xml-plist.ipa", "binary-plist.ipa", "nested-bundles.ipa"]) {
      const { metadata } = await complete(fixture(`ipa/${name}`), name);
      expect(metadata, name).toMatchObject({ installable: true });
      expect(metadata, name).not.toHaveProperty("reason");
    }
  });

  it("an APK is always installable", async () => {
    const { metadata } = await complete(fixture("apk/aapt2-literal.apk"), "app.apk");
    expect(metadata).toMatchObject({ platform: "android", installable: true });
  });

  it("app_store_signed: an App Store profile (no devices, not enterprise)", async () => {
    const { metadata } = await complete(fixture("ipa/unicode-names.ipa"), "rocket.ipa");
    expect(metadata).toMatchObject({ provisioning: { kind: "app-store" }, installable: false, reason: "app_store_signed" });
  });

  it("profile_expired: the profile expired before the complete time, not before today", async () => {
    // xml-plist.ipa's development profile expires 2036-03-01T12:00Z.
    const before = await complete(fixture("ipa/xml-plist.ipa"), "demo.ipa", "2036-03-01T11:59:59.000Z");
    expect(before.metadata).toMatchObject({ installable: true });
    const after = await complete(fixture("ipa/xml-plist.ipa"), "demo.ipa", "2036-03-01T12:00:00.000Z");
    expect(after.metadata).toMatchObject({ installable: false, reason: "profile_expired" });
  });

  it("no_devices: a development profile that lists no device", async () => {
    const { metadata } = await complete(await developmentIpaWithoutDevices(), "demo.ipa");
    expect(metadata).toMatchObject({ provisioning: { kind: "development", provisionedDevices: 0 }, installable: false, reason: "no_devices" });
  });

  it("no_profile: an IPA without embedded.mobileprovision", async () => {
    const { metadata } = await complete(fixture("ipa/fallbacks.ipa"), "legacy.ipa");
    expect(metadata).toMatchObject({ installable: false, reason: "no_profile" });
  });

  it("keeps the spec's fields as they were", async () => {
    const result = await complete(fixture("ipa/unicode-names.ipa"), "rocket.ipa");
    // The spec's six, and Hangar's `diff` (what changed since the previous build: null here, no history port).
    expect(Object.keys(result).sort()).toEqual(["diff", "downloadUrl", "fileId", "message", "metadata", "shareUrl", "userKey"]);
    expect(result.diff).toBeNull();
    expect(result.metadata).toMatchObject({ appName: expect.any(String), bundleId: expect.any(String), version: expect.any(String) });
  });
});

describe("installability", () => {
  const now = new Date("2026-11-21T00:00:00Z");
  it("puts an App Store profile before its expiry, and expiry before an empty device list", () => {
    expect(installability({ platform: "ios", provisioning: { kind: "app-store", expiresAt: "2020-01-01T00:00:00Z" } }, now)).toEqual({ installable: false, reason: "app_store_signed" });
    expect(installability({ platform: "ios", provisioning: { kind: "ad-hoc", expiresAt: "2020-01-01T00:00:00Z", provisionedDevices: 0 } }, now)).toEqual({
      installable: false,
      reason: "profile_expired",
    });
  });

  it("never holds an enterprise profile to a device list", () => {
    expect(installability({ platform: "ios", provisioning: { kind: "enterprise", provisionedDevices: 0, expiresAt: "2030-01-01T00:00:00Z" } }, now)).toEqual({ installable: true });
  });
});
