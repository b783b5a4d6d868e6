import type { FileCatalog, SharedFile } from "../ports";
import { latestOfApp, platformOf, type ListedBuild } from "../releases/latest-builds";
import { compareBuilds } from "./compare-builds";

/**
 * What the app page, the update check and the share page's "newer build" link ask of a project's
 * latest builds. They are answered by the one latest-build reader (releases/latest-builds.ts: the
 * project's 100 newest files, one walk with one bound), re-exported here where the app pages
 * import them.
 */
export { isExpired, isListed, latestOfApp, type ListedBuild } from "../releases/latest-builds";

/**
 * A newer build of the same app than the one a share page shows: the app's latest build
 * (latestOfApp: the newest completed, non-expired upload of the same platform and bundle id, the
 * shown one left out), when it orders above the shown one (compare-builds.ts). Usually one Query
 * of 25 (pages of 25 up to the window's 100 when the app's other builds are further back).
 * Undefined otherwise (the shown build is the newest, or none is in the window).
 */
export async function newerBuildThan(files: Pick<FileCatalog, "page">, shown: SharedFile, now: Date): Promise<ListedBuild | undefined> {
  const candidate = await latestOfApp(files, shown.projectId, { platform: platformOf(shown), bundleId: shown.metadata.bundleId }, now, shown.fileId);
  if (!candidate) return undefined;
  const newer = compareBuilds(
    { version: candidate.metadata.version, build: candidate.metadata.buildNumber },
    { version: shown.metadata.version, build: shown.metadata.buildNumber },
  );
  return newer > 0 ? candidate : undefined;
}
