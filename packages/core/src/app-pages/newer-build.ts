import type { CompletedFile, FileCatalog, FileRecord, SharedFile } from "../ports";
import { installability } from "../upload/installability";
import { compareBuilds } from "./compare-builds";

/**
 * The builds an app page lists and the update check offers: completed uploads with their
 * extracted metadata. "Expired" (the "latest completed, non-expired build") is an iOS
 * build whose provisioning profile has expired: iOS refuses to install it, so it is never offered
 * as the latest (it stays in the page's history). Android builds do not expire.
 */
export type ListedBuild = CompletedFile;

export const isListed = (file: FileRecord): file is ListedBuild =>
  file.status === "completed" && typeof file.userKey === "string" && typeof file.completedAt === "string" && typeof file.metadata?.bundleId === "string";

export const isExpired = (file: Pick<FileRecord, "metadata">, now: Date) => {
  const decision = installability(file.metadata ?? {}, now);
  return !decision.installable && decision.reason === "profile_expired";
};

const platformOf = (file: Pick<FileRecord, "metadata">) => (file.metadata?.platform === "ios" ? "ios" : file.metadata?.platform === "android" ? "android" : undefined);

/** The same app: platform and bundle id (package name on Android). */
const sameApp = (file: Pick<FileRecord, "metadata">, platform: string | undefined, bundleId: string) =>
  platformOf(file) === platform && file.metadata?.bundleId === bundleId;

/** Newest uploads first, a few pages at most: enough for a project that ships several apps. */
const PAGE = 50;
const MAX_PAGES = 4;

/**
 * The newest completed, non-expired upload of one app in a project (newest by upload time: the
 * build CI sent last), or undefined. One gsi1 Query per 50 uploads, at most four.
 */
export async function latestOfApp(
  files: Pick<FileCatalog, "page">,
  projectId: string,
  app: { platform: "ios" | "android"; bundleId: string },
  now: Date,
): Promise<ListedBuild | undefined> {
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await files.page(projectId, PAGE, after);
    const found = page.items.find((f) => isListed(f) && sameApp(f, app.platform, app.bundleId) && !isExpired(f, now));
    if (found) return found as ListedBuild;
    if (!page.after) return undefined;
    after = page.after;
  }
  return undefined;
}

/** How far back the share page looks for a newer build: one small Query. */
const NEWER_LOOKUP = 25;

/**
 * A newer build of the same app than the one a share page shows: among the project's 25 newest
 * uploads, the newest completed, non-expired one of the same platform and bundle id, when it
 * orders above the shown one (compare-builds.ts) — one Query with a small Limit, so an old link
 * costs one read more. Undefined otherwise (the shown build is the newest, or none is close).
 */
export async function newerBuildThan(files: Pick<FileCatalog, "page">, shown: SharedFile, now: Date): Promise<ListedBuild | undefined> {
  const page = await files.page(shown.projectId, NEWER_LOOKUP);
  const platform = platformOf(shown);
  const candidate = page.items.find(
    (f) => f.fileId !== shown.fileId && isListed(f) && sameApp(f, platform, shown.metadata.bundleId) && !isExpired(f, now),
  ) as ListedBuild | undefined;
  if (!candidate) return undefined;
  const newer = compareBuilds(
    { version: candidate.metadata.version, build: candidate.metadata.buildNumber },
    { version: shown.metadata.version, build: shown.metadata.buildNumber },
  );
  return newer > 0 ? candidate : undefined;
}
