import { personalWorkspaceId } from "@hangar/core";
import { describe, expect, it } from "vitest";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, stack } from "./support/api";
import { dash, signedIn } from "./support/accounts";
import { itemsMentioning, newDashboardKey, newProject, outsideTheAuditLog, uploadIpa, versionsUnder, withoutLinkTraces } from "./support/dashboard";

const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, stack().baseUrl);

describe("dashboard files API", () => {
  it("lists a project's files newest first in cursor pages, and the latest files across projects", async () => {
    const { b } = await signedIn();
    const one = await newProject(b, "One");
    const two = await newProject(b, "Two");
    const k1 = await newDashboardKey(b, one.projectId, "CI one");
    const k2 = await newDashboardKey(b, two.projectId);
    const a = await uploadIpa(k1, "A.ipa");
    const c = await uploadIpa(k2, "C.ipa");
    const d = await uploadIpa(k1, "D.ipa");
    const e = await uploadIpa(k1, "E.ipa");

    const first = await dash(b, "GET", `/api/projects/${one.projectId}/files?limit=2`);
    expect(first.status).toBe(200);
    expect(first.json.items.map((f: { fileId: string }) => f.fileId)).toEqual([e.fileId, d.fileId]);
    expect(first.json.items[0]).toMatchObject({
      fileName: "E.ipa",
      status: "completed",
      platform: "ios",
      uploadedBy: { clientId: k1.clientId, name: "CI one" },
      shareUrl: expect.stringContaining(`/share/${e.userKey}`),
      downloadUrl: expect.stringContaining(`/download/${e.userKey}`),
    });
    expect(first.json.items[0].appName).toEqual(expect.any(String));
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const second = await dash(b, "GET", `/api/projects/${one.projectId}/files?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`);
    expect(second.json.items.map((f: { fileId: string }) => f.fileId)).toEqual([a.fileId]);
    expect(second.json.nextCursor).toBeNull();

    const latest = await dash(b, "GET", "/api/files?limit=3");
    expect(latest.status).toBe(200);
    expect(latest.json.items.map((f: { fileId: string }) => f.fileId)).toEqual([e.fileId, d.fileId, c.fileId]);
  });

  it("answers a garbage cursor or limit with 400 on that field, never a 5xx", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b);
    for (const query of ["cursor=%%%", "cursor=AAAA", "cursor=RklMRSMx"]) {
      const reply = await dash(b, "GET", `/api/projects/${projectId}/files?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json.error).toMatchObject({ code: "invalid_cursor", fields: [{ field: "cursor", message: "is not a cursor of this list" }] });
    }
    for (const query of ["cursor=" + "Z".repeat(600), "limit=0", "limit=101", "limit=abc"]) {
      const reply = await dash(b, "GET", `/api/projects/${projectId}/files?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json.error.code).toBe("invalid_request");
    }
  });

  it("takes back only the cursors it handed out for that list: a forged well-formed one, or another project's, is 400 invalid_cursor", async () => {
    const { b } = await signedIn();
    const one = await newProject(b, "Cursor one");
    const two = await newProject(b, "Cursor two");
    const key = await newDashboardKey(b, one.projectId);
    const older = await uploadIpa(key, "Older.ipa");
    const newer = await uploadIpa(key, "Newer.ipa");
    const first = await dash(b, "GET", `/api/projects/${one.projectId}/files?limit=1`);
    expect(first.json.items.map((f: { fileId: string }) => f.fileId)).toEqual([newer.fileId]);
    const handedOut: string = first.json.nextCursor;
    expect((await dash(b, "GET", `/api/projects/${one.projectId}/files?limit=1&cursor=${encodeURIComponent(handedOut)}`)).json.items[0].fileId).toBe(older.fileId);

    // The exact sort key of a real file, well-formed, but never handed out: unsigned, or re-signed.
    const sortKeyOf = async (fileId: string) =>
      Buffer.from(`FILE#${(await dash(b, "GET", `/api/files/${fileId}`)).json.createdAt}#${fileId}`).toString("base64url");
    const sortKey = await sortKeyOf(newer.fileId);
    // The handed-out cursor is newer's sort key and its MAC: that MAC on another position is forged.
    expect(handedOut.split(".")[0]).toBe(sortKey);
    const forged = [sortKey, `${sortKey}.${"A".repeat(22)}`, `${await sortKeyOf(older.fileId)}.${handedOut.split(".")[1]}`];
    for (const cursor of forged) {
      const reply = await dash(b, "GET", `/api/projects/${one.projectId}/files?cursor=${encodeURIComponent(cursor)}`);
      expect(reply.status, cursor).toBe(400);
      expect(reply.json.error.code).toBe("invalid_cursor");
    }
    const foreign = await dash(b, "GET", `/api/projects/${two.projectId}/files?cursor=${encodeURIComponent(handedOut)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error.code).toBe("invalid_cursor");
  });

  it("hides the files of a project being deleted: file page, delete and share settings answer 404 and change nothing", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b, "Being deleted");
    const key = await newDashboardKey(b, projectId);
    const file = await uploadIpa(key, "Held.ipa");
    expect((await dash(b, "GET", `/api/files/${file.fileId}`)).status).toBe(200);
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
    for (const [method, path, body] of [
      ["GET", `/api/files/${file.fileId}`, undefined],
      ["DELETE", `/api/files/${file.fileId}`, undefined],
      ["PATCH", `/api/files/${file.fileId}/share`, { enabled: false }],
    ] as const) {
      const reply = await dash(b, method, path, body);
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.json.error.code).toBe("file_not_found");
    }
    // Nothing was deleted or turned off by those requests: the link still serves.
    expect((await fetch(local(file.shareUrl))).status).toBe(200);
  });

  it("shows a file's page data and deletes it: record, share item and every object version; the links then answer 410 (removed)", async () => {
    const { b } = await signedIn();
    const { projectId } = await newProject(b, "Files");
    const key = await newDashboardKey(b, projectId);
    const kept = await uploadIpa(key, "Kept.ipa");
    const file = await uploadIpa(key, "Gone.ipa");

    const page = await dash(b, "GET", `/api/files/${file.fileId}`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ fileId: file.fileId, projectName: "Files", fileType: "application/octet-stream", status: "completed" });
    expect(page.json.metadata).toMatchObject({ platform: "ios", bundleId: expect.any(String) });
    expect(page.json.iconUrl === null || typeof page.json.iconUrl === "string").toBe(true);
    expect((await fetch(local(file.shareUrl))).status).toBe(200);

    expect((await dash(b, "DELETE", `/api/files/${file.fileId}`)).status).toBe(204);
    expect((await dash(b, "GET", `/api/files/${file.fileId}`)).status).toBe(404);
    expect((await dash(b, "DELETE", `/api/files/${file.fileId}`)).status).toBe(404);
    expect((await fetch(local(file.shareUrl))).status).toBe(410);
    expect((await fetch(local(file.downloadUrl), { redirect: "manual" })).status).toBe(410);
    expect(outsideTheAuditLog(await itemsMentioning(file.fileId))).toEqual([]);
    expect(withoutLinkTraces(await itemsMentioning(file.userKey))).toEqual([]);
    expect(await versionsUnder(`uploads/${projectId}/${file.fileId}/`)).toEqual([]);
    expect((await versionsUnder(`uploads/${projectId}/${kept.fileId}/`)).length).toBeGreaterThan(0);
    expect((await dash(b, "GET", `/api/projects/${projectId}`)).json.fileCount).toBe(1);
  });
});
