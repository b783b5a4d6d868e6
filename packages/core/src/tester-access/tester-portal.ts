import { linkState } from "../links/link-access";
import { installLinkToken, installLinkUrl } from "../testers/install-link";
import type { TesterSession } from "../testers/tester-context";
import { installability } from "../upload/installability";
import { buildVerdicts, type PageVerdict } from "../devices/build-verdicts";
import type { TesterAppDetail, TesterApps, TesterAppSummary, TesterBuild, TesterBuildDevice } from "./tester-access.schema";
import { appNotFound } from "./tester-access-errors";
import type { SentBuild, TesterAccessDeps } from "./tester-access-deps";

type PortalDeps = Pick<TesterAccessDeps, "portal" | "signer" | "installLinkSecret" | "clock" | "settings" | "devices">;

/** Where personal install links point (the share host: `{share}/install/<token>`) and where the portal's enroll flow starts (its own host). */
export interface PortalLinks {
  shareBaseUrl: string;
  /** The dashboard's origin, where the portal and its `hangar_tester` cookie live. */
  publicBaseUrl: string;
}

/**
 * The portal page's "Check this iPhone": the enroll flow started on the portal's own host, so the
 * enroll page gets the `hangar_tester` cookie that says whose device it is; the device's answer
 * and the result page stay on the share host, which hands the cookie back (devices/device-handoff.ts).
 */
const enrollUrl = (links: PortalLinks, returnPath: string) => `${links.publicBaseUrl}/devices/enroll?return=${encodeURIComponent(returnPath)}`;

/** A build's verdict as the portal answers it (`device` set for in-profile and not-in-profile). */
function portalVerdict(verdict: PageVerdict | undefined): TesterBuildDevice {
  return { verdict: verdict?.kind ?? "not-applicable", device: verdict?.device ?? null, told: verdict?.told ?? false };
}

/**
 * Whether a sent build is still there for the tester: its upload completed, its project is not
 * being deleted, and its owner did not end it by an expiry on its share link (the build is
 * withdrawn then; a disabled link, a password or a download cap do not apply to personal links).
 * A deleted build has no file item and never reaches here.
 */
function live(build: SentBuild, now: Date): boolean {
  if (build.file.status !== "completed" || build.project.status !== "active") return false;
  return !build.linkExpiresAt || linkState({ enabled: true, expiresAt: build.linkExpiresAt, downloads: 0 }, now) !== "expired";
}

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

async function buildOf(deps: PortalDeps, secret: Uint8Array, sent: SentBuild, email: string, links: PortalLinks, now: Date, verdict: PageVerdict | undefined): Promise<TesterBuild> {
  const { file } = sent;
  const m = file.metadata;
  const platform = m?.platform === "ios" || m?.platform === "android" ? m.platform : null;
  return {
    fileId: file.fileId,
    platform,
    appName: text(m?.appName),
    bundleId: text(m?.bundleId),
    version: text(m?.version),
    build: text(m?.buildNumber),
    uploadedAt: file.completedAt ?? file.createdAt,
    size: file.fileSize,
    releaseNotes: text(file.buildContext?.releaseNotes),
    message: sent.message,
    installUrl: installLinkUrl(links.shareBaseUrl, installLinkToken(secret, file.fileId, email)),
    // Signed like the dashboard's (dashboard/files.ts): inline, an hour.
    iconUrl: file.iconKey
      ? await deps.signer.presignGet({ key: file.iconKey, downloadName: "icon.png", expiresInSeconds: deps.settings.iconUrlSeconds, inline: true })
      : null,
    installable: m ? installability(m, now).installable : false,
    device: portalVerdict(verdict),
  };
}

const uploadedAt = (b: SentBuild) => b.file.completedAt ?? b.file.createdAt;

/**
 * The tester's live builds, newest upload first (a build sent again later keeps its place), as
 * answers, each with this device's verdict (`cookies`: the request's `hangar_ios_device` values). A
 * device not in a build's profile is recorded for the build's workspace under the tester's address.
 */
async function liveBuilds(deps: PortalDeps, tester: TesterSession, links: PortalLinks, cookies: readonly string[], projectId?: string) {
  const now = deps.clock.now();
  const [sent, secret] = await Promise.all([deps.portal.sentBuilds(tester.email, projectId), deps.installLinkSecret.bytes()]);
  const kept = sent.filter((b) => live(b, now)).sort((a, b) => uploadedAt(b).localeCompare(uploadedAt(a)));
  const verdicts = deps.devices
    ? await buildVerdicts(deps.devices, { builds: kept.map((b) => ({ fileId: b.file.fileId, metadata: b.file.metadata })), cookies, email: tester.email })
    : new Map<string, PageVerdict>();
  return Promise.all(kept.map(async (b) => ({ sent: b, build: await buildOf(deps, secret, b, tester.email, links, now, verdicts.get(b.file.fileId)) })));
}

/**
 * `GET /api/tester/apps`: every project something was sent to this tester from, the project with
 * the newest build first, with its newest build per platform. Only builds sent to this address
 * (its recipient items) appear; other builds of the same projects do not.
 */
export async function listTesterApps(deps: PortalDeps, tester: TesterSession, links: PortalLinks, cookies: readonly string[] = []): Promise<TesterApps> {
  const apps = new Map<string, TesterAppSummary>();
  for (const { sent, build } of await liveBuilds(deps, tester, links, cookies)) {
    let app = apps.get(sent.project.projectId);
    if (!app) {
      app = { projectId: sent.project.projectId, projectName: sent.project.name, workspaceName: sent.workspace.name, latest: { ios: null, android: null } };
      apps.set(app.projectId, app);
    }
    if (build.platform && !app.latest[build.platform]) app.latest[build.platform] = build;
  }
  return { items: [...apps.values()], enrollUrl: enrollUrl(links, "/apps") };
}

/** `GET /api/tester/apps/{projectId}`: every live build of the project sent to this tester, newest first; 404 `app_not_found` when none. */
export async function getTesterApp(
  deps: PortalDeps,
  tester: TesterSession,
  ref: { projectId: string },
  links: PortalLinks,
  cookies: readonly string[] = [],
): Promise<TesterAppDetail> {
  const builds = await liveBuilds(deps, tester, links, cookies, ref.projectId);
  const first = builds[0];
  if (!first) throw appNotFound();
  return {
    projectId: first.sent.project.projectId,
    projectName: first.sent.project.name,
    workspaceName: first.sent.workspace.name,
    builds: builds.map((b) => b.build),
    enrollUrl: enrollUrl(links, `/tester/apps/${first.sent.project.projectId}`),
  };
}
