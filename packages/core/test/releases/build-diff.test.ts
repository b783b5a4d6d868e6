import { describe, expect, it } from "vitest";
import { diffBuilds, parseChangeKinds, type BuildFacts } from "../../src/releases/build-diff";
import { compareVersions } from "../../src/releases/version-order";

const KEY_A = "a".repeat(64);
const KEY_B = "b".repeat(64);

const apk = (over: Partial<BuildFacts["metadata"]> = {}, fileSize = 1_000_000, fileId = "fil_new"): BuildFacts => ({
  fileId,
  fileSize,
  metadata: {
    appName: "Demo",
    bundleId: "com.example.demo",
    version: "1.0",
    platform: "android",
    buildNumber: "10",
    minOs: "24",
    targetSdk: "34",
    permissions: ["android.permission.INTERNET"],
    signing: { scheme: "v2", certificateSha256: [KEY_A] },
    ...over,
  },
});

/** The next build: one build number up, as a healthy pipeline makes it. */
const next = (build: BuildFacts): BuildFacts => ({ ...build, metadata: { ...build.metadata, buildNumber: String(Number(build.metadata.buildNumber) + 1) } });

const ipa = (provisioning: Record<string, unknown>, over: Partial<BuildFacts["metadata"]> = {}): BuildFacts => ({
  fileId: "fil_ipa",
  fileSize: 5_000_000,
  metadata: {
    appName: "Demo",
    bundleId: "com.example.demo",
    version: "1.0",
    platform: "ios",
    buildNumber: "7",
    minOs: "15.0",
    provisioning: { name: "Demo", kind: "ad-hoc", teamId: "TEAM1", expiresAt: "2027-01-01T00:00:00Z", provisionedDevices: 3, developerCertificateSha256: [KEY_A], ...provisioning },
    ...over,
  },
});

const kinds = (d: ReturnType<typeof diffBuilds>) => d.changes.map((c) => `${c.kind}:${c.severity}`);

describe("diffBuilds", () => {
  it("finds nothing between two builds that differ in nothing it reads", () => {
    const d = diffBuilds(apk({}, 1_000_000, "fil_old"), next(apk()));
    expect(d).toEqual({ previous: { fileId: "fil_old", version: "1.0", buildNumber: "10" }, changes: [] });
  });

  it("reports an added and a removed permission, a runtime permission as danger", () => {
    const d = diffBuilds(
      apk({ permissions: ["android.permission.INTERNET", "android.permission.WAKE_LOCK"] }),
      next(apk({ permissions: ["android.permission.CAMERA", "android.permission.INTERNET", "com.example.CUSTOM"] })),
    );
    expect(kinds(d)).toEqual(["permission-added:danger", "permission-added:warning", "permission-removed:info"]);
    expect(d.changes.map((c) => c.to ?? c.from)).toEqual(["android.permission.CAMERA", "com.example.CUSTOM", "android.permission.WAKE_LOCK"]);
  });

  it("reports a lower minSdk, a lower target SDK and a raised one", () => {
    expect(kinds(diffBuilds(apk(), next(apk({ minOs: "21", targetSdk: "33" }))))).toEqual(["min-os-lowered:warning", "target-sdk-lowered:warning"]);
    expect(kinds(diffBuilds(apk(), next(apk({ minOs: "26", targetSdk: "35" }))))).toEqual(["min-os-raised:warning", "target-sdk-raised:info"]);
  });

  it("reports a build number that went down or repeated as danger, numerically (9 < 10)", () => {
    expect(kinds(diffBuilds(apk({ buildNumber: "10" }), apk({ buildNumber: "9" })))).toEqual(["build-number-decreased:danger"]);
    expect(kinds(diffBuilds(apk({ buildNumber: "10" }), apk({ buildNumber: "11" })))).toEqual([]);
    const repeated = diffBuilds(apk({ version: "1.0" }), apk({ version: "1.1" }));
    expect(kinds(repeated)).toEqual(["build-number-repeated:danger", "version-changed:info"]);
    expect(repeated.changes[0]!.message).toMatch(/same as the previous/);
  });

  it("reports a changed signing key on Android as danger, and says nothing when either side is unknown", () => {
    const d = diffBuilds(apk(), next(apk({ signing: { scheme: "v3", certificateSha256: [KEY_B] } })));
    expect(kinds(d)).toEqual(["signing-key-changed:danger"]);
    expect(d.changes[0]).toMatchObject({ from: KEY_A, to: KEY_B });
    expect(diffBuilds(apk({ signing: undefined }), next(apk({ signing: { scheme: "v3", certificateSha256: [KEY_B] } }))).changes).toEqual([]);
    expect(diffBuilds(apk(), next(apk({ signing: { scheme: null, certificateSha256: [] } }))).changes).toEqual([]);
  });

  it("reports a doubled size as a warning and ignores small changes", () => {
    const d = diffBuilds(apk({}, 1_000_000), next(apk({}, 2_000_000)));
    expect(kinds(d)).toEqual(["size-changed:warning"]);
    expect(d.changes[0]!.message).toContain("+100 %");
    expect(kinds(diffBuilds(apk({}, 1_000_000), next(apk({}, 1_050_000))))).toEqual([]);
    expect(kinds(diffBuilds(apk({}, 1_000_000), next(apk({}, 800_000))))).toEqual(["size-changed:info"]);
  });

  it("reports a profile of another kind or team, fewer or more devices, another expiry and other certificates", () => {
    expect(kinds(diffBuilds(ipa({}), next(ipa({ kind: "development" }))))).toEqual(["profile-kind-changed:warning"]);
    expect(kinds(diffBuilds(ipa({}), next(ipa({ teamId: "TEAM2" }))))).toEqual(["team-changed:danger"]);
    expect(kinds(diffBuilds(ipa({}), next(ipa({ provisionedDevices: 5 }))))).toEqual(["profile-devices-changed:info"]);
    expect(kinds(diffBuilds(ipa({}), next(ipa({ provisionedDevices: 2 }))))).toEqual(["profile-devices-changed:warning"]);
    expect(kinds(diffBuilds(ipa({}), next(ipa({ expiresAt: "2026-12-01T00:00:00Z" }))))).toEqual(["profile-expiry-changed:warning"]);
    expect(kinds(diffBuilds(ipa({}), next(ipa({ developerCertificateSha256: [KEY_B] }))))).toEqual(["signing-key-changed:warning"]);
    expect(kinds(diffBuilds(ipa({ entitlements: ["aps-environment"] }), next(ipa({ entitlements: ["com.apple.developer.associated-domains"] }))))).toEqual([
      "entitlement-added:warning",
      "entitlement-removed:info",
    ]);
  });

  it("puts the most severe changes first", () => {
    const d = diffBuilds(apk({}, 1_000_000), apk({ version: "2.0", buildNumber: "9", signing: { scheme: "v2", certificateSha256: [KEY_B] } }, 3_000_000));
    expect(d.changes.map((c) => c.severity)).toEqual(["danger", "danger", "warning", "info"]);
  });
});

describe("compareVersions", () => {
  it("orders dotted numbers number by number and leaves other strings unordered", () => {
    expect(compareVersions("1.10", "1.9")).toBe(1);
    expect(compareVersions("2", "2.0.0")).toBe(0);
    expect(compareVersions("99999999999999999", "100000000000000000")).toBe(-1);
    expect(compareVersions("1.0-beta", "1.0")).toBeUndefined();
    expect(compareVersions("abc", "abc")).toBe(0);
  });
});

describe("parseChangeKinds", () => {
  it("expands group names and reports unknown ones", () => {
    expect(parseChangeKinds("signing-key-changed, build-number-not-increased,,nope")).toEqual({
      kinds: ["signing-key-changed", "build-number-decreased", "build-number-repeated"],
      unknown: ["nope"],
    });
  });
});
