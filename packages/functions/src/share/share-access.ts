import { linkState, signLinkToken, verifyLinkToken, type EndedLink, type ShareLink } from "@hangar/core/links";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { json } from "../middleware/http-function";
import { getLinkRuntime } from "../links/link-runtime";
import { renderGonePage, renderPasswordPage, pageCsp, goneMessage, type GoneReason } from "./share-page";

export const LINK_COOKIE = "hangar_link";
const USER_KEY = /^[A-Za-z0-9]{6,32}$/;

/** The share item (or an ended link's trace) of a well-formed key; malformed keys cost no lookup. */
export async function findLink(userKey: string | undefined): Promise<ShareLink | EndedLink | undefined> {
  return userKey && USER_KEY.test(userKey) ? getLinkRuntime().links.find(userKey) : undefined;
}

/** Browsers (Accept: text/html) get pages; programs (curl, CI) get the JSON envelope. */
export const wantsHtml = (event: HttpEvent) => /\btext\/html\b/.test(header(event, "accept") ?? "");

/** Headers of every HTML answer: no script, no referrer, no indexing, no caching. */
export function htmlResult(statusCode: number, body: string, imageOrigins: string[] = [], extra: Partial<HttpResult> = {}): HttpResult {
  return {
    statusCode,
    ...extra,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": pageCsp(imageOrigins),
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
      ...(extra.headers ?? {}),
    },
    body,
  };
}

const GONE_CODE: Record<GoneReason, string> = {
  disabled: "link_disabled",
  expired: "link_expired",
  capped: "link_limit_reached",
  removed: "file_removed",
  replaced: "link_replaced",
  unknown: "file_not_found",
};

/** 404 for an unknown key, 410 for a link that exists but serves nothing; never a signed URL. */
export function goneResult(event: HttpEvent, requestId: string, reason: GoneReason): HttpResult {
  const status = reason === "unknown" ? 404 : 410;
  if (wantsHtml(event)) return htmlResult(status, renderGonePage(reason));
  const message = reason === "unknown" ? "No file is shared under this link" : goneMessage(reason);
  return json(status, { error: { code: GONE_CODE[reason], message, requestId } }, { "Referrer-Policy": "no-referrer" });
}

/** Without the password (cookie or token) the build's addresses answer 401, and pages ask for it. */
export function passwordRequired(event: HttpEvent, requestId: string, userKey: string): HttpResult {
  if (wantsHtml(event)) return htmlResult(401, renderPasswordPage(`/share/${userKey}`));
  return json(401, { error: { code: "password_required", message: "This link is protected by a password; open it in a browser and enter it", requestId } });
}

/** The token of the request: `?t=` (iOS's manifest and package fetches) or the link's cookie. */
function tokensOf(event: HttpEvent): string[] {
  const fromQuery = event.queryStringParameters?.t;
  const fromCookies = (event.cookies ?? []).filter((c) => c.startsWith(`${LINK_COOKIE}=`)).map((c) => c.slice(LINK_COOKIE.length + 1));
  return [...(fromQuery ? [fromQuery] : []), ...fromCookies].slice(0, 8);
}

export function hasAccess(link: ShareLink, event: HttpEvent, now: Date): boolean {
  if (!link.passwordHash) return true;
  return tokensOf(event).some((token) => verifyLinkToken(link.tokenSecret, link.userKey, token, now));
}

/** A fresh token for URLs iOS fetches without cookies; undefined when the link has no password. */
export const urlToken = (link: ShareLink, now: Date) => (link.passwordHash && link.tokenSecret ? signLinkToken(link.tokenSecret, link.userKey, now) : undefined);

export const withToken = (url: string, token: string | undefined) => (token ? `${url}?t=${encodeURIComponent(token)}` : url);

/**
 * The cookie a right password earns: HttpOnly, one per path the link serves (the page and its
 * sub-resources, and the download), so it opens this link only.
 */
export function accessCookies(link: ShareLink, now: Date, secure: boolean, maxAgeSeconds: number): string[] {
  const token = signLinkToken(link.tokenSecret!, link.userKey, now, maxAgeSeconds);
  const attributes = `Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
  return [`/share/${link.userKey}`, `/download/${link.userKey}`].map((path) => `${LINK_COOKIE}=${token}; Path=${path}; ${attributes}`);
}

export type Gate = { ok: true; link: ShareLink } | { ok: false; result: HttpResult };

/** Unknown → 404, removed/replaced/disabled/expired/capped → 410, protected without access → 401; else the link. */
export async function gate(event: HttpEvent, requestId: string, now: Date, options: { password?: boolean } = {}): Promise<Gate> {
  const userKey = event.pathParameters?.userKey;
  const link = await findLink(userKey);
  if (!link) return { ok: false, result: goneResult(event, requestId, "unknown") };
  if ("ended" in link) return { ok: false, result: goneResult(event, requestId, link.ended) };
  const state = linkState(link, now);
  if (state !== "open") return { ok: false, result: goneResult(event, requestId, state) };
  if (options.password !== false && !hasAccess(link, event, now)) return { ok: false, result: passwordRequired(event, requestId, link.userKey) };
  return { ok: true, link };
}
