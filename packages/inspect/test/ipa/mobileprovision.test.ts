import { describe, expect, it } from "vitest";
import { mobileprovision } from "../../fixtures/ipa-fixtures";
import { parseMobileProvision, ProvisioningError } from "../../src/ipa/mobileprovision";
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
    expect(info).toEqual({
      name: "Profile",
      teamId: "ABCDE12345",
      teamName: "Team",
      expiresAt: "2030-01-02T03:04:05.000Z",
      provisionedDevices: devices,
      kind,
    });
  });

  it("finds the plist inside the signed envelope even with binary bytes around it", () => {
    const wrapped = Buffer.concat([Buffer.from([0x30, 0x82, 0x3c, 0x3f]), mobileprovision({ Name: "N" }), Buffer.from([0x3c, 0x2f])]);
    expect(parseMobileProvision(wrapped)).toEqual({ name: "N", provisionedDevices: 0, kind: "app-store" });
  });

  it("throws for an envelope without a plist or with a broken one", () => {
    expect(() => parseMobileProvision(Buffer.from("0\x82 nothing here"))).toThrow(ProvisioningError);
    expect(() => parseMobileProvision(Buffer.from("<?xml version='1.0'?><plist><dict><key></plist>"))).toThrow(PlistParseError);
  });
});
