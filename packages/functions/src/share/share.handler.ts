import { iconLocation } from "@hangar/core";
import { isIosInstallRequest, LINK_ACCESS_SECONDS, utcDay } from "@hangar/core/links";
import { clientInfo } from "../accounts/client-info";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { getLinkRuntime } from "../links/link-runtime";
import { header, type HangarContext, type HttpEvent, type HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability/metrics";
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

  const limits = getLinkRuntime();
  const { ip } = clientInfo(event, runtime.settings);
  const [perLink, perAddress] = await Promise.all([limits.perLink.hit(`LINKPW#${link.userKey}`, now), limits.perAddress.hit(`LINKPWIP#${ip}`, now)]);
  if (!perLink.allowed || !perAddress.allowed) {
    const resetAt = Math.max(perLink.allowed ? 0 : perLink.state.resetAt, perAddress.allowed ? 0 : perAddress.state.resetAt);
    const retryAfter = Math.max(1, resetAt - Math.floor(now.getTime() / 1000));
    const minutes = Math.ceil(retryAfter / 60);
    return htmlResult(429, renderPasswordPage(back, `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`), [], {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  const password = formPassword(event);
  const check = await limits.hasher.verify(password ?? "", password ? link.passwordHash : undefined);
  if (!check.valid) return htmlResult(401, renderPasswordPage(back, "That password is not right. Check it and try again."));
  // A right answer does not use up the link's budget of wrong ones.
  await limits.perLink.refund(`LINKPW#${link.userKey}`, now).catch(() => undefined);
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

export const handler = httpFunction("share", {
  "GET /share/{userKey}": { handler: page },
  "HEAD /share/{userKey}": { handler: page },
  "POST /share/{userKey}": { handler: unlock },
  "GET /share/{userKey}/manifest.plist": { handler: manifest },
  "HEAD /share/{userKey}/manifest.plist": { handler: manifest },
  "GET /share/{userKey}/qr.svg": { handler: qr },
  "HEAD /share/{userKey}/qr.svg": { handler: qr },
  "GET /share/{userKey}/icon.png": { handler: icon },
  "HEAD /share/{userKey}/icon.png": { handler: icon },
});
