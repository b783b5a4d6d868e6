import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { complete, put, readFixture, upload } from "./support/api";
import { dash } from "./support/accounts";
import { eventually, itemsMentioning, newDashboardKey, newProject, outsideTheAuditLog } from "./support/dashboard";
import { member } from "./support/workspaces";

/**
 * The diff complete stores (issue 24 item 2, docs/release-safety.md): the complete answer carries
 * what changed since the previous build of the same app (null for a first build), a repeated
 * complete answers the same, the dashboard's diff route agrees with it, the file list marks a
 * build with `danger` changes, and the signed build.completed webhook carries the same diff.
 * APKs made by aapt2 and apksigner (packages/inspect/fixtures/build-release-fixtures.ts).
 */
const FIXTURES = join(import.meta.dirname, "../packages/inspect/fixtures/apk");
const release = (name: string) => readFixture(join(FIXTURES, "release", name));

type Change = { kind: string; severity: string; message: string; from?: unknown; to?: unknown };
const kinds = (changes: Change[]) => changes.map((c) => `${c.kind}:${c.severity}`);

let server: Server | undefined;
afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A loopback receiver of webhook deliveries: the raw bodies and their signature headers. */
async function receiver() {
  const received: { body: string; headers: Record<string, string> }[] = [];
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const header = (name: string) => String(req.headers[name]);
      received.push({ body, headers: { "webhook-id": header("webhook-id"), "webhook-timestamp": header("webhook-timestamp"), "webhook-signature": header("webhook-signature") } });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

describe("the diff at complete", () => {
  it("answers null for a first build, the changes for the next, the same again on a repeated complete, and the webhook carries it", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Gate");
    const key = await newDashboardKey(owner.b, projectId);
    const hook = await receiver();
    const created = await dash(owner.b, "POST", `/api/workspaces/${owner.personal}/webhooks`, { url: hook.url, events: ["build.completed"] });
    expect(created.status, created.text).toBe(201);

    const first = await upload(key, "base.apk", release("base.apk"));
    expect(first.completed.status, first.completed.text).toBe(200);
    expect(first.completed.json.diff).toBeNull();

    const second = await upload(key, "permission-added.apk", release("permission-added.apk"));
    expect(second.completed.status, second.completed.text).toBe(200);
    const diff = second.completed.json.diff as { previous: unknown; changes: Change[] };
    expect(diff.previous).toEqual({ fileId: first.completed.json.fileId, version: "2.10", buildNumber: "10" });
    expect(kinds(diff.changes)).toEqual(["permission-added:danger", "permission-added:warning", "version-changed:info"]);
    expect(diff.changes.map((c) => c.to)).toEqual(["android.permission.CAMERA", "android.permission.WAKE_LOCK", "2.11"]);
    for (const change of diff.changes) expect(change.message).toEqual(expect.any(String));

    // Repeated: the stored diff, not a new comparison (a third build in between changes nothing).
    await upload(key, "bigger.apk", release("bigger.apk"));
    const again = await complete(key, { ...second.declared, key: second.presigned.json.key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(second.completed.json);

    // The dashboard's diff route says the same as complete did.
    const route = await dash(owner.b, "GET", `/api/files/${second.completed.json.fileId}/diff`);
    expect(route.json).toEqual({ fileId: second.completed.json.fileId, diff });

    // The list marks the build with danger changes; the first build has none.
    const list = await dash(owner.b, "GET", `/api/projects/${projectId}/files`);
    const severity = new Map(list.json.items.map((f: { fileId: string; diffSeverity: string | null }) => [f.fileId, f.diffSeverity]));
    expect(severity.get(first.completed.json.fileId)).toBeNull();
    expect(severity.get(second.completed.json.fileId)).toBe("danger");
    const detail = await dash(owner.b, "GET", `/api/files/${second.completed.json.fileId}`);
    expect(detail.json.diffSeverity).toBe("danger");

    await eventually(async () => hook.received.length >= 3, "three build.completed deliveries");
    const payloads = hook.received.map(
      (got) => new Webhook(created.json.secret).verify(got.body, got.headers) as { type: string; data: { build: { fileId: string }; diff: unknown } },
    );
    const byFile = new Map(payloads.map((p) => [p.data.build.fileId, p.data.diff]));
    expect(byFile.get(first.completed.json.fileId)).toBeNull();
    expect(byFile.get(second.completed.json.fileId)).toEqual(diff);
  }, 120_000);

  it("compares the next build again when the build its diff names is deleted: nothing names a deleted build", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Rebase");
    const key = await newDashboardKey(owner.b, projectId);
    const base = await upload(key, "base.apk", release("base.apk"));
    const added = await upload(key, "permission-added.apk", release("permission-added.apk"));
    const lowered = await upload(key, "min-sdk-lowered.apk", release("min-sdk-lowered.apk"));
    expect(lowered.completed.json.diff.previous.fileId).toBe(added.completed.json.fileId);

    expect((await dash(owner.b, "DELETE", `/api/files/${added.completed.json.fileId}`)).status).toBe(204);
    // The stored diff (a repeated complete answers it) is now against the build before: base.
    const again = await complete(key, { ...lowered.declared, key: lowered.presigned.json.key });
    expect(again.json.diff.previous).toEqual({ fileId: base.completed.json.fileId, version: "2.10", buildNumber: "10" });
    expect(kinds(again.json.diff.changes)).toEqual(["min-os-lowered:warning", "version-changed:info"]);
    const list = await dash(owner.b, "GET", `/api/projects/${projectId}/files`);
    expect(list.json.items.map((f: { diffSeverity: string | null }) => f.diffSeverity)).toEqual(["warning", null]);
    expect(outsideTheAuditLog(await itemsMentioning(added.completed.json.fileId))).toEqual([]);

    // The first build deleted: the next one is a first build now.
    expect((await dash(owner.b, "DELETE", `/api/files/${base.completed.json.fileId}`)).status).toBe(204);
    expect((await complete(key, { ...lowered.declared, key: lowered.presigned.json.key })).json.diff).toBeNull();
    expect(outsideTheAuditLog(await itemsMentioning(base.completed.json.fileId))).toEqual([]);
  }, 90_000);

  it("diffs a build uploaded from the dashboard the same way", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Browser");
    const key = await newDashboardKey(owner.b, projectId);
    const first = await upload(key, "base.apk", release("base.apk"));
    const bytes = release("build-decreased.apk");
    const declared = { fileName: "build-decreased.apk", fileSize: bytes.length, fileType: "application/vnd.android.package-archive" };
    const presigned = await dash(owner.b, "POST", `/api/projects/${projectId}/uploads`, declared);
    expect(presigned.status, presigned.text).toBe(200);
    expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
    const completed = await dash(owner.b, "POST", `/api/projects/${projectId}/uploads/complete`, { ...declared, key: presigned.json.key });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json.diff.previous.fileId).toBe(first.completed.json.fileId);
    expect(kinds(completed.json.diff.changes)).toContain("build-number-decreased:danger");
  }, 60_000);
});
