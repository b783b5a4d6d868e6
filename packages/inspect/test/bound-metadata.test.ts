import { describe, expect, it } from "vitest";
import { OVERSIZED_NAME_LENGTH, oversizedEverythingIpa, oversizedNameIpa } from "../fixtures/oversized-metadata";
import { BufferRangeReader, inspectPackage } from "../src";
import type { InspectResult } from "../src";
import { boundMetadata, metadataBounds } from "../src/bound-metadata";

/** What the service stores and answers: the result as JSON, without the icon's bytes. */
function jsonBytes(result: InspectResult): number {
  const { icon, ...rest } = result;
  return Buffer.byteLength(JSON.stringify({ ...rest, ...(icon ? { icon: { path: icon.path } } : {}) }));
}

const codePoints = (s: string) => Array.from(s).length;

function expectWithinBounds(result: InspectResult): void {
  const b = metadataBounds;
  expect(codePoints(result.appName)).toBeLessThanOrEqual(b.nameLength);
  expect(codePoints(result.bundleId)).toBeLessThanOrEqual(b.bundleIdLength);
  for (const v of [result.version, result.buildNumber, result.minOs, result.targetSdk ?? ""]) {
    expect(codePoints(v)).toBeLessThanOrEqual(b.versionLength);
  }
  expect(result.permissions?.length ?? 0).toBeLessThanOrEqual(b.permissions);
  for (const p of result.permissions ?? []) expect(codePoints(p)).toBeLessThanOrEqual(b.permissionLength);
  expect(Object.keys(result.labels ?? {}).length).toBeLessThanOrEqual(b.locales);
  for (const [locale, label] of Object.entries(result.labels ?? {})) {
    expect(codePoints(locale)).toBeLessThanOrEqual(b.localeLength);
    expect(codePoints(label)).toBeLessThanOrEqual(b.nameLength);
  }
  expect(result.locales?.length ?? 0).toBeLessThanOrEqual(b.locales);
  expect(result.supportedPlatforms?.length ?? 0).toBeLessThanOrEqual(b.supportedPlatforms);
  for (const w of result.warnings) expect(codePoints(w)).toBeLessThanOrEqual(b.warningLength);
  expect(jsonBytes(result)).toBeLessThanOrEqual(b.totalJsonBytes);
  expect(JSON.stringify(result)).not.toMatch(/\\ud[89a-f]/i); // no unpaired surrogates left
}

const base: InspectResult = {
  platform: "android",
  appName: "Demo",
  bundleId: "com.example.demo",
  version: "1.0",
  buildNumber: "1",
  minOs: "21",
  warnings: [],
};

describe("metadata bounds", () => {
  it("cuts the 600 KB CFBundleName of a 2 KB IPA and says so", async () => {
    const ipa = await oversizedNameIpa();
    expect(ipa.length).toBeLessThan(4096); // a few KB on the wire, 600 KB of name
    const result = await inspectPackage(new BufferRangeReader(ipa), { fileName: "tiny.ipa" });
    expect(result.appName).toBe("A".repeat(metadataBounds.nameLength));
    expect(result.labels?.[""]).toBe(result.appName);
    expect(result.warnings).toContain(
      `appName was cut to ${metadataBounds.nameLength} characters (it had ${OVERSIZED_NAME_LENGTH})`,
    );
    expect(result.warnings.some((w) => w.startsWith("labels:"))).toBe(true);
    expectWithinBounds(result);
  });

  it("bounds every IPA field at once and names each one it cut", async () => {
    const result = await inspectPackage(new BufferRangeReader(await oversizedEverythingIpa()));
    expectWithinBounds(result);
    expect(result.bundleId.startsWith("com.example.AAAA")).toBe(true);
    expect(result.labels?.[""]).toBe("A".repeat(metadataBounds.nameLength)); // the default label is kept
    for (const field of ["appName", "bundleId", "version", "buildNumber", "minOs", "supportedPlatforms", "labels", "locales"]) {
      expect(result.warnings.some((w) => w.startsWith(`${field} `) || w.startsWith(`${field}:`)), field).toBe(true);
    }
  });

  it("keeps a real app's metadata exactly as extracted", () => {
    const real: InspectResult = {
      ...base,
      appName: "Exemple Café — Édition β 日本語",
      targetSdk: "35",
      permissions: Array.from({ length: 150 }, (_, i) => `android.permission.SOMETHING_QUITE_LONG_NUMBER_${i}`),
      labels: Object.fromEntries([["", "Demo"], ...Array.from({ length: 120 }, (_, i) => [`l${i}`, `Démo ${i} 🚀`])]),
      locales: Array.from({ length: 120 }, (_, i) => `l${i}`),
      icon: { path: "res/mipmap-xxxhdpi/ic_launcher.png", data: Buffer.alloc(4), width: 192, height: 192 },
      warnings: ["The manifest declares no versionCode; Android treats it as 0"],
    };
    expect(boundMetadata(real)).toEqual(real);
  });

  it("keeps the whole under the byte budget when every character is expensive", () => {
    // Emoji take 4 bytes in UTF-8 and controls 6 in JSON (\u0001): the per-field bounds alone allow ~1 MB.
    const emoji = "😀".repeat(1000);
    const control = "\u0001".repeat(1000);
    const result = boundMetadata({
      ...base,
      appName: emoji,
      permissions: Array.from({ length: 5000 }, () => control),
      labels: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`${i}${control}`, emoji])),
      locales: Array.from({ length: 5000 }, () => emoji),
      warnings: Array.from({ length: 500 }, () => control),
    });
    expectWithinBounds(result);
    expect(codePoints(result.appName)).toBe(metadataBounds.nameLength);
    expect(result.warnings.some((w) => w.includes(`under ${metadataBounds.totalJsonBytes / 1024} KiB`))).toBe(true);
    expect(result.warnings.some((w) => w.startsWith("permissions: kept the first 500 of 5000"))).toBe(true);
  });

  it("replaces unpaired surrogates and never splits a pair when cutting", () => {
    const result = boundMetadata({ ...base, appName: "a\ud800b", bundleId: `${"x".repeat(254)}😀`, version: "\udc00" });
    expect(result.appName).toBe("a\ufffdb");
    expect(result.bundleId).toBe(`${"x".repeat(254)}😀`);
    expect(result.version).toBe("\ufffd");
    expect(boundMetadata({ ...base, bundleId: `${"x".repeat(255)}😀` }).bundleId).toBe("x".repeat(255));
  });

  it("bounds the extractor's own warnings, which quote package text", () => {
    const result = boundMetadata({ ...base, warnings: Array.from({ length: 300 }, (_, i) => `${i} ${"w".repeat(10_000)}`) });
    expectWithinBounds(result);
    expect(result.warnings.length).toBeLessThanOrEqual(metadataBounds.warnings + 1);
    expect(result.warnings.at(-1)).toMatch(/^warnings: kept the first \d+ of 300$/);
  });

  it("keeps a __proto__ locale an ordinary key", () => {
    const labels = JSON.parse('{"": "Demo", "__proto__": "Proto"}') as Record<string, string>;
    const result = boundMetadata({ ...base, labels });
    expect(Object.keys(result.labels ?? {})).toEqual(["", "__proto__"]);
    expect(Object.getPrototypeOf(result.labels)).toBe(Object.prototype);
  });
});

describe("signer fingerprints", () => {
  const digest = (i: number) => i.toString(16).padStart(64, "0");

  it("keeps signing and the profile's UUID and certificates as they are, within bounds", () => {
    const signing = { scheme: "v3" as const, certificateSha256: [digest(1)] };
    const provisioning = { name: "P", provisionedDevices: 0, kind: "app-store" as const, uuid: "A-B", developerCertificateSha256: [digest(2)] };
    const out = boundMetadata({ ...base, signing, provisioning });
    expect(out.signing).toEqual(signing);
    expect(out.provisioning).toEqual(provisioning);
    expect(out.warnings).toEqual([]);
  });

  it("keeps the first metadataBounds.certificates of a longer list, and cuts a UUID like the profile's other strings", () => {
    const many = Array.from({ length: metadataBounds.certificates + 20 }, (_, i) => digest(i));
    const out = boundMetadata({
      ...base,
      signing: { scheme: "v2", certificateSha256: many },
      provisioning: { name: "P", provisionedDevices: 0, kind: "app-store", uuid: "u".repeat(1000), developerCertificateSha256: many },
    });
    expect(out.signing?.certificateSha256).toEqual(many.slice(0, metadataBounds.certificates));
    expect(out.provisioning?.developerCertificateSha256).toEqual(many.slice(0, metadataBounds.certificates));
    expect(out.provisioning?.uuid).toHaveLength(metadataBounds.provisioningLength);
    expect(out.warnings).toEqual([
      `provisioning.developerCertificateSha256: kept the first ${metadataBounds.certificates} of ${many.length}`,
      `provisioning.uuid was cut to ${metadataBounds.provisioningLength} characters (it had 1000)`,
      `signing.certificateSha256: kept the first ${metadataBounds.certificates} of ${many.length}`,
    ]);
    expectWithinBounds(out);
  });
});
