import {
  AppBuildNotFoundError,
  AppPageNotFoundError,
  appBuildIcon,
  appBuildManifest,
  createUpdateToken,
  downloadAppBuild,
  getAppPage,
  latestUpdate,
  listUpdateTokens,
  openAppPage,
  revokeUpdateToken,
  unlockAppPage,
  updateAppPage,
  type AppVisit,
} from "@hangar/core/app-pages";
import { deviceOfUserAgent } from "@hangar/core/links";
import { appPageSettingsDeps, appVisitDeps, latestUpdateDeps, updateCheckDeps, updateTokenDeps } from "../composition/apps";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { actorOf } from "../middleware/actor";
import { header, type HttpEvent, type HttpResult } from "../middleware/http-context";
import type { ErrorPage } from "../middleware/http-errors";
import { httpFunction, json } from "../middleware/http-function";
import { updateTokenAuth } from "../middleware/update-token-auth";
import { record } from "../observability/metrics";
import { pageErrors } from "../share/error-page";
import { renderManifest } from "../share/manifest";
import { qrSvg } from "../share/qr-code";
import { accessCookiesFor, downloadResult, formPassword, htmlResult, isHead, NO_STORE, shareBase, visitOf, withToken } from "../share/share-access";
import { COPY_SCRIPT_HASH, needsScript } from "../share/install-help";
import { pageVerdicts } from "../share/page-verdict";
import { renderAppPage } from "./app-page";

/**
 * The public app pages and the in-app update check (issue 20, docs/testers.md "The app page and
 * the update check"): the page of a project's latest builds at `/apps/<slug>` and its files, the
 * owner's settings of it and of the update tokens (dashboard session), and
 * `GET /api/updates/latest` (an update token). What each may do is core's (app-pages/); this file
 * reads requests and writes answers. The page's errors are the share pages' (error-page.ts).
 */

const originOf = (url: string) => new URL(url).origin;

/** The visit as core takes it: the share links' reading of the request, with the slug as the key. */
function appVisit(event: HttpEvent): AppVisit {
  const { userKey, ...visit } = visitOf(event, event.pathParameters?.slug);
  return { ...visit, slug: userKey };
}

const fileVisit = (event: HttpEvent) => ({ ...appVisit(event), fileId: event.pathParameters?.fileId ?? "" });

/** Every address of a page on the share host: its password cookie is set there (host-only). */
const pageBase = (event: HttpEvent, slug: string) => `${shareBase(event)}/apps/${slug}`;

async function page(event: HttpEvent): Promise<HttpResult> {
  const insecure = new URL(shareBase(event)).protocol === "http:";
  const shown = await openAppPage(appVisitDeps(), { ...appVisit(event), insecure });
  const base = pageBase(event, shown.slug);
  // The latest iOS build's verdict: the earlier builds' rows are one button each.
  const latestIos = shown.latest.ios?.file;
  const verdicts = latestIos ? await pageVerdicts(event, [latestIos], null) : new Map<string, never>();
  const userAgent = header(event, "user-agent");
  const markup = renderAppPage(
    shown,
    {
      pageUrl: base,
      qrSvg: await qrSvg(base, "QR code of this page's address"),
      build: (file) => ({
        downloadUrl: `${base}/files/${file.fileId}/download`,
        ...(file.metadata.platform === "ios"
          ? { installUrl: `itms-services://?action=download-manifest&url=${encodeURIComponent(withToken(`${base}/files/${file.fileId}/manifest.plist`, shown.accessToken))}` }
          : {}),
      }),
    },
    { device: deviceOfUserAgent(userAgent), userAgent, verdicts, returnPath: `/apps/${shown.slug}` },
  );
  const icons = [shown.latest.ios?.iconUrl, shown.latest.android?.iconUrl].filter((u): u is string => u !== undefined);
  const script = [...verdicts.values()].some(needsScript);
  return htmlResult(200, markup, icons.map(originOf), {}, script ? [COPY_SCRIPT_HASH] : []);
}

/** The password form: a right answer earns the page's cookie (its path holds the page's files) and goes back to the page (303). */
async function unlock(event: HttpEvent): Promise<HttpResult> {
  const unlocked = await unlockAppPage(appVisitDeps(), { ...appVisit(event), password: formPassword(event) });
  const back = `/apps/${unlocked.slug}`;
  if (!unlocked.access) return { statusCode: 303, headers: { Location: back, "Cache-Control": "no-store" }, body: "" };
  const secure = new URL(shareBase(event)).protocol === "https:";
  return { statusCode: 303, headers: { Location: back, ...NO_STORE }, cookies: accessCookiesFor([back], unlocked.access, secure), body: "" };
}

async function download(event: HttpEvent): Promise<HttpResult> {
  const found = await downloadAppBuild(appVisitDeps(), { ...fileVisit(event), headOnly: isHead(event) });
  return downloadResult(found, (preview) => ({ href: pageBase(event, preview.slug), label: "Go to the app's page" }));
}

/** The OTA manifest; its URLs carry the password's proof, as iOS fetches them without cookies. */
async function manifest(event: HttpEvent): Promise<HttpResult> {
  const found = await appBuildManifest(appVisitDeps(), { ...fileVisit(event), headOnly: isHead(event) });
  if (found.installRequest) record.installStart();
  const files = `${pageBase(event, found.slug)}/files/${found.file.fileId}`;
  const body = renderManifest(found.file, {
    packageUrl: withToken(`${files}/download`, found.accessToken),
    ...(found.file.iconKey ? { iconUrl: withToken(`${files}/icon.png`, found.accessToken) } : {}),
  });
  return { statusCode: 200, headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" }, body };
}

async function icon(event: HttpEvent): Promise<HttpResult> {
  const { location } = await appBuildIcon(appVisitDeps(), fileVisit(event));
  return { statusCode: 302, headers: { Location: location, ...NO_STORE }, body: "" };
}

const UNKNOWN_PAGE = {
  heading: "No app at this address",
  text: "Nothing is published at this address. The link may be mistyped, or its owner turned the page off or gave it a new address. Ask them for the current link.",
};
const UNKNOWN_BUILD = {
  heading: "This build is not available",
  text: "This build is no longer on the app's page. Go back to the page for the current builds.",
};

const pageErrorPage = pageErrors({
  formAction: (event) => `/apps/${event.pathParameters?.slug ?? ""}`,
  isPasswordForm: (event) => event.routeKey === "POST /apps/{slug}",
  protectedWording: { title: "Protected app", heading: "This app's page is protected" },
  unknown: (error) => (error instanceof AppPageNotFoundError ? UNKNOWN_PAGE : error instanceof AppBuildNotFoundError ? UNKNOWN_BUILD : undefined),
});

/** Pages for the page routes only: the settings and the update check answer JSON whatever the Accept header. */
const errorPage: ErrorPage = (mapped, event, error) => (event.routeKey?.includes(" /apps/") ? pageErrorPage(mapped, event, error) : undefined);

const bases = (event: HttpEvent) => linkBases(event, getRuntime().settings);

export const handler = httpFunction(
  "apps",
  {
    "GET /apps/{slug}": { handler: page },
    "HEAD /apps/{slug}": { handler: page },
    "POST /apps/{slug}": { handler: unlock },
    "GET /apps/{slug}/files/{fileId}/download": { handler: download },
    "HEAD /apps/{slug}/files/{fileId}/download": { handler: download },
    "GET /apps/{slug}/files/{fileId}/manifest.plist": { handler: manifest },
    "HEAD /apps/{slug}/files/{fileId}/manifest.plist": { handler: manifest },
    "GET /apps/{slug}/files/{fileId}/icon.png": { handler: icon },
    "HEAD /apps/{slug}/files/{fileId}/icon.png": { handler: icon },
    "GET /api/projects/{projectId}/app-page": {
      handler: async (e, c) => json(200, await getAppPage(appPageSettingsDeps(), actorOf(c), c.params, bases(e))),
    },
    "PUT /api/projects/{projectId}/app-page": {
      handler: async (e, c) => json(200, await updateAppPage(appPageSettingsDeps(), actorOf(c), { ...c.params, ...c.body }, bases(e))),
    },
    "GET /api/projects/{projectId}/update-tokens": {
      handler: async (_e, c) => json(200, await listUpdateTokens(updateTokenDeps(), actorOf(c), c.params)),
    },
    "POST /api/projects/{projectId}/update-tokens": {
      handler: async (_e, c) => json(201, await createUpdateToken(updateTokenDeps(), actorOf(c), { ...c.params, ...c.body })),
    },
    "DELETE /api/projects/{projectId}/update-tokens/{tokenId}": {
      handler: async (_e, c) => {
        await revokeUpdateToken(updateTokenDeps(), actorOf(c), c.params);
        return { statusCode: 204, body: "" };
      },
    },
    "GET /api/updates/latest": {
      handler: async (e, c) => {
        const found = await latestUpdate(latestUpdateDeps(), c.updateToken, c.query, bases(e));
        return found ? json(200, found, { "Cache-Control": "no-store" }) : { statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" };
      },
    },
  },
  { ...dashboardRouteMiddlewares(), updateToken: updateTokenAuth(updateCheckDeps) },
  { errorPage },
);
