import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mobileprovision } from "../../fixtures/ipa-fixtures";
import { MAX_DEVELOPER_CERTIFICATES, MAX_PROVISIONED_UDIDS, parseMobileProvision, ProvisioningError, readProfile } from "../../src/ipa/mobileprovision";
import { PlistParseError } from "../../src/ipa/plist";

const base = { Name: "Profile", TeamIdentifier: ["ABCDE12345"], TeamName: "Team", ExpirationDate: new Date("2030-01-02T03:04:05Z") };

describe("embedded.mobileprovision", () => {
  it.each([
    ["enterprise", { ProvisionsAllDevices: true, Entitlements: { "get-task-allow": false } }, 0],
    ["development", { ProvisionedDevices: ["a", "b"], Entitlements: { "get-task-allow": true } }, 2],
    ["ad-hoc", { ProvisionedDevices: ["a"], Entitlements: { "get-task-allow": false } }, 1],
    ["ad-hoc", { ProvisionedDevices: [] }, 0],
    ["app-store", { Entitlements: { "get-task-allow": false } }, 0],
  ] as const)("kind %s", (kind, extra, devices) => {
    const info = parseMobileProvision(mobileprovision({ ...base, ...extra }));
    const entitlements = "Entitlements" in extra ? { entitlements: ["get-task-allow"] } : {};
    expect(info).toEqual({
      name: "Profile",
      teamId: "ABCDE12345",
      teamName: "Team",
      expiresAt: "2030-01-02T03:04:05.000Z",
      provisionedDevices: devices,
      kind,
      developerCertificateSha256: [],
      ...entitlements,
    });
  });

  it("answers the entitlement keys the profile grants, sorted, never their values", () => {
    const info = parseMobileProvision(
      mobileprovision({ ...base, Entitlements: { "com.apple.developer.associated-domains": ["applinks:secret.example"], "aps-environment": "production" } }),
    );
    expect(info.entitlements).toEqual(["aps-environment", "com.apple.developer.associated-domains"]);
    expect(JSON.stringify(info)).not.toContain("secret.example");
  });

  it("finds the plist inside the signed envelope even with binary bytes around it", () => {
    const wrapped = Buffer.concat([Buffer.from([0x30, 0x82, 0x3c, 0x3f]), mobileprovision({ Name: "N" }), Buffer.from([0x3c, 0x2f])]);
    expect(parseMobileProvision(wrapped)).toEqual({ name: "N", provisionedDevices: 0, kind: "app-store", developerCertificateSha256: [] });
  });

  it("answers the profile's UUID and the SHA-256 of each developer certificate's DER", () => {
    const certificates = ["key-a", "key-b"].map((name) =>
      readFileSync(new URL(`../../fixtures/ipa/developer-certificates/${name}.cer`, import.meta.url)),
    );
    const info = parseMobileProvision(
      mobileprovision({ ...base, UUID: "0F6C37A2-5B1E-4D5A-9C1B-2E8D4F6A7B90", DeveloperCertificates: certificates }),
    );
    expect(info.uuid).toBe("0F6C37A2-5B1E-4D5A-9C1B-2E8D4F6A7B90");
    expect(info.developerCertificateSha256).toEqual(certificates.map((der) => createHash("sha256").update(der).digest("hex")));
    // The same digests openssl prints for the certificates (uppercase, colon-separated there).
    for (const [i, der] of certificates.entries()) {
      const openssl = execFileSync("openssl", ["x509", "-inform", "DER", "-noout", "-fingerprint", "-sha256"], { input: der }).toString();
      expect(openssl.trim().split("=")[1]?.replace(/:/g, "").toLowerCase()).toBe(info.developerCertificateSha256[i]);
    }
  });

  it("skips what is not a certificate's data, and hashes at most MAX_DEVELOPER_CERTIFICATES", () => {
    const der = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x07]);
    const mixed = parseMobileProvision(mobileprovision({ Name: "N", DeveloperCertificates: ["text", der, 7] }));
    expect(mixed.developerCertificateSha256).toEqual([createHash("sha256").update(der).digest("hex")]);
    const many = parseMobileProvision(
      mobileprovision({ Name: "N", DeveloperCertificates: Array.from({ length: MAX_DEVELOPER_CERTIFICATES + 5 }, () => der) }),
    );
    expect(many.developerCertificateSha256).toHaveLength(MAX_DEVELOPER_CERTIFICATES);
    expect(parseMobileProvision(mobileprovision({ Name: "N", DeveloperCertificates: "nope", UUID: 42 }))).toEqual({
      name: "N",
      provisionedDevices: 0,
      kind: "app-store",
      developerCertificateSha256: [],
      uuid: "42",
    });
  });

  it("throws for an envelope without a plist or with a broken one", () => {
    expect(() => parseMobileProvision(Buffer.from("0\x82 nothing here"))).toThrow(ProvisioningError);
    expect(() => parseMobileProvision(Buffer.from("<?xml version='1.0'?><plist><dict><key></plist>"))).toThrow(PlistParseError);
  });

  describe("the UDIDs an ad-hoc or development profile lists (docs/devices.md)", () => {
    const udid = (i: number) => `00008030-${i.toString(16).toUpperCase().padStart(16, "0")}`;

    it("keeps well-formed ones, uppercase, once each, in the profile's order", () => {
      const read = readProfile(
        mobileprovision({ ...base, ProvisionedDevices: [udid(2), "00008030-00000000000000ab", udid(2), "A".repeat(40), "short", 42, " " + udid(3) + " "] as never }),
      );
      expect(read.info.provisionedDevices).toBe(7);
      expect(read.udids).toEqual([udid(2), "00008030-00000000000000AB", "A".repeat(40), udid(3)]);
    });

    it("keeps at most MAX_PROVISIONED_UDIDS of a crafted profile", () => {
      const many = Array.from({ length: MAX_PROVISIONED_UDIDS + 50 }, (_, i) => udid(i));
      expect(readProfile(mobileprovision({ ...base, ProvisionedDevices: many })).udids).toEqual(many.slice(0, MAX_PROVISIONED_UDIDS));
    });

    it.each([
      ["enterprise", { ProvisionsAllDevices: true, ProvisionedDevices: [udid(1)] }],
      ["app-store", {}],
    ])("has none for %s profiles", (_kind, extra) => {
      expect(readProfile(mobileprovision({ ...base, ...extra })).udids).toBeUndefined();
    });

    it("never puts them in the profile's facts", () => {
      expect(JSON.stringify(parseMobileProvision(mobileprovision({ ...base, ProvisionedDevices: [udid(9)] })))).not.toContain(udid(9));
    });
  });
});
