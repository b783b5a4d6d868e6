import { describe, expect, it } from "vitest";
import { createProject, deleteFile, getFile, latestFiles, listProjectFiles } from "../support/through-http";
import {
  NotFoundError,
  ValidationError,
  decodeCursor,
  encodeCursor,
  InvalidCursorError,
  personalWorkspaceId,
} from "../../src";
import { links, memoryDashboard, storedFile } from "./memory-dashboard";

const alice = "usr_alice00000000000";
const aliceWs = personalWorkspaceId(alice);
const bob = "usr_bob0000000000000";

/** getFile also reads the link's settings; these builds' share items hold none beyond the stats. */
const withLinks = <D extends object>(deps: D) => ({ ...deps, links: { links: { get: async () => undefined } } });

async function setup(count: number) {
  const deps = memoryDashboard();
  const project = await createProject(deps, alice, { name: "App", color: "blue" });
  await deps.keys.create({ clientId: "hgr_uploader", secretHash: "h", name: "CI key", projectId: project.projectId, userId: alice, status: "active", createdAt: "t" });
  const files = Array.from({ length: count }, (_, i) => storedFile(deps, project.projectId, i));
  return { deps, project, files };
}

describe("files of a project", () => {
  it("pages newest first with an opaque cursor until nextCursor is null, every file exactly once", async () => {
    const { deps, project, files } = await setup(53);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listProjectFiles(deps, alice, project.projectId, { limit: "20", ...(cursor ? { cursor } : {}) }, links);
      seen.push(...page.items.map((f) => f.fileId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(files.map((f) => f.fileId).reverse());
    // Each page is one bounded query, never a scan of the project.
    expect(deps.files.pageCalls.every((c) => c.limit === 20)).toBe(true);
  });

  it("shows what a list row needs: app, version, build, platform, size, status, uploader, icon and links", async () => {
    const { deps, project } = await setup(0);
    storedFile(deps, project.projectId, 7);
    storedFile(deps, project.projectId, 8, { status: "rejected", rejection: { reason: "not_a_zip", message: "Not a ZIP" }, userKey: undefined, metadata: undefined, iconKey: undefined, completedAt: undefined });
    const { items } = await listProjectFiles(deps, alice, project.projectId, {}, links);
    expect(items[0]).toMatchObject({ status: "rejected", rejection: { reason: "not_a_zip", message: "Not a ZIP" }, shareUrl: null, iconUrl: null });
    expect(items[1]).toMatchObject({
      fileId: "fil_00000007",
      appName: "App",
      version: "1.0",
      buildNumber: "7",
      platform: "ios",
      fileSize: 1007,
      status: "completed",
      uploadedBy: { clientId: "hgr_uploader", name: "CI key" },
      shareUrl: "https://share.test/share/share0000007",
      downloadUrl: "https://hangar.test/download/share0000007",
    });
    expect(items[1]!.iconUrl).toContain("icon.png");
  });

  it("shows each row's link state and counts, read in one batch per page", async () => {
    const { deps, project, files } = await setup(4);
    storedFile(deps, project.projectId, 9, { status: "pending", userKey: undefined, metadata: undefined, completedAt: undefined });
    deps.files.stats.set(files[0]!.userKey!, { downloads: 12, installs: 3 });
    deps.files.stats.set(files[1]!.userKey!, { enabled: false, downloads: 1 });
    deps.files.stats.set(files[2]!.userKey!, { maxDownloads: 5, downloads: 5, hasPassword: true });
    deps.files.stats.set(files[3]!.userKey!, { expiresAt: new Date(deps.clock.now().getTime() - 1000).toISOString() });
    const { items } = await listProjectFiles(deps, alice, project.projectId, {}, links);
    const byId = new Map(items.map((f) => [f.fileId, f.share]));
    expect(byId.get(files[0]!.fileId)).toEqual({ state: "open", hasPassword: false, downloads: 12, installs: 3 });
    expect(byId.get(files[1]!.fileId)).toMatchObject({ state: "disabled", downloads: 1 });
    expect(byId.get(files[2]!.fileId)).toMatchObject({ state: "capped", hasPassword: true, downloads: 5 });
    expect(byId.get(files[3]!.fileId)).toMatchObject({ state: "expired" });
    expect(byId.get("fil_00000009")).toBeNull();
    // One batched read for the page's completed builds, not one per row.
    expect(deps.files.statsCalls).toEqual([files.map((f) => f.userKey!).reverse()]);
    // The dashboard home's latest files carry the same.
    const latest = await latestFiles(deps, alice, {}, links);
    expect(latest.items.find((f) => f.fileId === files[0]!.fileId)!.share).toMatchObject({ downloads: 12, installs: 3 });
  });

  it("refuses a garbage, forged or foreign cursor with a 400 invalid_cursor on the cursor field, and limits outside 1–100", async () => {
    const { deps, project, files } = await setup(3);
    const secret = await deps.cursorSecret.bytes();
    const list = `project-files:${project.projectId}`;
    const sortKey = (f: (typeof files)[number]) => `FILE#${f.createdAt}#${f.fileId}`;
    // Well-formed sort keys of real files, but never handed out: unsigned, signed with another
    // secret, signed for another project's list, or with the MAC of another position.
    const unsigned = Buffer.from(sortKey(files[1]!)).toString("base64url");
    const handedOut = encodeCursor(secret, list, sortKey(files[1]!))!;
    const forged = [
      unsigned,
      `${unsigned}.${"A".repeat(22)}`,
      encodeCursor(new Uint8Array(32), list, sortKey(files[1]!))!,
      encodeCursor(secret, "project-files:prj_other", sortKey(files[1]!))!,
      `${Buffer.from(sortKey(files[2]!)).toString("base64url")}.${handedOut.split(".")[1]}`,
      encodeCursor(secret, list, "PROJECT#x")!,
      encodeCursor(secret, list, "FILE#not-a-date#fil_1")!,
    ];
    for (const cursor of ["garbage!", "%%%", "A".repeat(300), ...forged]) {
      const error = await listProjectFiles(deps, alice, project.projectId, { cursor }, links).catch((e: unknown) => e);
      expect(error, cursor).toBeInstanceOf(InvalidCursorError);
      expect((error as InvalidCursorError).code).toBe("invalid_cursor");
      expect((error as InvalidCursorError).details).toEqual({ fields: [{ field: "cursor", message: "is not a cursor of this list" }] });
    }
    // Past any cursor's length, the query itself is refused.
    await expect(listProjectFiles(deps, alice, project.projectId, { cursor: "A".repeat(600) }, links)).rejects.toBeInstanceOf(ValidationError);
    for (const limit of ["0", "101", "abc", "1.5"]) {
      await expect(listProjectFiles(deps, alice, project.projectId, { limit }, links)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(decodeCursor(secret, list, handedOut)).toBe(sortKey(files[1]!));
    // The cursor the list hands out is the one it takes back.
    const first = await listProjectFiles(deps, alice, project.projectId, { limit: "1" }, links);
    const second = await listProjectFiles(deps, alice, project.projectId, { limit: "1", cursor: first.nextCursor! }, links);
    expect(second.items.map((f) => f.fileId)).toEqual([files[1]!.fileId]);
  });

  it("hides the files of a project being deleted: the file page and a delete answer 404 and touch nothing", async () => {
    const { deps, project, files } = await setup(2);
    await expect(getFile(withLinks(deps), alice, files[0]!.fileId, links)).resolves.toMatchObject({ fileId: files[0]!.fileId });
    expect(await deps.projects.markDeleting(aliceWs, project.projectId)).toBe(true);
    for (const file of files) {
      const read = await getFile(withLinks(deps), alice, file.fileId, links).catch((e: unknown) => e);
      expect(read).toBeInstanceOf(NotFoundError);
      expect((read as NotFoundError).code).toBe("file_not_found");
      const removed = await deleteFile(deps, alice, file.fileId).catch((e: unknown) => e);
      expect(removed).toBeInstanceOf(NotFoundError);
    }
    // The purge, not this request, removes them.
    expect(deps.files.records.size).toBe(2);
  });

  it("answers 404 for another account's project and files", async () => {
    const { deps, project, files } = await setup(2);
    await expect(listProjectFiles(deps, bob, project.projectId, {}, links)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getFile(withLinks(deps), bob, files[0]!.fileId, links)).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteFile(deps, bob, files[0]!.fileId)).rejects.toBeInstanceOf(NotFoundError);
    expect(deps.files.records.size).toBe(2);
  });

  it("gives the file page all metadata, the project and the uploading key", async () => {
    const { deps, files } = await setup(1);
    const detail = await getFile(withLinks(deps), alice, files[0]!.fileId, links);
    expect(detail).toMatchObject({ projectName: "App", fileType: "application/octet-stream", metadata: { bundleId: "com.example.app" }, uploadedBy: { name: "CI key" } });
  });

  it("deletes the record, its share item, every version of its package and icon, and nothing else", async () => {
    const { deps, project, files } = await setup(3);
    await deps.projects.recordUpload(aliceWs, project.projectId, "t");
    deps.objects.putVersion(`uploads/${project.projectId}/${files[1]!.fileId}0/other.ipa`); // a neighbour sharing the id as a prefix
    await deleteFile(deps, alice, files[1]!.fileId);
    expect(deps.files.records.has(files[1]!.fileId)).toBe(false);
    expect(deps.files.shares.has(files[1]!.userKey!)).toBe(false);
    expect(deps.objects.count(`uploads/${project.projectId}/${files[1]!.fileId}/`)).toBe(0);
    expect(deps.objects.count(`uploads/${project.projectId}/`)).toBe(7);
    expect((await deps.projects.get(aliceWs, project.projectId))!.fileCount).toBe(0);
    await expect(getFile(withLinks(deps), alice, files[1]!.fileId, links)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lists the newest files across the account's projects for the dashboard home", async () => {
    const { deps, project } = await setup(0);
    const other = await createProject(deps, alice, { name: "Other", color: "red" });
    storedFile(deps, project.projectId, 1);
    storedFile(deps, other.projectId, 2);
    storedFile(deps, project.projectId, 3);
    const { items } = await latestFiles(deps, alice, { limit: "2" }, links);
    expect(items.map((f) => f.fileId)).toEqual(["fil_00000003", "fil_00000002"]);
    expect((await latestFiles(deps, bob, {}, links)).items).toEqual([]);
  });
});
