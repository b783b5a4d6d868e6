import { describe, expect, it } from "vitest";
import { stack } from "./support/api";
import { dash, signedIn } from "./support/accounts";
import { itemsMentioning, withoutLinkTraces, newDashboardKey, newProject, uploadIpa, versionsUnder } from "./support/dashboard";

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
    for (const query of ["cursor=%%%", "cursor=AAAA", "cursor=" + "Z".repeat(600), "cursor=RklMRSMx", "limit=0", "limit=101", "limit=abc"]) {
      const reply = await dash(b, "GET", `/api/projects/${projectId}/files?${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.json.error.code).toBe("invalid_request");
    }
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
    expect(await itemsMentioning(file.fileId)).toEqual([]);
    expect(withoutLinkTraces(await itemsMentioning(file.userKey))).toEqual([]);
    expect(await versionsUnder(`uploads/${projectId}/${file.fileId}/`)).toEqual([]);
    expect((await versionsUnder(`uploads/${projectId}/${kept.fileId}/`)).length).toBeGreaterThan(0);
    expect((await dash(b, "GET", `/api/projects/${projectId}`)).json.fileCount).toBe(1);
  });
});
