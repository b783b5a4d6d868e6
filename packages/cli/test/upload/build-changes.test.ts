import * as service from "@hangar/core/build-diff";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CHANGE_KINDS, CHANGE_KIND_GROUPS, diffOf, formatChanges, parseChangeKinds } from "../../src/client/build-changes";
import { FAKE_CLIENT_ID, FAKE_SECRET, startFakeHangar, type FakeHangar } from "./support/fake-hangar";
import { REPO_ROOT, runCli } from "./support/run-cli";

/**
 * The CLI's side of the diff (issue 24 item 3): its copy of the service's change kinds, how it
 * prints changes, and the gate's edges against the scriptable fake (the gate against the real
 * service: test/release-gate.test.ts).
 */

const APK = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-literal.apk");

describe("the change kinds", () => {
  it("are the service's, groups included", () => {
    expect(CHANGE_KINDS).toEqual(service.CHANGE_KINDS);
    expect(CHANGE_KIND_GROUPS).toEqual(service.CHANGE_KIND_GROUPS);
    for (const list of ["signing-key-changed, permission-added", "build-number-not-increased,team-changed", "nope,size-changed,,", "constructor,__proto__"]) {
      expect(parseChangeKinds(list), list).toEqual(service.parseChangeKinds(list));
    }
    // Names inherited from Object.prototype are unknown, not groups.
    expect(parseChangeKinds("constructor").unknown).toEqual(["constructor"]);
  });
});

describe("printing the changes", () => {
  const diff = {
    previous: { fileId: "fil_1", version: "2.10", buildNumber: "10" },
    changes: [
      { kind: "version-changed", severity: "info" as const, message: "Version 2.10 → 2.11" },
      { kind: "permission-added", severity: "danger" as const, message: "Permission added: \u001b[2Jandroid.permission.CAMERA\nforged line" },
    ],
  };

  it("puts the most severe first, names each kind, and keeps control characters out", () => {
    expect(formatChanges(diffOf({ diff }), false)).toBe(
      "  Changes since 2.10 (10):\n" +
        "    DANGER   Permission added: ?[2Jandroid.permission.CAMERA?forged line [permission-added]\n" +
        "    INFO     Version 2.10 → 2.11 [version-changed]\n",
    );
  });

  it("colors the severity on a terminal only", () => {
    expect(formatChanges(diffOf({ diff }), true)).toContain("\u001b[31mDANGER \u001b[0m");
    expect(formatChanges(diffOf({ diff }), false)).not.toContain("\u001b[");
  });

  it("says a first build and an unchanged build in one line, and nothing for a service without diffs", () => {
    expect(formatChanges(diffOf({ diff: null }), false)).toBe("  Changes:   none to show (the first build of this app in the project)\n");
    expect(formatChanges(diffOf({ diff: { ...diff, changes: [] } }), false)).toBe("  Changes:   none since 2.10 (10)\n");
    expect(formatChanges(diffOf({}), false)).toBe("");
  });
});

describe("hangar upload --fail-on (bin, fake service)", () => {
  let dir: string;
  let fake: FakeHangar;
  const env = () => ({ HANGAR_URL: fake.url, HANGAR_CLIENT_ID: FAKE_CLIENT_ID, HANGAR_CLIENT_SECRET: FAKE_SECRET });
  const answer = (extra: Record<string, unknown>) => ({
    status: 200,
    body: {
      message: "Upload completed",
      fileId: "file1",
      userKey: "ukfile1",
      downloadUrl: `${fake.url}/download/ukfile1`,
      shareUrl: `${fake.url}/share/ukfile1`,
      metadata: { appName: "Fake App", bundleId: "com.example.fake", version: "1.2.3", buildNumber: "45", platform: "android" },
      ...extra,
    },
  });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "hangar-cli-gate-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    fake = await startFakeHangar();
  });
  afterEach(async () => {
    await fake.close();
  });

  it("refuses an unknown kind, or an empty list, before sending anything (exit 2)", async () => {
    const typo = await runCli(["upload", APK, "--fail-on", "signing-key-change"], { env: env() });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("--fail-on: unknown change kind signing-key-change (known: version-changed,");
    const empty = await runCli(["upload", APK, "--fail-on", " , "], { env: env() });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("--fail-on needs at least one change kind");
    expect(fake.requests).toEqual([]);
  });

  it("exits 7 after the upload when the service sent no diff to check", async () => {
    fake.script.complete.push(answer({}));
    const run = await runCli(["upload", APK, "--fail-on", "permission-added", "-q"], { env: env() });
    expect(run.code).toBe(7);
    expect(run.stderr).toContain("the service reported no changes to check --fail-on against");
    expect(run.stdout).toContain("Share:");
  });

  it("names a group's kinds: build-number-not-increased catches a repeated build number", async () => {
    const diff = {
      previous: { fileId: "file0", version: "1.2.3", buildNumber: "45" },
      changes: [{ kind: "build-number-repeated", severity: "danger", message: "Build number 45 is the same as the previous build's", from: "45", to: "45" }],
    };
    fake.script.complete.push(answer({ diff }));
    const run = await runCli(["upload", APK, "--fail-on", "build-number-not-increased", "--json", "-q"], { env: env() });
    expect(run.code).toBe(7);
    expect(JSON.parse(run.stdout).diff).toEqual(diff);
    expect(run.stderr).toContain("- build-number-repeated: Build number 45 is the same as the previous build's");
    expect(run.stderr).toContain(`${fake.url}/files/file1`);
  });
});
