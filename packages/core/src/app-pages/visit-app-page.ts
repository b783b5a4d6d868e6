import type { Clock, FileCatalog, PasswordHasher, UrlSigner } from "../ports";
import { deviceOfUserAgent, installOffer, type InstallOffer } from "../links/install-offer";
import { isIosInstallRequest, isPreviewBot, LINK_ACCESS_SECONDS, signLinkToken, utcDay, verifyLinkToken } from "../links/link-access";
import { LinkPasswordLimitedError, LinkPasswordRequiredError, WrongLinkPasswordError } from "../links/link-errors";
import { checkLinkPassword } from "../links/link-password";
import { admit, ICON_SECONDS, iconLocation, packageLocation, type LinkVisitLimits, type Visit } from "../links/visit-link";
import { AppBuildNotFoundError, AppPageNotFoundError } from "./app-page-errors";
import { isAppSlug } from "./app-page-settings";
import type { AppPageProject, AppPageStore } from "./app-page-store.port";
import { newestWindow } from "../releases/latest-builds";
import { isExpired, isListed, type ListedBuild } from "./newer-build";

/**
 * Visiting a project's public app page (`/apps/<slug>`) and what it links to: shaped like the
 * share links' visiting (links/visit-link.ts), whose pieces it reuses — the per-client rules,
 * the password check and its limits, the access tokens, the install offer, the signed GETs — so
 * a page with a password behaves exactly like a protected share link.
 *
 * Downloads and install starts through the page count on the build's own counters (the
 * dashboard's downloads, installs and daily series) but are not held to its share link's cap or
 * switch: the page is the owner's publication of the app, the cap limits how far one link travels.
 */

/** The share links' per-client rules, under the same names (sharePage, download, downloadPerLink, password). */
export type AppVisitLimits = LinkVisitLimits;

/** Counts on a build's share item without its cap or switch (share-links.dynamo.ts). */
export interface BuildCounters {
  countUncapped(userKey: string, day: string, counter: "downloads" | "installs"): Promise<void>;
}

export interface AppVisitDeps {
  pages: Pick<AppPageStore, "bySlug">;
  files: Pick<FileCatalog, "page" | "get">;
  counters: BuildCounters;
  signer: UrlSigner;
  hasher: PasswordHasher;
  clock: Clock;
  limits: AppVisitLimits;
  downloadExpiresSeconds: number;
}

/** A visit of an app page: the share visit's fields, with the slug as its key. */
export type AppVisit = Omit<Visit, "userKey"> & { slug: string | undefined };

/** At most this many builds are listed below the latest ones. */
export const EARLIER_BUILDS = 20;

/** The access tokens' subject: the page's own, apart from every share key. */
const subjectOf = (slug: string) => `app:${slug}`;

function hasAccess(project: AppPageProject, tokens: readonly string[], now: Date): boolean {
  const page = project.appPage!;
  if (!page.passwordHash) return true;
  return tokens.slice(0, 8).some((token) => verifyLinkToken(page.tokenSecret, subjectOf(page.slug), token, now));
}

/** Unknown, malformed, replaced or turned-off slug → the same 404; protected without proof → 401; else the project. */
async function openPage(deps: AppVisitDeps, visit: AppVisit, now: Date, options: { password: boolean }): Promise<AppPageProject & { appPage: NonNullable<AppPageProject["appPage"]> }> {
  const project = isAppSlug(visit.slug) ? await deps.pages.bySlug(visit.slug) : undefined;
  if (!project?.appPage?.enabled || project.status !== "active") throw new AppPageNotFoundError();
  if (options.password && !hasAccess(project, visit.tokens ?? [], now)) throw new LinkPasswordRequiredError();
  return project as AppPageProject & { appPage: NonNullable<AppPageProject["appPage"]> };
}

const urlToken = (project: AppPageProject, now: Date) => {
  const page = project.appPage!;
  return page.passwordHash && page.tokenSecret ? signLinkToken(page.tokenSecret, subjectOf(page.slug), now) : undefined;
};

export interface ShownBuild {
  file: ListedBuild;
  offer: InstallOffer;
  /** Signed icon GET (the latest builds only). */
  iconUrl?: string;
}

export interface AppPage {
  slug: string;
  projectName: string;
  /** The newest completed, non-expired build of each platform (newer-build.ts says what expired means). */
  latest: { ios?: ShownBuild; android?: ShownBuild };
  /** Up to EARLIER_BUILDS other builds, newest first. */
  earlier: ShownBuild[];
  protected: boolean;
  /** Proof of the password for the manifest URLs (iOS fetches them without cookies). */
  accessToken?: string;
}

/** The page: the latest build per platform with this device's buttons, and the earlier builds. */
export async function openAppPage(deps: AppVisitDeps, visit: AppVisit & { insecure: boolean }): Promise<AppPage> {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const project = await openPage(deps, visit, now, { password: true });
  // The latest-build window (releases/latest-builds.ts: the project's 100 newest files) in one Query.
  const builds = (await newestWindow(deps.files, project.projectId)).filter(isListed);
  const device = deviceOfUserAgent(visit.userAgent);
  const show = (file: ListedBuild): ShownBuild => ({ file, offer: installOffer(file, device, { insecure: visit.insecure, now }) });
  const latestIos = builds.find((f) => f.metadata.platform === "ios" && !isExpired(f, now));
  const latestAndroid = builds.find((f) => f.metadata.platform === "android");
  const latest: AppPage["latest"] = {};
  for (const [platform, file] of [["ios", latestIos], ["android", latestAndroid]] as const) {
    if (!file) continue;
    const iconUrl = await iconLocation(deps.signer, file, ICON_SECONDS);
    latest[platform] = { ...show(file), ...(iconUrl ? { iconUrl } : {}) };
  }
  const earlier = builds.filter((f) => f !== latestIos && f !== latestAndroid).slice(0, EARLIER_BUILDS).map(show);
  const accessToken = urlToken(project, now);
  return {
    slug: project.appPage.slug,
    projectName: project.name,
    latest,
    earlier,
    protected: project.appPage.passwordHash !== undefined,
    ...(accessToken ? { accessToken } : {}),
  };
}

/** The password form (POST /apps/{slug}), with the share links' rules and answers. */
export async function unlockAppPage(deps: AppVisitDeps, visit: AppVisit & { password: string | undefined }): Promise<{ slug: string; access?: { token: string; maxAgeSeconds: number } }> {
  const now = deps.clock.now();
  const project = await openPage(deps, visit, now, { password: false });
  const page = project.appPage;
  if (!page.passwordHash || !page.tokenSecret) return { slug: page.slug };
  const check = await checkLinkPassword({ hasher: deps.hasher, limits: deps.limits.password }, { userKey: subjectOf(page.slug), passwordHash: page.passwordHash }, visit.password, visit.client, now);
  if (check.outcome === "limited") throw new LinkPasswordLimitedError(check.rateLimit, check.retryAfterSeconds);
  if (check.outcome === "wrong") throw new WrongLinkPasswordError();
  return { slug: page.slug, access: { token: signLinkToken(page.tokenSecret, subjectOf(page.slug), now, LINK_ACCESS_SECONDS), maxAgeSeconds: LINK_ACCESS_SECONDS } };
}

const FILE_ID = /^[A-Za-z0-9_]{1,64}$/;

/** A build of the page's project, by its id; anything else (another project's, pending, deleted) is 404. */
async function pageBuild(deps: AppVisitDeps, visit: AppVisit & { fileId: string }, now: Date) {
  const project = await openPage(deps, visit, now, { password: true });
  const file = FILE_ID.test(visit.fileId) ? await deps.files.get(visit.fileId) : undefined;
  if (!file || file.projectId !== project.projectId || !isListed(file)) throw new AppBuildNotFoundError();
  return { project, file };
}

export type AppDownload =
  | { kind: "described"; fileName: string; fileSize: number }
  | { kind: "preview"; slug: string }
  | { kind: "counted"; location: string };

/** `/apps/{slug}/files/{fileId}/download`: a fresh signed GET of the package, counted once per GET from a person. */
export async function downloadAppBuild(deps: AppVisitDeps, visit: AppVisit & { fileId: string; headOnly: boolean }): Promise<AppDownload> {
  const now = deps.clock.now();
  await admit(deps.limits.download, visit.client, "client", now);
  const { project, file } = await pageBuild(deps, visit, now);
  if (visit.headOnly) return { kind: "described", fileName: file.fileName, fileSize: file.fileSize };
  if (isPreviewBot(visit.userAgent)) return { kind: "preview", slug: project.appPage.slug };
  await admit(deps.limits.downloadPerLink, `${file.userKey}:${visit.client}`, "link", now);
  await deps.counters.countUncapped(file.userKey, utcDay(now), "downloads");
  return { kind: "counted", location: await packageLocation(deps.signer, file, deps.downloadExpiresSeconds) };
}

/** `/apps/{slug}/files/{fileId}/manifest.plist` of an iOS build; a GET by iOS's installer is one install start. */
export async function appBuildManifest(deps: AppVisitDeps, visit: AppVisit & { fileId: string; headOnly: boolean }) {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const { project, file } = await pageBuild(deps, visit, now);
  if (file.metadata.platform !== "ios") throw new AppBuildNotFoundError("Only iOS builds have an install manifest");
  const installRequest = !visit.headOnly && isIosInstallRequest(visit.userAgent);
  if (installRequest) await deps.counters.countUncapped(file.userKey, utcDay(now), "installs");
  const accessToken = urlToken(project, now);
  return { slug: project.appPage.slug, file, installRequest, ...(accessToken ? { accessToken } : {}) };
}

/** `/apps/{slug}/files/{fileId}/icon.png`: where the icon's fresh signed GET is. */
export async function appBuildIcon(deps: AppVisitDeps, visit: AppVisit & { fileId: string }): Promise<{ location: string }> {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const { file } = await pageBuild(deps, visit, now);
  const location = await iconLocation(deps.signer, file, ICON_SECONDS);
  if (!location) throw new AppBuildNotFoundError("This build has no icon");
  return { location };
}
