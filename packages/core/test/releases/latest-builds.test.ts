import { describe, expect, it } from "vitest";
import type { FileCatalog, FilePage, FileRecord } from "../../src/ports";
import { latestOfApp, LATEST_WINDOW, newestWindow, previousBuildOf, type Completed } from "../../src/releases/latest-builds";
import { rebasedDiffs } from "../../src/releases/compare-builds";

/**
 * The one latest-build reader (docs/release-safety.md "Latest builds"): every question reads the
 * same window of the project's newest files, with one bound, and says so in Queries.
 */

const NOW = new Date("2026-06-01T00:00:00Z");
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();

/** File `i` of a project, uploaded at minute i (higher is newer); `app` names its bundle id. */
function file(i: number, app: string, extra: Partial<FileRecord> = {}): FileRecord {
  return {
    fileId: `fil_${String(i).padStart(4, "0")}`,
    key: `uploads/p/${i}/a`,
    projectId: "p",
    clientId: "c",
    fileName: "a.apk",
    fileType: "x",
    fileSize: 1000,
    status: "completed",
    createdAt: at(i),
    completedAt: at(i),
    userKey: `key${i}`,
    metadata: { appName: "A", bundleId: app, version: `1.${i}`, buildNumber: String(i), platform: "android" },
    ...extra,
  };
}

/** A catalog over `files` (any order) that records each Query by the number of files it read. */
function catalog(files: FileRecord[]) {
  const newest = [...files].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const queries: number[] = [];
  const files_: Pick<FileCatalog, "page"> = {
    page: async (_projectId, limit, after): Promise<FilePage> => {
      const start = after ? newest.findIndex((f) => `FILE#${f.createdAt}#${f.fileId}` === after) + 1 : 0;
      const items = newest.slice(start, start + limit);
      queries.push(items.length);
      const last = items.at(-1);
      return { items, ...(last && start + limit < newest.length ? { after: `FILE#${last.createdAt}#${last.fileId}` } : {}) };
    },
  };
  return { files: files_, queries };
}

describe("the latest-build window", () => {
  it("is the project's 100 newest files, read in one Query", async () => {
    const c = catalog(Array.from({ length: 150 }, (_, i) => file(i, "com.a")));
    const window = await newestWindow(c.files, "p");
    expect(window).toHaveLength(LATEST_WINDOW);
    expect(window[0]!.fileId).toBe("fil_0149");
    expect(c.queries).toEqual([100]);
  });

  it("finds an app's latest build page by page, and stops at the window's bound", async () => {
    // com.b's only build is the 90th newest file: found on the fourth page of 25.
    const c = catalog(Array.from({ length: 200 }, (_, i) => file(i, i === 110 ? "com.b" : "com.a")));
    expect((await latestOfApp(c.files, "p", { platform: "android", bundleId: "com.b" }, NOW))?.fileId).toBe("fil_0110");
    expect(c.queries).toEqual([25, 25, 25, 25]);

    // An app beyond the 100 newest files has no latest build: four Queries, 100 files, never more.
    const far = catalog([file(0, "com.c"), ...Array.from({ length: 120 }, (_, i) => file(i + 1, "com.a"))]);
    expect(await latestOfApp(far.files, "p", { platform: "android", bundleId: "com.c" }, NOW)).toBeUndefined();
    expect(far.queries).toEqual([25, 25, 25, 25]);
  });

  it("looks for a previous build within the same 100 files, after complete's small first page", async () => {
    const files = [file(0, "com.a"), ...Array.from({ length: 98 }, (_, i) => file(i + 1, "com.other")), file(99, "com.a")];
    const c = catalog(files);
    const current = files.at(-1) as Completed;
    expect((await previousBuildOf(c.files, current))?.fileId).toBe("fil_0000");
    expect(c.queries).toEqual([4, 25, 25, 25, 21]);
    expect(c.queries.reduce((a, b) => a + b)).toBe(LATEST_WINDOW);

    // One file more in between: the earlier build is outside the window, so this is a first build.
    const beyond = catalog([file(0, "com.a"), ...Array.from({ length: 99 }, (_, i) => file(i + 1, "com.other")), file(100, "com.a")]);
    expect(await previousBuildOf(beyond.files, file(100, "com.a") as Completed)).toBeUndefined();
  });

  it("compares again every build that named a deleted one from a single read of the window", async () => {
    const diffNaming = (fileId: string) => ({ previous: { fileId, version: "1", buildNumber: "1" }, changes: [] });
    const files = [file(1, "com.a"), file(3, "com.a", { diff: diffNaming("fil_0002") }), file(4, "com.b"), file(5, "com.b", { diff: diffNaming("fil_0002") })];
    const c = catalog(files);
    const rebased = await rebasedDiffs(c.files, { fileId: "fil_0002", projectId: "p" });
    expect(rebased.map((r) => [r.fileId, r.diff?.previous.fileId ?? null])).toEqual([
      ["fil_0005", "fil_0004"],
      ["fil_0003", "fil_0001"],
    ]);
    expect(c.queries).toEqual([4]);
  });
});
