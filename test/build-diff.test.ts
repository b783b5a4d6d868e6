import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFixture, upload } from "./support/api";
import { dash, signedIn } from "./support/accounts";
import { newDashboardKey, newProject, uploadIpa } from "./support/dashboard";

/**
 * `GET /api/files/{fileId}/diff` (issue 24): what changed since the previous build of the same app,
 * or since `?against=`, on APKs made by aapt2 and apksigner
 * (packages/inspect/fixtures/build-release-fixtures.ts, build-signing-fixtures.ts).
 */
const FIXTURES = join(import.meta.dirname, "../packages/inspect/fixtures/apk");
const release = (name: string) => readFixture(join(FIXTURES, "release", name));
const signing = (name: string) => readFixture(join(FIXTURES, "signing", name));

type Change = { kind: string; severity: string; from?: unknown; to?: unknown };
const kinds = (changes: Change[]) => changes.map((c) => `${c.kind}:${c.severity}`);

describe("build diff", () => {
  it("compares each build with the previous one of the same app, and any two builds with ?against=", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b, "Release");
    const key = await newDashboardKey(b, projectId);
    const base = (await upload(key, "base.apk", release("base.apk"))).completed.json;
    // Another app in between does not count as the previous build.
    await uploadIpa(key, "Other.ipa");
    const added = (await upload(key, "permission-added.apk", release("permission-added.apk"))).completed.json;

    const first = await dash(b, "GET", `/api/files/${base.fileId}/diff`);
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ fileId: base.fileId, diff: null });

    const second = await dash(b, "GET", `/api/files/${added.fileId}/diff`);
    expect(second.status).toBe(200);
    expect(second.json.diff.previous).toEqual({ fileId: base.fileId, version: "2.10", buildNumber: "10" });
    expect(kinds(second.json.diff.changes)).toEqual(["permission-added:danger", "permission-added:warning", "version-changed:info"]);
    expect(second.json.diff.changes.map((c: Change) => c.to)).toEqual(["android.permission.CAMERA", "android.permission.WAKE_LOCK", "2.11"]);

    const lowered = (await upload(key, "min-sdk-lowered.apk", release("min-sdk-lowered.apk"))).completed.json;
    const vsBase = await dash(b, "GET", `/api/files/${lowered.fileId}/diff?against=${base.fileId}`);
    expect(kinds(vsBase.json.diff.changes)).toEqual(["min-os-lowered:warning", "version-changed:info"]);
    // Its previous build is permission-added: the same build number, and the permissions went away.
    const vsPrevious = await dash(b, "GET", `/api/files/${lowered.fileId}/diff`);
    expect(kinds(vsPrevious.json.diff.changes)).toEqual(["build-number-repeated:danger", "min-os-lowered:warning", "permission-removed:info", "permission-removed:info"]);

    const decreased = (await upload(key, "build-decreased.apk", release("build-decreased.apk"))).completed.json;
    const down = await dash(b, "GET", `/api/files/${decreased.fileId}/diff?against=${base.fileId}`);
    expect(kinds(down.json.diff.changes)).toEqual(["build-number-decreased:danger", "version-changed:info"]);

    const bigger = (await upload(key, "bigger.apk", release("bigger.apk"))).completed.json;
    const size = await dash(b, "GET", `/api/files/${bigger.fileId}/diff?against=${base.fileId}`);
    expect(kinds(size.json.diff.changes)).toEqual(["size-changed:warning", "version-changed:info"]);
  }, 120_000);

  it("reports a build signed with another key as danger (apksigner, keys A and B)", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b, "Signed");
    const key = await newDashboardKey(b, projectId);
    await upload(key, "a.apk", signing("signed-v2v3-rsa.apk"));
    const second = (await upload(key, "b.apk", signing("signed-v2-ec.apk"))).completed.json;
    const diff = await dash(b, "GET", `/api/files/${second.fileId}/diff`);
    expect(kinds(diff.json.diff.changes)).toEqual(["build-number-repeated:danger", "signing-key-changed:danger"]);
  }, 60_000);

  it("refuses ?against= a build of another project or a malformed id, and answers 404 for another account's build", async () => {
    const { b } = await signedIn();
    const one = await newProject(b, "One");
    const two = await newProject(b, "Two");
    const k1 = await newDashboardKey(b, one.projectId);
    const k2 = await newDashboardKey(b, two.projectId);
    const x = (await upload(k1, "base.apk", release("base.apk"))).completed.json;
    const y = (await upload(k2, "base.apk", release("base.apk"))).completed.json;
    const cross = await dash(b, "GET", `/api/files/${x.fileId}/diff?against=${y.fileId}`);
    expect(cross.status).toBe(400);
    expect(JSON.stringify(cross.json)).toContain("against");
    expect((await dash(b, "GET", `/api/files/${x.fileId}/diff?against=../x`)).status).toBe(400);

    const { b: stranger } = await signedIn();
    expect((await dash(stranger, "GET", `/api/files/${x.fileId}/diff`)).status).toBe(404);
    expect((await dash(b, "GET", `/api/files/${x.fileId}/diff?against=${"f".repeat(20)}`)).status).toBe(404);
  }, 60_000);
});
