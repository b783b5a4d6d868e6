import { NotFoundError } from "../errors/domain-errors";
import type { Clock, PasswordHasher, RateLimitDecision, RateLimiter, SharedFile, UrlSigner } from "../ports";
import { deviceOfUserAgent, installOffer, type InstallOffer } from "./install-offer";
import { isIosInstallRequest, isPreviewBot, isUserKey, LINK_ACCESS_SECONDS, linkState, signLinkToken, utcDay, verifyLinkToken } from "./link-access";
import { LinkGoneError, LinkPasswordLimitedError, LinkPasswordRequiredError, UnknownLinkError, VisitLimitedError, WrongLinkPasswordError } from "./link-errors";
import { checkLinkPassword, type LinkPasswordLimits } from "./link-password";
import type { ShareLink, ShareLinks } from "./share-link.port";

/**
 * Share-link visiting: what a tester's browser, an iPhone's installer and CI may do with a link,
 * shaped like sign-in (accounts/sign-in.ts): typed input, ports injected, plain data out, domain
 * errors only (link-errors.ts). The share and download functions translate HTTP to and from these.
 *
 * Every visit runs the same gate, in this order: the client's own allowance (counted before
 * anything is read, so a client over its limit costs one counter and learns nothing), the key
 * (malformed keys cost no lookup), the link's state, then its password.
 */

/** The per-client rules of visits (core's limits/rate-rules.ts). */
export interface LinkVisitLimits {
  /** Pages and what they link to: the page, manifest, QR code and icon (`sharePage`). */
  sharePage: RateLimiter;
  /** Downloads, counted or not (`download`). */
  download: RateLimiter;
  /** Counted downloads of one link per client (`downloadPerLink`). */
  downloadPerLink: RateLimiter;
  /** The link-password rules (link-password.ts). */
  password: LinkPasswordLimits;
}

export interface LinkVisitDeps {
  links: Pick<ShareLinks, "find" | "countDownload" | "countInstall">;
  signer: UrlSigner;
  hasher: PasswordHasher;
  clock: Clock;
  limits: LinkVisitLimits;
  /** How long a package's signed GET lives (the stage's setting). */
  downloadExpiresSeconds: number;
}

/** Who asks, as the HTTP layer read it. */
export interface Visit {
  /** The path's key, as given (validated here). */
  userKey: string | undefined;
  /** The client address the per-client rules count. */
  client: string;
  /** Proofs of the password the request carries (its `?t=` and the link's cookies), at most a few. */
  tokens?: readonly string[];
  userAgent?: string | undefined;
}

/** A manifest asked of a build that is not iOS, an icon of a build stored without one: 404 like a build that is not there. */
export const noManifest = () => new NotFoundError("file_not_found", "Only iOS builds have an install manifest");
export const noIcon = () => new NotFoundError("file_not_found", "This build has no icon");

/** Signed icon addresses in pages live an hour: long enough for a tab left open. */
export const ICON_SECONDS = 3600;

const retryAfterOf = (decision: RateLimitDecision, now: Date) => Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000));

/** One hit on a per-client rule; over it, a 429 that says which rule (also the personal install links', installs/). */
export async function admit(limiter: RateLimiter, subject: string, rule: VisitLimitedError["rule"], now: Date): Promise<void> {
  const decision = await limiter.hit(subject, now);
  if (!decision.allowed) throw new VisitLimitedError(rule, decision.state, retryAfterOf(decision, now));
}

function hasAccess(link: ShareLink, tokens: readonly string[], now: Date): boolean {
  if (!link.passwordHash) return true;
  return tokens.slice(0, 8).some((token) => verifyLinkToken(link.tokenSecret, link.userKey, token, now));
}

/** Unknown → 404, removed/replaced/disabled/expired/capped → 410, protected without proof → 401; else the link. */
async function openLink(deps: LinkVisitDeps, visit: Visit, now: Date, options: { password: boolean }): Promise<ShareLink> {
  const link = isUserKey(visit.userKey) ? await deps.links.find(visit.userKey) : undefined;
  if (!link) throw new UnknownLinkError();
  if ("ended" in link) throw new LinkGoneError(link.ended);
  const state = linkState(link, now);
  if (state !== "open") throw new LinkGoneError(state);
  if (options.password && !hasAccess(link, visit.tokens ?? [], now)) throw new LinkPasswordRequiredError();
  return link;
}

/** A fresh token for the URLs iOS fetches without cookies (manifest, package, icon); undefined without a password. */
const urlToken = (link: ShareLink, now: Date) => (link.passwordHash && link.tokenSecret ? signLinkToken(link.tokenSecret, link.userKey, now) : undefined);

/** The package of a link, as a short-lived GET that saves it under its original name. */
export function packageLocation(signer: UrlSigner, shared: SharedFile, expiresInSeconds: number): Promise<string> {
  // Signed for the version complete inspected; records from before versioning have none and serve the current one.
  return signer.presignGet({
    key: shared.key,
    downloadName: shared.fileName,
    expiresInSeconds,
    ...(shared.versionId ? { versionId: shared.versionId } : {}),
  });
}

/** The icon stored beside the package at complete, as a short-lived GET (undefined without one). */
export async function iconLocation(signer: UrlSigner, shared: SharedFile, expiresInSeconds: number): Promise<string | undefined> {
  if (!shared.iconKey) return undefined;
  return signer.presignGet({
    key: shared.iconKey,
    downloadName: "icon.png",
    expiresInSeconds,
    inline: true,
    ...(shared.iconVersionId ? { versionId: shared.iconVersionId } : {}),
  });
}

export interface SharePage {
  /** The build, as the page shows it. */
  file: SharedFile;
  /** Which buttons and notices this device gets (install-offer.ts). */
  offer: InstallOffer;
  /** The icon's signed GET for the page's <img>. */
  iconUrl?: string;
  /** The link has a password: the card image (fetched without cookies) is left out. */
  protected: boolean;
  /** Proof of the password for the manifest URL of the Install link (iOS fetches it without cookies). */
  accessToken?: string;
}

/** The build's page: what it is, how to install it on the device at hand. */
export async function openSharePage(deps: LinkVisitDeps, visit: Visit & { insecure: boolean }): Promise<SharePage> {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const link = await openLink(deps, visit, now, { password: true });
  const iconUrl = await iconLocation(deps.signer, link, ICON_SECONDS);
  const accessToken = urlToken(link, now);
  return {
    file: link,
    offer: installOffer(link, deviceOfUserAgent(visit.userAgent), { insecure: visit.insecure, now }),
    ...(iconUrl ? { iconUrl } : {}),
    protected: Boolean(link.passwordHash),
    ...(accessToken ? { accessToken } : {}),
  };
}

export interface Unlocked {
  userKey: string;
  /** The proof a right password earns, for the link's cookie; absent when the link has no password. */
  access?: { token: string; maxAgeSeconds: number };
}

/**
 * The password form. Not behind the page's per-client rule: the link-password rules
 * (link-password.ts) count every attempt instead. A link without a password just opens.
 */
export async function unlockShareLink(deps: LinkVisitDeps, visit: Visit & { password: string | undefined }): Promise<Unlocked> {
  const now = deps.clock.now();
  const link = await openLink(deps, visit, now, { password: false });
  if (!link.passwordHash || !link.tokenSecret) return { userKey: link.userKey };
  const check = await checkLinkPassword({ hasher: deps.hasher, limits: deps.limits.password }, link, visit.password, visit.client, now);
  if (check.outcome === "limited") throw new LinkPasswordLimitedError(check.rateLimit, check.retryAfterSeconds);
  if (check.outcome === "wrong") throw new WrongLinkPasswordError();
  return {
    userKey: link.userKey,
    access: { token: signLinkToken(link.tokenSecret, link.userKey, now, LINK_ACCESS_SECONDS), maxAgeSeconds: LINK_ACCESS_SECONDS },
  };
}

export interface ShareManifest {
  file: SharedFile;
  accessToken?: string;
  /** This request was counted as an install request. */
  installRequest: boolean;
}

/**
 * The OTA manifest of an iOS build. A GET from an iPhone or iPad (its installer, see
 * isIosInstallRequest) is one install request; a HEAD, curl and desktops count nothing.
 */
export async function shareManifest(deps: LinkVisitDeps, visit: Visit & { headOnly: boolean }): Promise<ShareManifest> {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const link = await openLink(deps, visit, now, { password: true });
  if (link.metadata.platform !== "ios") throw noManifest();
  const installRequest = !visit.headOnly && isIosInstallRequest(visit.userAgent);
  if (installRequest) await deps.links.countInstall(link.userKey, utcDay(now));
  const accessToken = urlToken(link, now);
  return { file: link, installRequest, ...(accessToken ? { accessToken } : {}) };
}

/** The share URL's QR code, for CI to post beside the link: it shows only the link, so needs no password. */
export async function shareQr(deps: LinkVisitDeps, visit: Visit): Promise<{ userKey: string }> {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const link = await openLink(deps, visit, now, { password: false });
  return { userKey: link.userKey };
}

/** The stable icon address (link previews, the manifest): where its fresh signed GET is. */
export async function shareIcon(deps: LinkVisitDeps, visit: Visit): Promise<{ location: string }> {
  const now = deps.clock.now();
  await admit(deps.limits.sharePage, visit.client, "client", now);
  const link = await openLink(deps, visit, now, { password: true });
  const location = await iconLocation(deps.signer, link, ICON_SECONDS);
  if (!location) throw noIcon();
  return { location };
}

export type Download =
  /** A HEAD: what the GET would deliver, described; nothing counted, no signed URL. */
  | { kind: "described"; fileName: string; fileSize: number }
  /** A link-preview bot: pointed at the share page, never at the package. */
  | { kind: "preview"; userKey: string }
  /** A counted download: the package's fresh signed GET. */
  | { kind: "counted"; location: string };

/**
 * The stable link handed out at complete. Only a counted request gets a usable package URL (a
 * fresh short-lived signed GET, so the link itself never expires and the bucket stays private):
 * each GET from a person is counted once, atomically, and only below the link's cap and the
 * client's own share of it (`downloadPerLink`). A download the link refuses after all (capped,
 * turned off or ended meanwhile) gives the client's share back.
 */
export async function downloadShared(deps: LinkVisitDeps, visit: Visit & { headOnly: boolean }): Promise<Download> {
  const now = deps.clock.now();
  await admit(deps.limits.download, visit.client, "client", now);
  const link = await openLink(deps, visit, now, { password: true });
  if (visit.headOnly) return { kind: "described", fileName: link.fileName, fileSize: link.fileSize };
  if (isPreviewBot(visit.userAgent)) return { kind: "preview", userKey: link.userKey };
  const subject = `${link.userKey}:${visit.client}`;
  await admit(deps.limits.downloadPerLink, subject, "link", now);
  const counted = await deps.links.countDownload(link.userKey, utcDay(now));
  if (counted !== "counted") {
    await deps.limits.downloadPerLink.refund(subject, now);
    throw new LinkGoneError(counted);
  }
  return { kind: "counted", location: await packageLocation(deps.signer, link, deps.downloadExpiresSeconds) };
}
