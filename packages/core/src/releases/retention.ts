/**
 * A project's retention policy (issue 24, docs/release-safety.md): which completed builds a policy
 * removes now. One pure function, so the preview (`GET /api/projects/{projectId}/retention/preview`)
 * and the daily run cannot disagree: the run removes exactly what the preview lists at that moment.
 *
 * - `keepLatest: N` keeps the N newest builds of each platform and branch (builds without a
 *   branch form one group per platform); older ones go.
 * - `maxAgeDays: D` removes builds completed more than D days ago.
 * - Both: a build goes when either says so ("keep at most 5, none older than 30 days").
 * - Never removed: pinned builds, and each platform's newest build (whatever its branch), so an app
 *   page, an update check and the share page's "newer build" link always have something to show.
 *
 * Browser-safe: no imports.
 */
export interface RetentionPolicy {
  keepLatest?: number;
  maxAgeDays?: number;
}

/** Bounds of a policy's numbers (the API refuses others). */
export const RETENTION_BOUNDS = { keepLatest: { min: 1, max: 1000 }, maxAgeDays: { min: 1, max: 3650 } } as const;

export interface RetainedBuild {
  fileId: string;
  platform: "android" | "ios" | string;
  branch?: string | null;
  /** ISO time. */
  completedAt: string;
  pinned?: boolean;
  fileSize: number;
}

export interface RetentionVerdict<B extends RetainedBuild> {
  build: B;
  /** Why it goes: over the count of its group, or too old (both when both). */
  reasons: ("over_keep_latest" | "older_than_max_age")[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The builds the policy removes at `now`, oldest first. An empty policy removes nothing. */
export function buildsToRemove<B extends RetainedBuild>(policy: RetentionPolicy | null | undefined, builds: readonly B[], now: Date): RetentionVerdict<B>[] {
  if (!policy || (policy.keepLatest === undefined && policy.maxAgeDays === undefined)) return [];
  const newestFirst = [...builds].sort((a, b) => b.completedAt.localeCompare(a.completedAt) || b.fileId.localeCompare(a.fileId));

  const platformLatest = new Set<string>();
  const seenPlatforms = new Set<string>();
  for (const build of newestFirst) {
    if (seenPlatforms.has(build.platform)) continue;
    seenPlatforms.add(build.platform);
    platformLatest.add(build.fileId);
  }

  const rankInGroup = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const build of newestFirst) {
    const group = `${build.platform}\n${build.branch ?? ""}`;
    const rank = (counts.get(group) ?? 0) + 1;
    counts.set(group, rank);
    rankInGroup.set(build.fileId, rank);
  }

  const cutoff = policy.maxAgeDays === undefined ? undefined : now.getTime() - policy.maxAgeDays * DAY_MS;
  const verdicts: RetentionVerdict<B>[] = [];
  for (const build of newestFirst) {
    if (build.pinned || platformLatest.has(build.fileId)) continue;
    const reasons: RetentionVerdict<B>["reasons"] = [];
    if (policy.keepLatest !== undefined && rankInGroup.get(build.fileId)! > policy.keepLatest) reasons.push("over_keep_latest");
    const completed = Date.parse(build.completedAt);
    if (cutoff !== undefined && Number.isFinite(completed) && completed < cutoff) reasons.push("older_than_max_age");
    if (reasons.length > 0) verdicts.push({ build, reasons });
  }
  return verdicts.reverse();
}
