import { DescribeTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { GetCommand, QueryCommand, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { diffBuilds, installability, randomIds, type BuildFacts, type CompletedFile } from "@hangar/core";
import { DynamoFileRepository } from "@hangar/core/dynamo";
import { InspectError } from "@hangar/inspect";
import { basename } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { call, complete, db, newKey, put, presign, readFixture, stack, upload, type Key } from "./support/api";
import { fixtures, inspectFile } from "./support/fixtures";

let key: Key;
beforeAll(async () => {
  key = await newKey();
});

/** The last build of each app (platform and bundle id) this file completed: what complete's diff compares with. */
const completedApps = new Map<string, BuildFacts>();
const appOf = (m: { platform: string; bundleId: string }) => `${m.platform}:${m.bundleId}`;
const previousOf = (m: { platform: string; bundleId: string }) => completedApps.get(appOf(m));
const factsOf = (answer: { fileId: string; metadata: BuildFacts["metadata"] }, fileSize: number): BuildFacts => ({
  fileId: answer.fileId,
  fileSize,
  metadata: answer.metadata,
});

const item = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk, sk } }))).Item;

describe.each([
  ["APK", fixtures("apk")],
  ["IPA", fixtures("ipa")],
])("%s upload, end to end", (_kind, files) => {
  it("has committed fixtures to upload", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  // Every committed fixture, through the whole flow: complete must answer exactly what the
  // extractor reads from the file on disk, or the same 422 reason for packages it refuses.
  it.each(files.map((f) => [basename(f), f]))("answers %s's real metadata at complete", async (name, path) => {
    const bytes = readFixture(path);
    const { presigned, completed } = await upload(key, name, bytes);
    const truth = await inspectFile(path).catch((error: unknown) => error as InspectError);
    if (truth instanceof InspectError) {
      expect(completed.status, completed.text).toBe(422);
      expect(completed.json.error).toMatchObject({ code: "invalid_package", reason: truth.code });
      return;
    }
    expect(completed.status, completed.text).toBe(200);
    // The profile's UDIDs are kept on the file record only (docs/devices.md): never in the answer.
    const { icon, provisionedUdids: _udids, ...fields } = truth;
    expect(completed.json).toEqual({
      message: expect.any(String),
      fileId: presigned.json.fileId,
      userKey: expect.stringMatching(/^[0-9A-Za-z]{12}$/),
      downloadUrl: `${stack().baseUrl}/download/${completed.json.userKey}`,
      shareUrl: `${stack().baseUrl}/share/${completed.json.userKey}`,
      metadata: {
        ...fields,
        ...(icon ? { icon: { path: icon.path, width: icon.width, height: icon.height } } : {}),
        // What testers can do with it (test/upload-installability.test.ts checks each reason).
        ...installability(fields, new Date()),
      },
      // Compared with the last fixture of the same app this file completed (one project for all).
      diff: previousOf(completed.json.metadata) ? diffBuilds(previousOf(completed.json.metadata)!, factsOf(completed.json, bytes.length)) : null,
    });
    completedApps.set(appOf(completed.json.metadata), factsOf(completed.json, bytes.length));
    for (const field of ["appName", "bundleId", "version"]) expect(typeof completed.json.metadata[field]).toBe("string");
  });
});

describe("after complete", () => {
  let path: string;
  let bytes: Uint8Array;
  let result: Awaited<ReturnType<typeof upload>>;
  beforeAll(async () => {
    path = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
    bytes = readFixture(path);
    result = await upload(key, "Ünïcödé build \"1\".apk", bytes);
    expect(result.completed.status, result.completed.text).toBe(200);
  });

  it("answers the same to a repeated complete", async () => {
    const again = await complete(key, { ...result.declared, key: result.presigned.json.key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(result.completed.json);
  });

  it("keeps the completed record without TTL and a share item", async () => {
    const file = await item(`FILE#${result.presigned.json.fileId}`, "FILE");
    expect(file).toMatchObject({ status: "completed", userKey: result.completed.json.userKey });
    expect(file).not.toHaveProperty("ttl");
    expect(await item(`SHARE#${result.completed.json.userKey}`, "SHARE")).toMatchObject({ fileId: result.presigned.json.fileId });
  });

  it("redirects the download link to a short-lived GET that saves under the original name", async () => {
    const reply = await call(new URL(result.completed.json.downloadUrl).pathname);
    expect(reply.status).toBe(302);
    const location = reply.headers.get("location")!;
    expect(new URL(location).searchParams.get("X-Amz-Expires")).toBe("300");
    const download = await fetch(location);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="Unicode build _1_.apk"; filename*=UTF-8''%C3%9Cn%C3%AFc%C3%B6d%C3%A9%20build%20%221%22.apk`,
    );
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes);
  });

  it("serves a share page with name, version, bundle id, size and the download link", async () => {
    const reply = await call(new URL(result.completed.json.shareUrl).pathname);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/html/);
    const m = result.completed.json.metadata;
    const escaped = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
    for (const text of [m.appName, m.version, m.bundleId, result.completed.json.downloadUrl]) {
      expect(reply.text).toContain(escaped(text));
    }
  });
});

describe("concurrent completes", () => {
  it("produce one record and one share key, and every caller gets the same answer", async () => {
    const path = fixtures("ipa")[0]!;
    const bytes = readFixture(path);
    const declared = { fileName: "race.ipa", fileSize: bytes.length, fileType: "application/octet-stream" };
    const p = await presign(key, declared);
    expect((await put(p.json.uploadUrl, bytes)).status).toBe(200);
    const replies = await Promise.all(Array.from({ length: 8 }, () => complete(key, { ...declared, key: p.json.key })));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(replies.map((r) => r.json.userKey)).size).toBe(1);
    // Every winner would have written its own share item: there must be exactly one. The whole
    // table, page after page: a Scan's filter applies to one page (1 MB) at a time, and the shared
    // test stack's table holds far more than that.
    const shares: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db().send(
        new ScanCommand({
          TableName: stack().tableName,
          FilterExpression: "#type = :share AND fileId = :f",
          ExpressionAttributeNames: { "#type": "type" },
          ExpressionAttributeValues: { ":share": "share", ":f": p.json.fileId },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      shares.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(shares).toHaveLength(1);
    expect(shares[0]!.userKey).toBe(replies[0]!.json.userKey);
  });
});

describe("concurrent completes in one project", () => {
  it("count every build once on the project and on the key's usage, however they interleave", async () => {
    // A key of its own: its project and its usage day hold only these builds.
    const own = await newKey();
    const bytes = readFixture(fixtures("ipa")[0]!);
    const declared = (i: number) => ({ fileName: `matrix-${i}.ipa`, fileSize: bytes.length, fileType: "application/octet-stream" });
    const builds = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const p = await presign(own, declared(i));
        expect((await put(p.json.uploadUrl, bytes)).status).toBe(200);
        return { ...declared(i), key: p.json.key as string };
      }),
    );
    // Six builds completed at once, the first of them four times over (a CI retry racing itself).
    const replies = await Promise.all([...builds, builds[0]!, builds[0]!, builds[0]!].map((body) => complete(own, body)));
    expect(replies.map((r) => r.status)).toEqual(Array(9).fill(200));
    expect(new Set(replies.map((r) => r.json.fileId)).size).toBe(6);

    const { Items: projects } = await db().send(
      new QueryCommand({
        TableName: stack().tableName,
        IndexName: "gsi1",
        KeyConditionExpression: "gsi1pk = :p AND gsi1sk = :s",
        ExpressionAttributeValues: { ":p": `PROJECT#${own.projectId}`, ":s": "PROJECT" },
      }),
    );
    expect(projects?.[0]).toMatchObject({ fileCount: 6, storageBytes: 6 * bytes.length });
    // Every day item of the key (a run across midnight UTC counts on two days).
    const { Items: days = [] } = await db().send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `USAGE#${own.clientId}` }, ConsistentRead: true }),
    );
    const sum = (field: string) => days.reduce((total, d) => total + Number(d[field] ?? 0), 0);
    expect({ uploads: sum("uploads"), bytes: sum("bytes") }).toEqual({ uploads: 6, bytes: 6 * bytes.length });
  });
});

describe("a build whose project was deleted while it completed", () => {
  it("completes with its share link, counted nowhere, and the project is not recreated", async () => {
    const files = new DynamoFileRepository(db(), stack().tableName);
    const fileId = `fil_${randomIds.userKey()}gone0000`;
    const projectId = `prj_${randomIds.userKey()}gone`;
    const pending = {
      fileId, projectId, key: `uploads/${projectId}/${fileId}/App.ipa`, clientId: "hgr_gone", fileName: "App.ipa",
      fileType: "application/octet-stream", fileSize: 10, status: "pending" as const, createdAt: new Date().toISOString(),
    };
    await files.createPending(pending);
    const userKey = randomIds.userKey();
    const completed = { ...pending, status: "completed" as const, userKey, completedAt: new Date().toISOString(), metadata: { platform: "ios", bundleId: "com.example.gone" } as CompletedFile["metadata"] };
    expect(await files.complete(completed, { workspaceId: "ws_gone0000000000", clientId: "hgr_gone" })).toBe(true);
    expect(await item(`FILE#${fileId}`, "FILE")).toMatchObject({ status: "completed", userKey });
    expect(await item(`SHARE#${userKey}`, "SHARE")).toMatchObject({ fileId });
    expect(await item("WORKSPACE#ws_gone0000000000", `PROJECT#${projectId}`)).toBeUndefined();
    // A second complete of the same record is refused as no longer pending, and writes nothing.
    expect(await files.complete({ ...completed, userKey: randomIds.userKey() }, { workspaceId: "ws_gone0000000000" })).toBe(false);
  });
});

describe("pending uploads", () => {
  it("are recorded with a TTL and the declared fields", async () => {
    const p = await presign(key, { fileName: "later.ipa", fileSize: 10, fileType: "application/octet-stream" });
    const file = await item(`FILE#${p.json.fileId}`, "FILE");
    expect(file).toMatchObject({ status: "pending", fileName: "later.ipa", fileSize: 10, projectId: key.projectId, clientId: key.clientId });
    expect(file!.ttl).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
  });

  it("expire through the table's TTL attribute", async () => {
    const { TimeToLiveDescription } = await db().send(new DescribeTimeToLiveCommand({ TableName: stack().tableName }));
    expect(TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: "ENABLED", AttributeName: "ttl" });
  });
});
