import * as z from "zod/mini";
import type { Clock, FileRecord, FileRepository, RateLimiter, SharedFile, UrlSigner } from "../ports";
import { deviceOfUserAgent, installOffer, type InstallOffer } from "../links/install-offer";
import { isIosInstallRequest, isPreviewBot } from "../links/link-access";
import { LinkGoneError, UnknownLinkError } from "../links/link-errors";
import { admit, ICON_SECONDS, iconLocation, noIcon, noManifest, packageLocation } from "../links/visit-link";
import { parseTesterCookie } from "../tester-access/tester-sessions";
import { INSTALL_LINK_TOKEN, installLinkHash } from "../testers/install-link";
import { deviceFamilyOf } from "./device-family";
import type { InstallLinkTarget, InstallRecords } from "./install-records.port";

/**
 * Personal install links (docs/testers.md): `{share}/install/<token>` is the share page of one
 * build for one tester, and its download and manifest count for that tester. Shaped like
 * share-link visiting (links/visit-link.ts), whose pieces it reuses: the per-client rules first
 * (counted before anything is read), then the token's shape (a malformed one costs no read), one
 * read of its link, then the build.
 *
 * What the share link's owner set on it does not apply here: not its password (the distribution
 * is the grant: the build was sent to this address), not its expiry, its switch or its download
 * cap, and nothing here touches its counters; anonymous counts stay exactly what they were.
 * The build itself must still be there: a deleted build's links answer 410 like its share link.
 */

/** `/install/{token}…`: a token of the shape this service hands out (anything else is a 404 without a read). */
export const InstallTokenRef = z.object({ token: z.string().check(z.regex(INSTALL_LINK_TOKEN, "is not an install link")) });
export type InstallTokenRef = z.infer<typeof InstallTokenRef>;

export interface PersonalLinkDeps {
  installs: Pick<InstallRecords, "findLink" | "testerSession" | "record">;
  files: Pick<FileRepository, "get">;
  signer: UrlSigner;
  clock: Clock;
  limits: {
    /** Pages, manifests and icons per client (the share pages' rule, `sharePage`). */
    page: RateLimiter;
    /** Downloads per client, counted or not (the download links' rule, `download`). */
    download: RateLimiter;
  };
  /** How long a package's signed GET lives (the stage's setting). */
  downloadExpiresSeconds: number;
}

/** Who asks, as the HTTP layer read it. */
export interface PersonalVisit {
  /** The path's token, as given (validated here). */
  token: string | undefined;
  /** The client address the per-client rules count. */
  client: string;
  userAgent?: string | undefined;
  /** The `hangar_tester` cookie's value, when the request carried one. */
  testerCookie?: string | undefined;
}

interface Opened {
  target: InstallLinkTarget;
  file: SharedFile;
}

/** A tester cookie's token: what the portal sets is short base64url; anything else is no session, without a read. */

function sharedOf(record: FileRecord | undefined): SharedFile | undefined {
  if (!record || record.status !== "completed" || !record.userKey || !record.metadata || !record.completedAt) return undefined;
  return {
    userKey: record.userKey,
    fileId: record.fileId,
    projectId: record.projectId,
    key: record.key,
    ...(record.versionId ? { versionId: record.versionId } : {}),
    fileName: record.fileName,
    fileSize: record.fileSize,
    metadata: record.metadata,
    ...(record.iconKey ? { iconKey: record.iconKey } : {}),
    ...(record.iconVersionId ? { iconVersionId: record.iconVersionId } : {}),
    completedAt: record.completedAt,
    ...(record.buildContext ? { buildContext: record.buildContext } : {}),
    // The verdict's facts, as the share item carries them: the page's verdict reads nothing more.
    ...(record.workspaceId ? { workspaceId: record.workspaceId } : {}),
    ...(record.provisionedUdids ? { provisionedUdids: record.provisionedUdids } : {}),
  };
}

/** Unknown token → 404, a deleted (or no longer completed) build → 410; else the build and its tester. */
async function open(deps: PersonalLinkDeps, visit: PersonalVisit): Promise<Opened> {
  const link = visit.token !== undefined && INSTALL_LINK_TOKEN.test(visit.token) ? await deps.installs.findLink(installLinkHash(visit.token)) : undefined;
  if (link === undefined) throw new UnknownLinkError();
  if (link === "removed") throw new LinkGoneError("removed");
  const file = sharedOf(await deps.files.get(link.fileId));
  if (!file) throw new LinkGoneError("removed");
  return { target: link, file };
}

/** `portal` when the request carried a live tester session of the link's own address (the cookie tester-access sets). */
async function viaOf(deps: PersonalLinkDeps, target: InstallLinkTarget, cookie: string | undefined, now: Date) {
  const session = parseTesterCookie(cookie);
  if (!session || session.email !== target.email) return "link" as const;
  return (await deps.installs.testerSession(target.email, session.sessionId, now)) ? ("portal" as const) : ("link" as const);
}

async function count(deps: PersonalLinkDeps, opened: Opened, visit: PersonalVisit, kind: "download" | "installStart", now: Date): Promise<void> {
  const m = opened.file.metadata;
  const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);
  const recorded = await deps.installs.record({
    target: opened.target,
    kind,
    at: now.toISOString(),
    deviceFamily: deviceFamilyOf(visit.userAgent),
    via: await viaOf(deps, opened.target, visit.testerCookie, now),
    build: { platform: str(m.platform), version: str(m.version), build: str(m.buildNumber) },
  });
  // The build's delete began between the read and the write: it is gone for this request too.
  if (!recorded) throw new LinkGoneError("removed");
}

export interface PersonalPage {
  file: SharedFile;
  /** The tester the build was sent to. */
  email: string;
  offer: InstallOffer;
  iconUrl?: string;
}

/** The build's page for its tester: the share page's content, with the address it was sent to. */
export async function openPersonalPage(deps: PersonalLinkDeps, visit: PersonalVisit & { insecure: boolean }): Promise<PersonalPage> {
  const now = deps.clock.now();
  await admit(deps.limits.page, visit.client, "client", now);
  const { target, file } = await open(deps, visit);
  const iconUrl = await iconLocation(deps.signer, file, ICON_SECONDS);
  return {
    file,
    email: target.email,
    offer: installOffer(file, deviceOfUserAgent(visit.userAgent), { insecure: visit.insecure, now }),
    ...(iconUrl ? { iconUrl } : {}),
  };
}

export type PersonalDownload =
  /** A HEAD: what the GET would deliver; nothing counted, no signed URL. */
  | { kind: "described"; fileName: string; fileSize: number }
  /** A link-preview bot: pointed at the personal page, never at the package, nothing counted. */
  | { kind: "preview" }
  /** A counted download: the package's fresh signed GET. */
  | { kind: "counted"; location: string };

/** The personal download: every GET from a person counts one download for the tester (no cap). */
export async function personalDownload(deps: PersonalLinkDeps, visit: PersonalVisit & { headOnly: boolean }): Promise<PersonalDownload> {
  const now = deps.clock.now();
  await admit(deps.limits.download, visit.client, "client", now);
  const opened = await open(deps, visit);
  if (visit.headOnly) return { kind: "described", fileName: opened.file.fileName, fileSize: opened.file.fileSize };
  if (isPreviewBot(visit.userAgent)) return { kind: "preview" };
  await count(deps, opened, visit, "download", now);
  return { kind: "counted", location: await packageLocation(deps.signer, opened.file, deps.downloadExpiresSeconds) };
}

/**
 * The OTA manifest of an iOS build, for the tester's personal link: a GET from an iPhone's or
 * iPad's installer counts one install start for them (the share manifest's rule,
 * isIosInstallRequest); a HEAD, curl and desktops count nothing.
 */
export async function personalManifest(
  deps: PersonalLinkDeps,
  visit: PersonalVisit & { headOnly: boolean },
): Promise<{ file: SharedFile; installStart: boolean }> {
  const now = deps.clock.now();
  await admit(deps.limits.page, visit.client, "client", now);
  const opened = await open(deps, visit);
  if (opened.file.metadata.platform !== "ios") throw noManifest();
  const installStart = !visit.headOnly && isIosInstallRequest(visit.userAgent);
  if (installStart) await count(deps, opened, visit, "installStart", now);
  return { file: opened.file, installStart };
}

/** The stable icon address of the personal page (the manifest's images): where its fresh signed GET is. */
export async function personalIcon(deps: PersonalLinkDeps, visit: PersonalVisit): Promise<{ location: string }> {
  const now = deps.clock.now();
  await admit(deps.limits.page, visit.client, "client", now);
  const { file } = await open(deps, visit);
  const location = await iconLocation(deps.signer, file, ICON_SECONDS);
  if (!location) throw noIcon();
  return { location };
}
