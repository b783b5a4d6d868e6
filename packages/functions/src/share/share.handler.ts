import { iconLocation } from "@hangar/core";
import { checkLinkPassword, isIosInstallRequest, LINK_ACCESS_SECONDS, utcDay } from "@hangar/core/links";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { getLinkRuntime } from "../links/link-runtime";
import { header, type HangarContext, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability/metrics";
import { clientOf, perClient } from "./client-limits";
import { deviceOf } from "./device";
import { renderManifest } from "./manifest";
import { qrSvg } from "./qr-code";
import { accessCookies, gate, htmlResult, urlToken, withToken } from "./share-access";
import { renderPasswordPage, renderSharePage } from "./share-page";

/** Signed icon addresses in pages live an hour: long enough for a tab left open. */
const ICON_SECONDS = 3600;
/** A password form is a few dozen bytes; anything far larger is not one. */
const MAX_FORM_BYTES = 2048;

const originOf = (url: string) => new URL(url).origin;

/**
 * Every address the share page and the manifest hand out is on the share host, the download
 * included: the link-password cookie is set there (host-only), so a download or manifest link on
 * the public host would arrive without it. The complete answer's `downloadUrl` stays on the
 * public base (the spec's field); both hosts serve `/download/*`.
 */
function shareBase(event: HttpEvent): string {
  return linkBases(event, getRuntime().settings).shareBaseUrl;
}

async function page(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const runtime = getRuntime();
  const now = runtime.clock.now();
  const gated = await gate(event, context.requestId, now);
  if (!gated.ok) return gated.result;
  const { link } = gated;
  const shareBaseUrl = shareBase(event);
  const shareUrl = `${shareBaseUrl}/share/${link.userKey}`;
  const token = urlToken(link, now);
  const icon = await iconLocation({ files: runtime.files, storage: runtime.signer }, link, ICON_SECONDS);
  const html = renderSharePage(
    link,
    deviceOf(header(event, "user-agent")),
    {
      shareUrl,
      downloadUrl: `${shareBaseUrl}/download/${link.userKey}`,
      ...(link.metadata.platform === "ios"
        ? { installUrl: `itms-services://?action=download-manifest&url=${encodeURIComponent(withToken(`${shareUrl}/manifest.plist`, token))}` }
        : {}),
      ...(icon ? { iconSrc: icon } : {}),
      // The card image must load without cookies: a protected link shows none.
      ...(link.iconKey && !link.passwordHash ? { iconRoute: `${shareUrl}/icon.png` } : {}),
      qrSvg: await qrSvg(shareUrl, "QR code of this page's address"),
      insecure: new URL(shareBaseUrl).protocol === "http:",
    },
    now,
  );
  return htmlResult(200, html, icon ? [originOf(icon)] : []);
}

function formPassword(event: HttpEvent): string | undefined {
  const raw = event.body ?? "";
  if (raw.length > MAX_FORM_BYTES * 2) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(raw, "base64").toString("utf8") : raw;
  if (text.length > MAX_FORM_BYTES) return undefined;
  const password = new URLSearchParams(text).get("password");
  return password && password.length <= 256 ? password : undefined;
}

/** The password form: a right answer earns the link's cookie and goes back to the page (303). */
async function unlock(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const runtime = getRuntime();
  const now = runtime.clock.now();
  const gated = await gate(event, context.requestId, now, { password: false });
  if (!gated.ok) return gated.result;
  const { link } = gated;
  const back = `/share/${link.userKey}`;
  if (!link.passwordHash || !link.tokenSecret) return { statusCode: 303, headers: { Location: back, "Cache-Control": "no-store" }, body: "" };

  const check = await checkLinkPassword(
    { hasher: getLinkRuntime().hasher, limits: getLinkRuntime().passwordLimits },
    link,
    formPassword(event),
    clientOf(event),
    now,
  );
  if (check.outcome === "limited") {
    const minutes = Math.ceil(check.retryAfterSeconds / 60);
    return htmlResult(429, renderPasswordPage(back, `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`), [], {
      headers: { "Retry-After": String(check.retryAfterSeconds) },
    });
  }
  if (check.outcome === "wrong") return htmlResult(401, renderPasswordPage(back, "That password is not right. Check it and try again."));
  const secure = new URL(shareBase(event)).protocol === "https:";
  return {
    statusCode: 303,
    headers: { Location: back, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    cookies: accessCookies(link, now, secure, LINK_ACCESS_SECONDS),
    body: "",
  };
}

/** The OTA manifest; a GET from an iPhone or iPad (its installer, see isIosInstallRequest) is one install request. */
async function manifest(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const runtime = getRuntime();
  const now = runtime.clock.now();
  const gated = await gate(event, context.requestId, now);
  if (!gated.ok) return gated.result;
  const { link } = gated;
  if (link.metadata.platform !== "ios") {
    return json(404, { error: { code: "file_not_found", message: "Only iOS builds have an install manifest", requestId: context.requestId } });
  }
  if (event.requestContext.http.method === "GET" && isIosInstallRequest(header(event, "user-agent"))) {
    await getLinkRuntime().links.countInstall(link.userKey, utcDay(now));
    record.installStart();
  }
  const shareBaseUrl = shareBase(event);
  const token = urlToken(link, now);
  const body = renderManifest(link, {
    packageUrl: withToken(`${shareBaseUrl}/download/${link.userKey}`, token),
    ...(link.iconKey ? { iconUrl: withToken(`${shareBaseUrl}/share/${link.userKey}/icon.png`, token) } : {}),
  });
  return { statusCode: 200, headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }, body };
}

/** The share URL's QR code, for CI to post beside the link. It shows only the link, so needs no password. */
async function qr(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const gated = await gate(event, context.requestId, getRuntime().clock.now(), { password: false });
  if (!gated.ok) return gated.result;
  const svg = await qrSvg(`${shareBase(event)}/share/${gated.link.userKey}`, "QR code of the share link");
  return {
    statusCode: 200,
    headers: { "Content-Type": "image/svg+xml", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'", "X-Content-Type-Options": "nosniff" },
    body: svg,
  };
}

/** A stable icon address (link previews, the manifest) that redirects to a fresh signed GET. */
async function icon(event: HttpEvent, context: HangarContext): Promise<HttpResult> {
  const runtime = getRuntime();
  const gated = await gate(event, context.requestId, runtime.clock.now());
  if (!gated.ok) return gated.result;
  const location = await iconLocation({ files: runtime.files, storage: runtime.signer }, gated.link, ICON_SECONDS);
  if (!location) return json(404, { error: { code: "file_not_found", message: "This build has no icon", requestId: context.requestId } });
  return { statusCode: 302, headers: { Location: location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" }, body: "" };
}

// Per client (core's limits/rate-rules.ts): the pages and what they link to under `sharePage`;
// the password form under the link-password rules inside unlock.
export const handler = httpFunction("share", {
  "GET /share/{userKey}": { handler: perClient("sharePage", page) },
  "HEAD /share/{userKey}": { handler: perClient("sharePage", page) },
  "POST /share/{userKey}": { handler: unlock },
  "GET /share/{userKey}/manifest.plist": { handler: perClient("sharePage", manifest) },
  "HEAD /share/{userKey}/manifest.plist": { handler: perClient("sharePage", manifest) },
  "GET /share/{userKey}/qr.svg": { handler: perClient("sharePage", qr) },
  "HEAD /share/{userKey}/qr.svg": { handler: perClient("sharePage", qr) },
  "GET /share/{userKey}/icon.png": { handler: perClient("sharePage", icon) },
  "HEAD /share/{userKey}/icon.png": { handler: perClient("sharePage", icon) },
});
