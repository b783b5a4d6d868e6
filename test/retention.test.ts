import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dash } from "./support/accounts";
import { db, presign, readFixture, stack, upload, type Key } from "./support/api";
import { eventually, newDashboardKey, newProject, uploadIpa, versionsUnder } from "./support/dashboard";
import { fixtures } from "./support/fixtures";
import { member } from "./support/workspaces";

/*
 * Issue 24 item 5 (docs/release-safety.md "Retention"): a project's policy, its preview, pins, the
 * project's storage, and the daily run on the local stack. The run is started the way the local
 * stack's timer starts it, through `runDailyHousekeeping(now)` of packages/local, here in the test's
 * process with the handlers' environment pointed at the shared stack (as test/mail-suppression.test.ts
 * runs the SES handler): the same DynamoDB Local, object store and webhook queue, and a `now` the
 * test chooses.
 */

let runDailyHousekeeping: (now?: Date) => Promise<{ retention: Record<string, number> }>;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
let server: Server;
const received: Received[] = [];
let hookUrl: string;

beforeAll(async () => {
  const s = stack();
  vi.stubEnv("HANGAR_TABLE_NAME", s.tableName);
  vi.stubEnv("HANGAR_BUCKET_NAME", s.bucketName);
  vi.stubEnv("HANGAR_DYNAMODB_ENDPOINT", s.dynamoEndpoint);
  vi.stubEnv("HANGAR_S3_ENDPOINT", s.s3Endpoint);
  vi.stubEnv("HANGAR_PUBLIC_URL", s.baseUrl);
  vi.stubEnv("HANGAR_SMTP_URL", `smtp://127.0.0.1:${s.smtpPort}`);
  vi.stubEnv("HANGAR_LOCAL", "1");
  vi.stubEnv("AWS_REGION", s.region);
  vi.stubEnv("AWS_ACCESS_KEY_ID", s.credentials.accessKeyId);
  vi.stubEnv("AWS_SECRET_ACCESS_KEY", s.credentials.secretAccessKey);
  ({ runDailyHousekeeping } = await import("../packages/local/src/housekeeping/daily-housekeeping"));

  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((done) => server.close(done));
});

const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, stack().baseUrl);
const apkPath = () => fixtures("apk")[0]!;

async function uploadApk(key: Key, name: string) {
  const bytes = readFixture(apkPath());
  const { completed } = await upload(key, name, bytes);
  expect(completed.status, completed.text).toBe(200);
  return { ...(completed.json as { fileId: string; userKey: string; shareUrl: string; downloadUrl: string }), size: bytes.length };
}

type Build = Awaited<ReturnType<typeof uploadIpa>>;

describe("retention policies", () => {
  it("takes a policy on the project's PATCH within its bounds, answers it, and null turns it off", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Policy bounds");
    const fresh = await dash(owner.b, "GET", `/api/projects/${projectId}`);
    expect(fresh.json).toMatchObject({ retention: null, storageBytes: 0 });

    for (const retention of [{ keepLatest: 0 }, { keepLatest: 1001 }, { maxAgeDays: 3651 }, { keepLatest: 2.5 }, { keepLatest: "5" }, {}, { keepLatest: null, maxAgeDays: null }]) {
      const reply = await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention });
      expect(reply.status, JSON.stringify(retention)).toBe(400);
      expect(reply.json.error.code).toBe("invalid_request");
      expect(reply.json.error.fields[0].field).toMatch(/^retention/);
    }
    const set = await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention: { keepLatest: 5, maxAgeDays: 30 } });
    expect(set.status, set.text).toBe(200);
    expect(set.json.retention).toEqual({ keepLatest: 5, maxAgeDays: 30 });
    // A field left out is not applied; the other fields of the project stay.
    const one = await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention: { maxAgeDays: 90 } });
    expect(one.json).toMatchObject({ name: "Policy bounds", retention: { keepLatest: null, maxAgeDays: 90 } });
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.retention).toEqual({ keepLatest: null, maxAgeDays: 90 });
    const renamed = await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { name: "Policy bounds 2" });
    expect(renamed.json.retention).toEqual({ keepLatest: null, maxAgeDays: 90 });
    const off = await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention: null });
    expect(off.json.retention).toBeNull();
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.retention).toBeNull();
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}/retention/preview`)).json).toEqual({ policy: null, items: [], bytes: 0 });

    const audit = await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/audit?action=project.updated`);
    expect(audit.json.items.map((e: { details: Record<string, unknown> }) => e.details)).toEqual(
      expect.arrayContaining([
        { fields: "retention", keepLatest: 5, maxAgeDays: 30 },
        { fields: "retention", keepLatest: null, maxAgeDays: null },
      ]),
    );
  });

  it("pins only completed builds of the caller's workspaces, and the file answers say so", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Pins");
    const key = await newDashboardKey(owner.b, projectId);
    const build = await uploadIpa(key, "Pinned.ipa");
    const pinned = await dash(owner.b, "PATCH", `/api/files/${build.fileId}`, { pinned: true });
    expect(pinned.status, pinned.text).toBe(200);
    expect(pinned.json).toMatchObject({ fileId: build.fileId, pinned: true, projectName: "Pins" });
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}/files`)).json.items[0].pinned).toBe(true);
    expect((await dash(owner.b, "PATCH", `/api/files/${build.fileId}`, { pinned: false })).json.pinned).toBe(false);
    expect((await dash(owner.b, "GET", `/api/files/${build.fileId}`)).json.pinned).toBe(false);

    for (const body of [{}, { pinned: "yes" }, { pinned: 1 }]) {
      const reply = await dash(owner.b, "PATCH", `/api/files/${build.fileId}`, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    const pending = await presign(key, { fileName: "Pending.ipa", fileSize: 1000, fileType: "application/octet-stream" });
    const refused = await dash(owner.b, "PATCH", `/api/files/${pending.json.fileId}`, { pinned: true });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe("build_not_completed");
    const outsider = await member();
    expect((await dash(outsider.b, "PATCH", `/api/files/${build.fileId}`, { pinned: true })).json.error.code).toBe("file_not_found");
    expect((await dash(owner.b, "GET", `/api/files/${build.fileId}`)).json.pinned).toBe(false);
  });

  it("previews numbers typed but not saved, and the saved policy when the query names none", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Candidate");
    const key = await newDashboardKey(owner.b, projectId);
    const [i1, i2, i3] = [await uploadIpa(key, "i1.ipa", { branch: "main" }), await uploadIpa(key, "i2.ipa", { branch: "main" }), await uploadIpa(key, "i3.ipa", { branch: "main" })];
    await uploadApk(key, "a1.apk");
    expect((await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention: { keepLatest: 2 } })).status).toBe(200);
    const preview = async (query = "") => {
      const reply = await dash(owner.b, "GET", `/api/projects/${projectId}/retention/preview${query}`);
      return reply;
    };
    const ids = (reply: { json: { items: { fileId: string }[] } }) => reply.json.items.map((i) => i.fileId);

    // Nothing in the query: the saved policy.
    const saved = await preview();
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.policy).toEqual({ keepLatest: 2, maxAgeDays: null });
    expect(ids(saved)).toEqual([i1.fileId]);

    // A candidate: what it would remove, named as the policy previewed.
    const one = await preview("?keepLatest=1");
    expect(one.json.policy).toEqual({ keepLatest: 1, maxAgeDays: null });
    expect(ids(one)).toEqual([i1.fileId, i2.fileId]);
    expect(one.json.bytes).toBe(i1.size + i2.size);
    // An empty field does not apply, as in the form; both empty: off, nothing removed.
    const young = await preview("?keepLatest=&maxAgeDays=30");
    expect(young.json).toEqual({ policy: { keepLatest: null, maxAgeDays: 30 }, items: [], bytes: 0 });
    expect((await preview("?keepLatest=&maxAgeDays=")).json).toEqual({ policy: null, items: [], bytes: 0 });
    expect(ids(await preview("?keepLatest=1&maxAgeDays=3650"))).toEqual([i1.fileId, i2.fileId]);

    // Numbers the policy could not hold are refused, naming the field.
    for (const [query, field] of [["?keepLatest=0", "keepLatest"], ["?keepLatest=1.5", "keepLatest"], ["?maxAgeDays=3651", "maxAgeDays"], ["?maxAgeDays=soon", "maxAgeDays"]] as const) {
      const refused = await preview(query);
      expect(refused.status, query).toBe(400);
      expect(refused.json.error.fields[0].field, query).toBe(field);
    }

    // Previewing saved nothing: the policy and the builds are as they were.
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.retention).toEqual({ keepLatest: 2, maxAgeDays: null });
    expect(ids(await preview())).toEqual([i1.fileId]);
    expect((await dash(owner.b, "GET", `/api/files/${i3.fileId}`)).status).toBe(200);
  });

  it("counts a project's storage exactly, and counts an old project's once", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Storage");
    const key = await newDashboardKey(owner.b, projectId);
    const a = await uploadIpa(key, "A.ipa");
    const b = await uploadApk(key, "B.apk");
    const storage = async () => (await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.storageBytes;
    expect(await storage()).toBe(a.size + b.size);
    const listed = (await dash(owner.b, "GET", "/api/projects")).json.items.find((p: { projectId: string }) => p.projectId === projectId);
    expect(listed.storageBytes).toBe(a.size + b.size);
    expect((await dash(owner.b, "DELETE", `/api/files/${a.fileId}`)).status).toBe(204);
    expect(await storage()).toBe(b.size);

    // A project stored before the counter existed: no counter, or one an upload's ADD started.
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `WORKSPACE#${owner.personal}`, sk: `PROJECT#${projectId}` },
        UpdateExpression: "REMOVE storageBytes, storageCounted",
      }),
    );
    const c = await uploadIpa(key, "C.ipa");
    expect(await storage()).toBe(b.size + c.size);
    expect(await storage()).toBe(b.size + c.size);
  });

  it("removes exactly what the preview listed, through the delete path: objects gone, links 410, audit and webhook; pinned and each platform's latest stay", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Retained");
    const key = await newDashboardKey(owner.b, projectId);
    const hook = await dash(owner.b, "POST", `/api/workspaces/${owner.personal}/webhooks`, { url: hookUrl, events: ["build.deleted"], projectIds: [projectId] });
    expect(hook.status, hook.text).toBe(201);

    // iOS builds on main (m1 pinned) and one on a feature branch; two Android builds without a branch.
    const m1 = await uploadIpa(key, "m1.ipa", { branch: "main" });
    const m2 = await uploadIpa(key, "m2.ipa", { branch: "main" });
    const f1 = await uploadIpa(key, "f1.ipa", { branch: "feature/login" });
    const m3 = await uploadIpa(key, "m3.ipa", { branch: "main" });
    const m4 = await uploadIpa(key, "m4.ipa", { branch: "main" });
    const a1 = await uploadApk(key, "a1.apk");
    const a2 = await uploadApk(key, "a2.apk");
    const all: Build[] = [m1, m2, f1, m3, m4, a1, a2];
    expect((await dash(owner.b, "PATCH", `/api/files/${m1.fileId}`, { pinned: true })).status).toBe(200);
    const before = (await dash(owner.b, "GET", `/api/projects/${projectId}`)).json;
    expect(before).toMatchObject({ fileCount: 7, storageBytes: all.reduce((sum, f) => sum + f.size, 0) });

    // Keep the newest build of each platform and branch.
    expect((await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention: { keepLatest: 1 } })).status).toBe(200);
    const preview = await dash(owner.b, "GET", `/api/projects/${projectId}/retention/preview`);
    expect(preview.status, preview.text).toBe(200);
    const expected = [m2, m3, a1];
    expect(preview.json.policy).toEqual({ keepLatest: 1, maxAgeDays: null });
    expect(preview.json.items.map((i: { fileId: string }) => i.fileId)).toEqual(expected.map((f) => f.fileId));
    expect(preview.json.items[0]).toMatchObject({ fileId: m2.fileId, platform: "ios", branch: "main", size: m2.size, reasons: ["over_keep_latest"], completedAt: expect.any(String) });
    expect(preview.json.items[0].version).toEqual(expect.any(String));
    expect(preview.json.items[2]).toMatchObject({ fileId: a1.fileId, platform: "android", branch: null });
    expect(preview.json.bytes).toBe(expected.reduce((sum, f) => sum + f.size, 0));

    const { retention } = await runDailyHousekeeping(new Date());
    expect(retention.removed).toBeGreaterThanOrEqual(3);

    const left = (await dash(owner.b, "GET", `/api/projects/${projectId}/files`)).json.items.map((f: { fileId: string }) => f.fileId);
    expect(left.sort()).toEqual([m1, f1, m4, a2].map((f) => f.fileId).sort());
    for (const gone of expected) {
      expect((await dash(owner.b, "GET", `/api/files/${gone.fileId}`)).status).toBe(404);
      expect((await fetch(local(gone.shareUrl))).status).toBe(410);
      const download = await fetch(local(gone.downloadUrl), { redirect: "manual" });
      expect(download.status).toBe(410);
      expect(((await download.json()) as { error: { code: string } }).error.code).toBe("file_removed");
      expect(await versionsUnder(`uploads/${projectId}/${gone.fileId}/`)).toEqual([]);
    }
    for (const kept of [m1, f1, m4, a2]) {
      expect((await fetch(local(kept.shareUrl))).status).toBe(200);
      expect((await versionsUnder(`uploads/${projectId}/${kept.fileId}/`)).length).toBeGreaterThan(0);
    }
    const after = (await dash(owner.b, "GET", `/api/projects/${projectId}`)).json;
    expect(after).toMatchObject({ fileCount: 4, storageBytes: [m1, f1, m4, a2].reduce((sum, f) => sum + f.size, 0) });

    // Who removed them and why, in the audit log and on the webhook.
    const audit = (await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/audit?action=build.deleted`)).json.items;
    for (const gone of expected) {
      const entry = audit.find((e: { target: { id: string } }) => e.target.id === gone.fileId);
      expect(entry).toMatchObject({ actor: { userId: "system", email: null, ip: null, userAgentFamily: null }, details: { projectId, reason: "retention", retention: "over_keep_latest" } });
    }
    await eventually(async () => received.length >= 3, "three build.deleted deliveries");
    const events = received.map((r) =>
      new Webhook(hook.json.secret).verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"]),
      }) as { type: string; data: { build: { fileId: string; links: unknown }; reason: string; actor: unknown } },
    );
    expect(events.map((e) => e.data.build.fileId).sort()).toEqual(expected.map((f) => f.fileId).sort());
    for (const event of events) expect(event).toMatchObject({ type: "build.deleted", data: { reason: "retention", actor: { kind: "system" }, build: { links: null } } });

    // The run is idempotent: nothing is left to remove, and a second run removes nothing.
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}/retention/preview`)).json).toEqual({ policy: { keepLatest: 1, maxAgeDays: null }, items: [], bytes: 0 });
    await runDailyHousekeeping(new Date());
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.fileCount).toBe(4);
  });

  it("removes builds older than maxAgeDays at the run's time, except pinned ones and the platform's latest", async () => {
    const owner = await member();
    const { projectId } = await newProject(owner.b, "Aged");
    const key = await newDashboardKey(owner.b, projectId);
    const old1 = await uploadIpa(key, "old1.ipa");
    const old2 = await uploadIpa(key, "old2.ipa");
    const newest = await uploadIpa(key, "newest.ipa");
    expect((await dash(owner.b, "PATCH", `/api/files/${old1.fileId}`, { pinned: true })).status).toBe(200);
    expect((await dash(owner.b, "PATCH", `/api/projects/${projectId}`, { retention: { maxAgeDays: 30 } })).status).toBe(200);

    // Today nothing is 30 days old.
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}/retention/preview`)).json.items).toEqual([]);
    await runDailyHousekeeping(new Date());
    expect((await dash(owner.b, "GET", `/api/projects/${projectId}`)).json.fileCount).toBe(3);

    // 31 days later, the run removes the unpinned older build only.
    await runDailyHousekeeping(new Date(Date.now() + 31 * 86_400_000));
    const left = (await dash(owner.b, "GET", `/api/projects/${projectId}/files`)).json.items.map((f: { fileId: string }) => f.fileId);
    expect(left.sort()).toEqual([old1.fileId, newest.fileId].sort());
    expect((await fetch(local(old2.shareUrl))).status).toBe(410);
    expect(await versionsUnder(`uploads/${projectId}/${old2.fileId}/`)).toEqual([]);
    const entry = (await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/audit?action=build.deleted`)).json.items.find((e: { target: { id: string } }) => e.target.id === old2.fileId);
    expect(entry.details).toMatchObject({ reason: "retention", retention: "older_than_max_age" });
  });
});
