/**
 * Browser uploads through the dashboard's session routes (issue 23 item 5): the API-key flow's
 * presign, multipart and complete, for the signed-in owner of the project. Another account's
 * project answers like an unknown one, another origin is refused before anything is looked at,
 * and the build lands in the project's files attributed to no API key.
 */
import { personalWorkspaceId } from "@hangar/core";
import { describe, expect, it } from "vitest";
import { crc32c } from "../packages/local/src/object-store/body/crc32c";
import { dash, signedIn, type Browser } from "./support/accounts";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, put, readFixture, stack } from "./support/api";
import { fixtures } from "./support/fixtures";
import { newDashboardKey, newProject } from "./support/dashboard";

const APK = "application/vnd.android.package-archive";
const apkPath = () => fixtures("apk").find((f) => f.endsWith(".apk"))!;

const uploads = (projectId: string, rest = "") => `/api/projects/${projectId}/uploads${rest}`;

const base64Crc = (value: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value >>> 0);
  return b.toString("base64");
};

async function singleUpload(b: Browser, projectId: string, fileName: string, bytes: Uint8Array) {
  const declared = { fileName, fileSize: bytes.length, fileType: APK };
  const presigned = await dash(b, "POST", uploads(projectId), declared);
  expect(presigned.status, presigned.text).toBe(200);
  const stored = await put(presigned.json.uploadUrl, bytes);
  expect(stored.status).toBe(200);
  return dash(b, "POST", uploads(projectId, "/complete"), { ...declared, key: presigned.json.key });
}

describe("dashboard upload routes", () => {
  it("lets the owner upload with presign → PUT → complete; the build is the project's, from no API key", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const key = await newDashboardKey(b, projectId, "CI key");
    const bytes = readFixture(apkPath());

    const presigned = await dash(b, "POST", uploads(projectId), { fileName: "App.apk", fileSize: bytes.length, fileType: APK });
    expect(presigned.status, presigned.text).toBe(200);
    expect(Object.keys(presigned.json).sort()).toEqual(["expireAt", "fileId", "key", "uploadUrl"]);
    expect(presigned.headers.get("x-ratelimit-limit")).toBe("100");
    // The dashboard's headers, as on every account and dashboard route.
    expect(presigned.headers.get("referrer-policy")).toBe("same-origin");
    expect(presigned.headers.get("cache-control")).toBe("no-store");

    expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
    const completed = await dash(b, "POST", uploads(projectId, "/complete"), {
      fileName: "App.apk",
      fileSize: bytes.length,
      fileType: APK,
      key: presigned.json.key,
    });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json).toMatchObject({ message: "Upload completed", fileId: presigned.json.fileId, metadata: { platform: "android" } });
    expect(completed.json.shareUrl).toContain(`/share/${completed.json.userKey}`);

    const files = await dash(b, "GET", `/api/projects/${projectId}/files`);
    expect(files.json.items).toHaveLength(1);
    expect(files.json.items[0]).toMatchObject({ fileId: presigned.json.fileId, status: "completed", uploadedBy: { clientId: null, name: null } });
    const project = await dash(b, "GET", `/api/projects/${projectId}`);
    expect(project.json.fileCount).toBe(1);
    // The key sent nothing: its usage shows no upload.
    const usage = await dash(b, "GET", `/api/keys/${key.clientId}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.json.totals).toMatchObject({ accepted: 0, uploads: 0, bytes: 0 });
  });

  it("completes a multipart upload with checksummed parts, and aborts another", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const bytes = readFixture(apkPath());
    const declared = { fileName: "Multi.apk", fileSize: bytes.length, fileType: APK };
    const checksumCRC32C = base64Crc(crc32c(bytes));

    const started = await dash(b, "POST", uploads(projectId, "/multipart"), declared);
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ partCount: 1, parts: [] });
    const urls = await dash(b, "POST", uploads(projectId, "/multipart/parts"), {
      key: started.json.key,
      uploadId: started.json.uploadId,
      partChecksums: [{ partNumber: 1, checksumCRC32C }],
    });
    expect(urls.status, urls.text).toBe(200);
    // The checksum is signed into the part's URL; the PUT sends the bytes alone, as a browser does.
    const stored = await fetch(urls.json.parts[0].uploadUrl, { method: "PUT", body: bytes });
    expect(stored.status).toBe(200);
    const completed = await dash(b, "POST", uploads(projectId, "/complete"), {
      key: started.json.key,
      uploadId: started.json.uploadId,
      parts: [{ partNumber: 1, etag: stored.headers.get("etag") }],
    });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.json).toMatchObject({ fileId: started.json.fileId, metadata: { platform: "android" } });

    const other = await dash(b, "POST", uploads(projectId, "/multipart"), declared);
    const aborted = await dash(b, "DELETE", uploads(projectId, "/multipart"), { key: other.json.key, uploadId: other.json.uploadId });
    expect(aborted.status).toBe(204);
    const again = await dash(b, "DELETE", uploads(projectId, "/multipart"), { key: other.json.key, uploadId: other.json.uploadId });
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe("upload_not_found");
  });

  it("answers another account's project exactly like an unknown one, and another's upload key like an unknown key", async () => {
    const { b: owner } = await signedIn();
    const { b: stranger } = await signedIn();
    const { projectId } = await newProject(owner);
    const { projectId: strangersProject } = await newProject(stranger);
    const bytes = readFixture(apkPath());
    const declared = { fileName: "App.apk", fileSize: bytes.length, fileType: APK };

    for (const path of [uploads(projectId), uploads(projectId, "/multipart"), uploads("p_unknownproject00000")]) {
      const reply = await dash(stranger, "POST", path, declared);
      expect(reply.status, path).toBe(404);
      expect(reply.json.error.code).toBe("project_not_found");
    }
    // The owner's upload, completed from the stranger's own project: that key is not theirs.
    const presigned = await dash(owner, "POST", uploads(projectId), declared);
    await put(presigned.json.uploadUrl, bytes);
    const stolen = await dash(stranger, "POST", uploads(strangersProject, "/complete"), { ...declared, key: presigned.json.key });
    expect(stolen.status).toBe(404);
    expect(stolen.json.error.code).toBe("upload_not_found");
    expect((await dash(owner, "POST", uploads(projectId, "/complete"), { ...declared, key: presigned.json.key })).status).toBe(200);
  });

  it("refuses another origin (CSRF) and a request without a session, before looking at anything", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const declared = { fileName: "App.apk", fileSize: 1000, fileType: APK };
    const forged = await dash(b, "POST", uploads(projectId), declared, { Origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    expect(forged.json.error.code).toBe("cross_origin_request");
    const anonymous = await dash({ ip: b.ip }, "POST", uploads(projectId), declared);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe("not_signed_in");
  });

  it("counts the account's upload requests on its own rule: past 100 a minute, 429 with Retry-After", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    // The rule's windows are whole minutes: start early in one, so all 101 requests fall in it.
    const second = new Date().getUTCSeconds();
    if (second > 45) await new Promise((done) => setTimeout(done, (61 - second) * 1000));
    const body = { key: `uploads/${projectId}/fil_nothing000000000000/App.apk`, uploadId: "none", partChecksums: [{ partNumber: 1, checksumCRC32C: "AAAAAA==" }] };
    for (let i = 0; i < 100; i += 10) {
      const replies = await Promise.all(Array.from({ length: 10 }, () => dash(b, "POST", uploads(projectId, "/multipart/parts"), body)));
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(404));
    }
    const limited = await dash(b, "POST", uploads(projectId), { fileName: "App.apk", fileSize: 1000, fileType: APK });
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account is not held.
    const { b: other } = await signedIn();
    const { projectId: theirs } = await newProject(other);
    expect((await dash(other, "POST", uploads(theirs), { fileName: "App.apk", fileSize: 1000, fileType: APK })).status).toBe(200);
  });

  it("refuses new uploads to a project being deleted, as its revoked keys do", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    const bytes = readFixture(apkPath());
    expect((await singleUpload(b, projectId, "Before.apk", bytes)).status).toBe(200);
    // The state a purge that goes on in the background leaves the project in.
    const { userId } = (await dash(b, "GET", "/api/account")).json as { userId: string };
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `WORKSPACE#${personalWorkspaceId(userId)}`, sk: `PROJECT#${projectId}` },
        UpdateExpression: "SET #status = :deleting",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":deleting": "deleting" },
      }),
    );
    const declared = { fileName: "After.apk", fileSize: bytes.length, fileType: APK };
    for (const path of [uploads(projectId), uploads(projectId, "/multipart")]) {
      const reply = await dash(b, "POST", path, declared);
      expect(reply.status, path).toBe(409);
      expect(reply.json.error.code).toBe("project_deleting");
    }
  });
});
