import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { LinkState } from "../dashboard/dashboard-answers";
import type { ShareLink } from "./share-link.port";

export type { LinkState };

/** Share keys are 12 base62 characters (ids/random-ids.ts); anything else is unknown without a lookup. */
export const USER_KEY = /^[A-Za-z0-9]{6,32}$/;

export const isUserKey = (value: string | undefined): value is string => value !== undefined && USER_KEY.test(value);

/** Why a link that exists serves nothing; the order is what the owner would fix first. */
export function linkState(link: Pick<ShareLink, "enabled" | "expiresAt" | "maxDownloads" | "downloads">, now: Date): LinkState {
  if (!link.enabled) return "disabled";
  if (link.expiresAt && Date.parse(link.expiresAt) <= now.getTime()) return "expired";
  if (link.maxDownloads !== undefined && link.downloads >= link.maxDownloads) return "capped";
  return "open";
}

/** How long a right password opens the link in that browser, and in the URLs of an iOS install. */
export const LINK_ACCESS_SECONDS = 12 * 3600;

export const newTokenSecret = () => randomBytes(32).toString("base64url");

const mac = (secret: string, userKey: string, expires: number) =>
  createHmac("sha256", Buffer.from(secret, "base64url")).update(`${userKey}.${expires}`).digest("base64url");

/**
 * `<expires>.<hmac>`: proof that whoever holds it gave the link's password. Keyed by the link's own
 * secret, so a new password or a regenerated link voids every token at once. It travels as an
 * HttpOnly cookie for browsers and in the manifest and package URLs for iOS, which fetches both
 * without the browser's cookies.
 */
export function signLinkToken(secret: string, userKey: string, now: Date, seconds = LINK_ACCESS_SECONDS): string {
  const expires = Math.floor(now.getTime() / 1000) + seconds;
  return `${expires}.${mac(secret, userKey, expires)}`;
}

export function verifyLinkToken(secret: string | undefined, userKey: string, token: string | undefined, now: Date): boolean {
  if (!secret || !token || token.length > 128) return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires <= now.getTime() / 1000) return false;
  const given = Buffer.from(match[2]!);
  const expected = Buffer.from(mac(secret, userKey, expires));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Link-preview fetchers (chat unfurlers, social cards, search crawlers): they open the page or the
 * icon to draw a preview, and must not count as downloads or installs. Named by their own tokens,
 * not by their apps' names: a person tapping the link inside Teams, Pinterest or Facebook browses
 * with that app's name in the user agent and is counted; "bot" only as a word or before a version,
 * so a Cubot phone is a person.
 */
const PREVIEW_BOT =
  /slackbot|slack-imgproxy|skypeuripreview|microsoftpreview|discordbot|twitterbot|facebookexternalhit|facebot|meta-externalagent|telegrambot|whatsapp\/|linkedinbot|redditbot|pinterestbot|embedly|iframely|mastodon\/|vkshare|googlebot|bingbot|applebot|duckduckbot|yandexbot|baiduspider|bot\/|\bbot\b|crawler|spider|preview\//i;

export const isPreviewBot = (userAgent: string | undefined) => userAgent !== undefined && PREVIEW_BOT.test(userAgent);

/**
 * Whether a manifest fetch is an iPhone or iPad starting an install: the one request an
 * `itms-services://` tap makes that a person cannot make by accident. iOS fetches the manifest
 * with its installer daemon, not the browser: `com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 …`
 * (`itunesstored/1.0 iOS/12.1 …` before iOS 13). That holds on iPadOS too, even when its Safari
 * poses as a Mac: Safari hands the link to the system, whose request says `iOS/` or `iPadOS/` and
 * `model/iPad…`. A browser on an iPhone opening the manifest's URL says `iPhone`. curl, scripts and
 * desktop browsers (a Mac cannot install an IPA over the air) are not counted, nor are preview bots.
 */
const IOS_INSTALLER = /^(com\.apple\.appstored|itunesstored)\/|\b(iOS|iPadOS)\/\d|\b(iPhone|iPad|iPod)\b/;

export const isIosInstallRequest = (userAgent: string | undefined) =>
  userAgent !== undefined && IOS_INSTALLER.test(userAgent) && !isPreviewBot(userAgent);

/** `YYYY-MM-DD` in UTC. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

/** The last `count` UTC days, oldest first, with their counts (zero where nothing happened). */
export function dailySeries(link: Pick<ShareLink, "days">, now: Date, count = 30) {
  const series: { day: string; downloads: number; installs: number }[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const day = utcDay(new Date(now.getTime() - i * 86_400_000));
    series.push({ day, downloads: link.days[day]?.downloads ?? 0, installs: link.days[day]?.installs ?? 0 });
  }
  return series;
}
