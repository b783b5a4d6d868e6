import { describe, expect, it } from "vitest";
import { buildsToRemove, type RetainedBuild } from "../../src/releases/retention";

const NOW = new Date("2026-11-26T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const b = (fileId: string, platform: string, age: number, extra: Partial<RetainedBuild> = {}): RetainedBuild => ({
  fileId,
  platform,
  completedAt: daysAgo(age),
  fileSize: 100,
  ...extra,
});
const ids = (v: ReturnType<typeof buildsToRemove>) => v.map((x) => x.build.fileId);

describe("buildsToRemove", () => {
  const builds = [b("a1", "android", 1), b("a2", "android", 2), b("a3", "android", 3), b("a4", "android", 40), b("i1", "ios", 50), b("i2", "ios", 60)];

  it("removes nothing without a policy", () => {
    expect(buildsToRemove(null, builds, NOW)).toEqual([]);
    expect(buildsToRemove({}, builds, NOW)).toEqual([]);
  });

  it("keeps the newest N of each platform, and each platform's newest whatever the age", () => {
    expect(ids(buildsToRemove({ keepLatest: 2 }, builds, NOW))).toEqual(["a4", "a3"]);
    expect(ids(buildsToRemove({ maxAgeDays: 30 }, builds, NOW))).toEqual(["i2", "a4"]);
  });

  it("removes a build when either rule says so, oldest first, with the reasons", () => {
    const verdicts = buildsToRemove({ keepLatest: 3, maxAgeDays: 30 }, builds, NOW);
    expect(verdicts.map((v) => [v.build.fileId, v.reasons])).toEqual([
      ["i2", ["older_than_max_age"]],
      ["a4", ["over_keep_latest", "older_than_max_age"]],
    ]);
  });

  it("never removes a pinned build", () => {
    const pinned = builds.map((x) => (x.fileId === "a4" ? { ...x, pinned: true } : x));
    expect(ids(buildsToRemove({ keepLatest: 1 }, pinned, NOW))).toEqual(["i2", "a3", "a2"]);
  });

  it("counts per branch when builds carry one, keeping the platform's newest across branches", () => {
    const branched = [
      b("m1", "android", 1, { branch: "main" }),
      b("m2", "android", 2, { branch: "main" }),
      b("f1", "android", 3, { branch: "feature" }),
      b("f2", "android", 4, { branch: "feature" }),
    ];
    expect(ids(buildsToRemove({ keepLatest: 1 }, branched, NOW))).toEqual(["f2", "m2"]);
  });
});
