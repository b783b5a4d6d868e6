import { deviceOfUserAgent } from "@hangar/core/links";
import { installLinkUrl } from "@hangar/core/testers";
import { listFileInstalls, listTesterInstalls, openPersonalPage, personalDownload, personalIcon, personalManifest, type PersonalVisit } from "@hangar/core/installs";
import { clientInfo } from "../accounts/client-info";
import { readTesterCookie } from "../tester/tester-cookie";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { installHistoryDeps, personalLinkDeps } from "../composition/installs";
import { getRuntime } from "../composition/root";
import { actorOf } from "../middleware/actor";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import type { MappedError } from "../middleware/http-errors";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability/metrics";
import { errorPage } from "../share/error-page";
import { renderManifest } from "../share/manifest";
import { qrSvg } from "../share/qr-code";
import { downloadResult, htmlResult, isHead, NO_STORE, shareBase } from "../share/share-access";
import { COPY_SCRIPT_HASH, guidanceItems, needsScript, verdictHtml } from "../share/install-help";
import { pageVerdicts } from "../share/page-verdict";
import { renderSharePage } from "../share/share-page";

/**
 * Personal install links and who installed what (docs/testers.md). `/install/{token}` is the share
 * page of one build for the tester it was sent to, rendered by the share page's own template
 * (share/share-page.ts) with "Sent to <address>"; its download and manifest count for that tester
 * (core's installs/personal-link.ts decides, as links/visit-link.ts does for share links). Every
 * address these pages hand out is on the share host and under `/install/<token>`, so the install
 * an iPhone starts from the page counts too. The dashboard's routes list the records.
 */



function visitOf(event: HttpEvent): PersonalVisit {
  return {
    token: event.pathParameters?.token,
    client: clientInfo(event, getRuntime().settings).ip,
    userAgent: header(event, "user-agent"),
    testerCookie: readTesterCookie(event),
  };
}

/** The personal page's own address on the share host (the token was checked by core before this is used). */
const pageUrl = (event: HttpEvent) => installLinkUrl(shareBase(event), event.pathParameters?.token ?? "");

const originOf = (url: string) => new URL(url).origin;

async function page(event: HttpEvent): Promise<HttpResult> {
  const shown = await openPersonalPage(personalLinkDeps(), { ...visitOf(event), insecure: new URL(shareBase(event)).protocol === "http:" });
  const url = pageUrl(event);
  // The device a not-in-profile verdict records belongs to the tester the link was sent to.
  const verdict = (await pageVerdicts(event, [shown.file], shown.email)).get(shown.file.fileId);
  const userAgent = header(event, "user-agent");
  const installable = shown.offer.actions.some((a) => a.action === "install");
  const html = renderSharePage(
    shown,
    {
      shareUrl: url,
      downloadUrl: `${url}/download`,
      ...(shown.file.metadata.platform === "ios" ? { installUrl: `itms-services://?action=download-manifest&url=${encodeURIComponent(`${url}/manifest.plist`)}` } : {}),
      ...(shown.file.iconKey ? { iconRoute: `${url}/icon.png` } : {}),
      // Scanned on the phone, the page keeps counting for this tester.
      qrSvg: await qrSvg(url, "QR code of this page's address"),
    },
    {
      sentTo: shown.email,
      verdict: verdictHtml(verdict, `/install/${event.pathParameters?.token ?? ""}`),
      help: guidanceItems(shown.file, deviceOfUserAgent(userAgent), userAgent, installable),
    },
  );
  return htmlResult(200, html, shown.iconUrl ? [originOf(shown.iconUrl)] : [], {}, needsScript(verdict) ? [COPY_SCRIPT_HASH] : []);
}

async function download(event: HttpEvent): Promise<HttpResult> {
  const served = await personalDownload(personalLinkDeps(), { ...visitOf(event), headOnly: isHead(event) });
  return downloadResult(served, () => ({ href: pageUrl(event), label: "Go to the install page" }));
}

/** The OTA manifest: its package is the personal download, so the install itself counts for the tester. */
async function manifest(event: HttpEvent): Promise<HttpResult> {
  const found = await personalManifest(personalLinkDeps(), { ...visitOf(event), headOnly: isHead(event) });
  if (found.installStart) record.installStart();
  const url = pageUrl(event);
  const body = renderManifest(found.file, {
    packageUrl: `${url}/download`,
    ...(found.file.iconKey ? { iconUrl: `${url}/icon.png` } : {}),
  });
  return { statusCode: 200, headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }, body };
}

async function icon(event: HttpEvent): Promise<HttpResult> {
  const { location } = await personalIcon(personalLinkDeps(), visitOf(event));
  return { statusCode: 302, headers: { Location: location, ...NO_STORE }, body: "" };
}

/** The share pages' error pages for the personal pages (404, 410, 429); the dashboard's routes keep JSON. */
function installErrorPage(mapped: MappedError, event: HttpEvent, error: unknown): HttpResult | undefined {
  return event.routeKey.includes(" /install/") ? errorPage(mapped, event, error) : undefined;
}

export const handler = httpFunction(
  "installs",
  {
    "GET /install/{token}": { handler: page },
    "HEAD /install/{token}": { handler: page },
    "GET /install/{token}/download": { handler: download },
    "HEAD /install/{token}/download": { handler: download },
    "GET /install/{token}/manifest.plist": { handler: manifest },
    "HEAD /install/{token}/manifest.plist": { handler: manifest },
    "GET /install/{token}/icon.png": { handler: icon },
    "HEAD /install/{token}/icon.png": { handler: icon },
    "GET /api/files/{fileId}/installs": {
      handler: async (_e, c) => json(200, await listFileInstalls(installHistoryDeps(), actorOf(c), c.params)),
    },
    "GET /api/workspaces/{workspaceId}/testers/{email}/installs": {
      handler: async (_e, c) => json(200, await listTesterInstalls(installHistoryDeps(), actorOf(c), c.params)),
    },
  },
  dashboardRouteMiddlewares(),
  { errorPage: installErrorPage },
);
