import type { CompletedFile, FileCatalog, FilePage, FileRecord } from "../ports";
import { installability } from "../upload/installability";

/**
 * The one reader of a project's latest builds (docs/release-safety.md, "Latest builds"). Every
 * question of the form "the newest build of this app", "the build before this one", "each app's
 * newest build" is answered from the same window: **the project's 100 newest files** on gsi1
 * (`PROJECT#<id>` / `FILE#<createdAt>#<fileId>`, newest upload first), read by one walk with one
 * bound. Callers differ only in how they read the window (the whole of it in one Query, or page by
 * page until they have their answer) and in the pure selector they ask.
 *
 * | reader | how | selector |
 * |---|---|---|
 * | the expiry run and the dashboard's expiry banner | the window in one Query | `latestBuilds` |
 * | the app page | the window in one Query | `isListed`, `isExpired` (visit-app-page.ts) |
 * | re-comparing the builds after a delete | the window in one Query | `previousIn`, per build that named the deleted one |
 * | complete, and `GET /api/files/{fileId}/diff` | pages (4 first: complete reads it beside the package; then 25) until found | `previousIn` |
 * | the update check, and the share page's "newer build" link | pages of 25 until found | `latestOfApp` |
 *
 * A latest-build item per app, kept at complete and delete, was rejected: it would have to stay
 * right through deletes, retention and profiles that expire while nobody uploads (the newest
 * non-expired build changes with the clock), and the previous build of an older build, which the
 * diff needs, is not a "latest" at all. Reading a bounded window costs one Query at most four.
 *
 * The bound: a CI that uploads other apps in between still finds the app's builds, and a project
 * that ships many apps with more than 100 uploads since an app's last build gets no answer for it
 * (no diff, no warning, no update) rather than an unbounded read.
 */

/** How many of a project's newest files every latest-build question looks at. */
export const LATEST_WINDOW = 100;
/** The size of every page after the first, for readers that stop once they have their answer. */
export const LATEST_PAGE = 25;

/** A completed upload with its extracted metadata: what every selector below looks at. */
export type Completed = FileRecord & { status: "completed"; completedAt: string; metadata: NonNullable<FileRecord["metadata"]> };

export const isCompleted = (file: FileRecord): file is Completed => file.status === "completed" && !!file.metadata && !!file.completedAt;

/**
 * The window page by page, newest first, never more than LATEST_WINDOW files in all. `first`: the
 * first page's size (LATEST_WINDOW reads the whole window in one Query), or that page when the
 * caller has asked for it already (complete, beside the package). A page DynamoDB cut short (its
 * 1 MB) is followed by the next, so the window is the same whatever the items weigh.
 */
export async function* newestFiles(files: Pick<FileCatalog, "page">, projectId: string, first: number | Promise<FilePage> = LATEST_PAGE): AsyncGenerator<FileRecord[], void> {
  let seen = 0;
  let after: string | undefined;
  while (seen < LATEST_WINDOW) {
    const page =
      seen === 0 && typeof first !== "number"
        ? await first
        : await files.page(projectId, Math.min(seen === 0 ? (first as number) : LATEST_PAGE, LATEST_WINDOW - seen), after);
    const items = page.items.slice(0, LATEST_WINDOW - seen);
    seen += items.length;
    yield items;
    if (!page.after || items.length === 0) return;
    after = page.after;
  }
}

/** The whole window: one Query (more only when DynamoDB cut a page at 1 MB). */
export async function newestWindow(files: Pick<FileCatalog, "page">, projectId: string): Promise<FileRecord[]> {
  const window: FileRecord[] = [];
  for await (const items of newestFiles(files, projectId, LATEST_WINDOW)) window.push(...items);
  return window;
}

// --- Selectors (pure)

/** Each app's latest build: the newest completed (by completion) per platform and bundle id, newest first. */
export function latestBuilds(files: readonly FileRecord[]): FileRecord[] {
  const seen = new Set<string>();
  const out: FileRecord[] = [];
  const completed = files.filter(isCompleted);
  completed.sort((a, b) => (a.completedAt < b.completedAt ? 1 : a.completedAt > b.completedAt ? -1 : 0));
  for (const file of completed) {
    const key = `${file.metadata.platform ?? ""}\n${file.metadata.bundleId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(file);
  }
  return out;
}

/**
 * The build `file` follows among `files` (newest upload first): the first completed build of the
 * same app (platform and bundle id) that completed before it; undefined when none does.
 */
export function previousIn(files: readonly FileRecord[], file: Completed): Completed | undefined {
  return files.find(
    (f): f is Completed =>
      f.fileId !== file.fileId &&
      isCompleted(f) &&
      f.metadata.platform === file.metadata.platform &&
      f.metadata.bundleId === file.metadata.bundleId &&
      f.completedAt < file.completedAt,
  );
}

/** How complete reads the window: a small first page (asked beside the package, before the app is known), then pages of 25. */
export const PREVIOUS_BUILD_SCAN = { first: 4, pageSize: LATEST_PAGE, files: LATEST_WINDOW } as const;

/** The build `file` follows (previousIn), page by page until found; undefined: a first build. */
export async function previousBuildOf(
  files: Pick<FileCatalog, "page">,
  file: Completed,
  /** The first page (PREVIOUS_BUILD_SCAN.first newest files) when the caller already asked for it. */
  firstPage: Promise<FilePage> = files.page(file.projectId, PREVIOUS_BUILD_SCAN.first),
): Promise<Completed | undefined> {
  for await (const items of newestFiles(files, file.projectId, firstPage)) {
    const found = previousIn(items, file);
    if (found) return found;
  }
  return undefined;
}

/**
 * The builds an app page lists and the update check offers: completed uploads with their
 * extracted metadata. "Expired" (the "latest completed, non-expired build") is an iOS
 * build whose provisioning profile has expired: iOS refuses to install it, so it is never offered
 * as the latest (it stays in the app page's history). Android builds do not expire.
 */
export type ListedBuild = CompletedFile;

export const isListed = (file: FileRecord): file is ListedBuild =>
  file.status === "completed" && typeof file.userKey === "string" && typeof file.completedAt === "string" && typeof file.metadata?.bundleId === "string";

export const isExpired = (file: Pick<FileRecord, "metadata">, now: Date) => {
  const decision = installability(file.metadata ?? {}, now);
  return !decision.installable && decision.reason === "profile_expired";
};

export const platformOf = (file: Pick<FileRecord, "metadata">) =>
  file.metadata?.platform === "ios" ? "ios" : file.metadata?.platform === "android" ? "android" : undefined;

/** An app: platform (undefined for a package extraction could not place) and bundle id (package name on Android). */
export interface AppRef {
  platform: "ios" | "android" | undefined;
  bundleId: string;
}

/**
 * The newest completed, non-expired upload of one app (newest by upload time: the build CI sent
 * last), other than `except`, page by page until found; undefined when the window holds none.
 */
export async function latestOfApp(files: Pick<FileCatalog, "page">, projectId: string, app: AppRef, now: Date, except?: string): Promise<ListedBuild | undefined> {
  for await (const items of newestFiles(files, projectId)) {
    const found = items.find((f) => f.fileId !== except && isListed(f) && platformOf(f) === app.platform && f.metadata?.bundleId === app.bundleId && !isExpired(f, now));
    if (found) return found as ListedBuild;
  }
  return undefined;
}
