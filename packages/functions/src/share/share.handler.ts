import type { SharedFile } from "@hangar/core";
import { newerBuildThan, versionLabel } from "@hangar/core/app-pages";
import { deviceOfUserAgent, openSharePage, shareIcon, shareManifest, shareQr, unlockShareLink } from "@hangar/core/links";
import { projectFiles } from "../composition/apps";
import { linkVisitDeps } from "../composition/links";
import { getRuntime } from "../composition/root";
import { logger } from "../observability";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";
import { record } from "../observability/metrics";
import { errorPage } from "./error-page";
import { COPY_SCRIPT_HASH, guidanceItems, needsScript, verdictHtml } from "./install-help";
import { renderManifest } from "./manifest";
import { qrSvg } from "./qr-code";
import { accessCookies, formPassword, htmlResult, isHead, shareBase, visitOf, withToken } from "./share-access";
import { pageVerdicts } from "./page-verdict";
import { renderSharePage } from "./share-page";

/**
 * The share page and what it links to. What a visitor may see and do is core's (links/visit-link.ts:
 * the per-client limits, the link's state and password, install counting); this file reads the
 * request and writes the answer. Errors are thrown and mapped once: JSON for programs, the pages of
 * error-page.ts for browsers.
 */

const originOf = (url: string) => new URL(url).origin;

/**
 * A newer build of the same app in the project (one small Query, core's app-pages/newer-build.ts),
 * linked by its own share page: the visitor of an old link lands one tap from the current build.
 * Never fails the page: the notice is a courtesy, the build shown is what the link promised.
 */
async function newerNotice(file: SharedFile, shareBaseUrl: string): Promise<{ label: string; url: string } | undefined> {
  try {
    const newer = await newerBuildThan(projectFiles(), file, getRuntime().clock.now());
    return newer && { label: versionLabel(newer.metadata.version, newer.metadata.buildNumber), url: `${shareBaseUrl}/share/${newer.userKey}` };
  } catch (error) {
    logger.warn("newer-build lookup failed", { error });
    return undefined;
  }
}

async function page(event: HttpEvent): Promise<HttpResult> {
  const shareBaseUrl = shareBase(event);
  const shown = await openSharePage(linkVisitDeps(), { ...visitOf(event), insecure: new URL(shareBaseUrl).protocol === "http:" });
  const { file } = shown;
  const shareUrl = `${shareBaseUrl}/share/${file.userKey}`;
  // A HEAD answers like the GET without a body: it needs no notice.
  const [newer, verdicts] = await Promise.all([isHead(event) ? undefined : newerNotice(file, shareBaseUrl), pageVerdicts(event, [file], null)]);
  const verdict = verdicts.get(file.fileId);
  const userAgent = header(event, "user-agent");
  const installable = shown.offer.actions.some((a) => a.action === "install");
  const html = renderSharePage(
    shown,
    {
    ...(newer ? { newer } : {}),
    shareUrl,
    downloadUrl: `${shareBaseUrl}/download/${file.userKey}`,
    ...(file.metadata.platform === "ios"
      ? { installUrl: `itms-services://?action=download-manifest&url=${encodeURIComponent(withToken(`${shareUrl}/manifest.plist`, shown.accessToken))}` }
      : {}),
    // The card image must load without cookies: a protected link shows none.
    ...(file.iconKey && !shown.protected ? { iconRoute: `${shareUrl}/icon.png` } : {}),
      qrSvg: await qrSvg(shareUrl, "QR code of this page's address"),
    },
    { verdict: verdictHtml(verdict, `/share/${file.userKey}`), help: guidanceItems(file, deviceOfUserAgent(userAgent), userAgent, installable) },
  );
  return htmlResult(200, html, shown.iconUrl ? [originOf(shown.iconUrl)] : [], {}, needsScript(verdict) ? [COPY_SCRIPT_HASH] : []);
}

/** The password form: a right answer earns the link's cookie and goes back to the page (303). */
async function unlock(event: HttpEvent): Promise<HttpResult> {
  const unlocked = await unlockShareLink(linkVisitDeps(), { ...visitOf(event), password: formPassword(event) });
  const back = `/share/${unlocked.userKey}`;
  if (!unlocked.access) return { statusCode: 303, headers: { Location: back, "Cache-Control": "no-store" }, body: "" };
  const secure = new URL(shareBase(event)).protocol === "https:";
  return {
    statusCode: 303,
    headers: { Location: back, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    cookies: accessCookies(unlocked.userKey, unlocked.access, secure),
    body: "",
  };
}

/** The OTA manifest; its URLs carry the password's proof, as iOS fetches them without cookies. */
async function manifest(event: HttpEvent): Promise<HttpResult> {
  const found = await shareManifest(linkVisitDeps(), { ...visitOf(event), headOnly: isHead(event) });
  if (found.installRequest) record.installStart();
  const shareBaseUrl = shareBase(event);
  const { file, accessToken } = found;
  const body = renderManifest(file, {
    packageUrl: withToken(`${shareBaseUrl}/download/${file.userKey}`, accessToken),
    ...(file.iconKey ? { iconUrl: withToken(`${shareBaseUrl}/share/${file.userKey}/icon.png`, accessToken) } : {}),
  });
  return { statusCode: 200, headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }, body };
}

/** The share URL's QR code, for CI to post beside the link. */
async function qr(event: HttpEvent): Promise<HttpResult> {
  const { userKey } = await shareQr(linkVisitDeps(), visitOf(event));
  const svg = await qrSvg(`${shareBase(event)}/share/${userKey}`, "QR code of the share link");
  return {
    statusCode: 200,
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff" },
    body: svg,
  };
}

/** A stable icon address (link previews, the manifest) that redirects to a fresh signed GET. */
async function icon(event: HttpEvent): Promise<HttpResult> {
  const { location } = await shareIcon(linkVisitDeps(), visitOf(event));
  return { statusCode: 302, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }, body: "" };
}

export const handler = httpFunction(
  "share",
  {
    "GET /share/{userKey}": { handler: page },
    "HEAD /share/{userKey}": { handler: page },
    "POST /share/{userKey}": { handler: unlock },
    "GET /share/{userKey}/manifest.plist": { handler: manifest },
    "HEAD /share/{userKey}/manifest.plist": { handler: manifest },
    "GET /share/{userKey}/qr.svg": { handler: qr },
    "HEAD /share/{userKey}/qr.svg": { handler: qr },
    "GET /share/{userKey}/icon.png": { handler: icon },
    "HEAD /share/{userKey}/icon.png": { handler: icon },
  },
  {},
  { errorPage },
);
