import { html } from "@hangar/core/html";
import {
  answerEnrollment,
  deviceCookieHeader,
  enrollmentHash,
  enrollmentResult,
  enrollmentReturnUrl,
  enrollProfile,
  EnrollReturnError,
  exportDevices,
  fileDevices,
  listDevices,
  removeDevice,
  renameDevice,
  signContent,
  startEnrollment,
} from "@hangar/core/devices";
import { clientInfo } from "../accounts/client-info";
import { isHttps } from "../accounts/session-cookie";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { deviceAdminDeps, deviceCookieSecret, enrollDeps, enrollSigningIdentity } from "../composition/devices";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { noContent } from "../projects/answers";
import { actorOf } from "../middleware/actor";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import type { MappedError } from "../middleware/http-errors";
import { httpFunction, json } from "../middleware/http-function";
import { errorPage } from "../share/error-page";
import { htmlResult, shareBase, wantsHtml } from "../share/share-access";
import { frame, renderGonePage, renderNoticePage } from "../share/share-page";
import { readTesterCookie } from "../tester/tester-cookie";

/**
 * iOS devices (docs/devices.md). On the share host, Apple's profile service: the enroll profile
 * (`.mobileconfig`), the device's signed answer, and the result page that sets the device cookie
 * (core's devices/enrollment.ts decides). On the API, the dashboard's devices: the workspace's
 * list, rename, remove, a build's included and missing devices, and Apple's import file.
 */

const client = (event: HttpEvent) => clientInfo(event, getRuntime().settings).ip;

/** The request body's bytes, whatever the content type (iOS posts `application/pkcs7-signature`). */
function bodyBytes(event: HttpEvent): Buffer {
  const raw = event.body ?? "";
  return event.isBase64Encoded ? Buffer.from(raw, "base64") : Buffer.from(raw, "utf8");
}

/** `GET /devices/enroll?return=<page>`: the profile iOS offers to install, signed when the stage has an identity. */
async function enroll(event: HttpEvent, returnTo: string): Promise<HttpResult> {
  const { challenge } = await startEnrollment(enrollDeps(), { returnTo, client: client(event), testerCookie: readTesterCookie(event) });
  const profile = enrollProfile(`${shareBase(event)}/devices/enroll/callback`, challenge);
  const identity = await enrollSigningIdentity();
  const body = identity ? await signContent(profile, identity, getRuntime().clock.now()) : profile;
  return {
    statusCode: 200,
    headers: {
      "Content-Type": "application/x-apple-aspen-config",
      "Content-Disposition": 'attachment; filename="hangar-register-device.mobileconfig"',
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    },
    body: body.toString("base64"),
    isBase64Encoded: true,
  };
}

/**
 * `POST /devices/enroll/callback`: the device's signed answer. Apple's flow wants a redirect
 * (301) to a page iOS then shows; anything but a signed answer to a live profile is a 400 and
 * stores nothing.
 */
async function callback(event: HttpEvent): Promise<HttpResult> {
  const { token } = await answerEnrollment(enrollDeps(), bodyBytes(event), client(event));
  return { statusCode: 301, headers: { Location: `${shareBase(event)}/devices/enrolled/${token}`, "Cache-Control": "no-store" }, body: "" };
}

/** Seconds before the result page goes back to where the tester came from (time to read it). */
const BACK_AFTER_SECONDS = 4;

/**
 * `GET /devices/enrolled/{token}`: what was registered, the device cookie, and the way back (to
 * a portal on another host with the cookie's hand-off: core's devices/device-handoff.ts).
 */
async function enrolled(event: HttpEvent, token: string): Promise<HttpResult> {
  const result = await enrollmentResult(enrollDeps(), token);
  const secret = await deviceCookieSecret().bytes();
  const base = shareBase(event);
  const cookie = deviceCookieHeader(secret, result.device, isHttps(base));
  const back = enrollmentReturnUrl(secret, { challengeHash: enrollmentHash(token), returnTo: result.returnTo }, linkBases(event, getRuntime().settings), getRuntime().clock.now());
  const { device } = result;
  const described = [device.name ?? "This device", result.model ?? device.product, `iOS ${device.version}`].join(", ");
  const body = frame({
    title: "Device registered",
    body: html`<section class="card" aria-labelledby="enrolled-title"><h1 id="enrolled-title">Registered: ${described}</h1>
<p class="sub">The team can now see this device and add it to their test builds. You can delete the profile in Settings → General → VPN &amp; Device Management; iOS usually removes it by itself.</p>
<p><a class="button primary" href="${back}">Back to the build</a></p>
<p class="sub">Going back in a few seconds…</p></section>`,
  });
  return htmlResult(200, body, [], { cookies: [cookie], headers: { Refresh: `${BACK_AFTER_SECONDS}; url=${back}` } });
}

/** The enroll page's and the result page's errors as pages (Safari shows them); the callback's stay JSON (iOS reads the status). */
function devicesErrorPage(mapped: MappedError, event: HttpEvent, error: unknown): HttpResult | undefined {
  // A `return` that is missing, malformed or names nothing (EnrollReturnError, or the query's own 400).
  if (event.routeKey === "GET /devices/enroll" && (error instanceof EnrollReturnError || mapped.status === 400) && wantsHtml(event)) {
    const hint = error instanceof EnrollReturnError ? error.hint : new EnrollReturnError("").hint;
    return htmlResult(400, renderNoticePage("This page cannot register a device", hint));
  }
  if (event.routeKey === "GET /devices/enrolled/{token}" && mapped.status === 404 && wantsHtml(event)) {
    return htmlResult(404, renderGonePage("No registration here", "This registration is over an hour old, or the device never answered. Go back to the build’s page and tap “Check this iPhone” again."));
  }
  return event.routeKey.includes(" /devices/") ? errorPage(mapped, event, error) : undefined;
}

/** The export's headers: Apple's portal imports it as a .txt file of tab-separated values. */
function attachment(body: string, fileName: string): HttpResult {
  return {
    statusCode: 200,
    headers: {
      "Content-Type": "text/tab-separated-values; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
    body,
  };
}

export const handler = httpFunction(
  "devices",
  {
    "GET /devices/enroll": { handler: (event, c) => enroll(event, c.query.return) },
    "POST /devices/enroll/callback": { handler: (event) => callback(event) },
    "GET /devices/enrolled/{token}": { handler: (event, c) => enrolled(event, c.params.token) },
    "GET /api/workspaces/{workspaceId}/devices": {
      handler: async (_e, c) => json(200, await listDevices(deviceAdminDeps(), actorOf(c), c.params)),
    },
    "GET /api/workspaces/{workspaceId}/devices/export": {
      handler: async (_e, c) => {
        const { body, fileName } = await exportDevices(deviceAdminDeps(), actorOf(c), c.params, c.query);
        return attachment(body, fileName);
      },
    },
    "PATCH /api/devices/{deviceId}": {
      handler: async (_e, c) => json(200, await renameDevice(deviceAdminDeps(), actorOf(c), c.params, c.body)),
    },
    "DELETE /api/devices/{deviceId}": {
      handler: async (_e, c) => {
        await removeDevice(deviceAdminDeps(), actorOf(c), c.params);
        return noContent();
      },
    },
    "GET /api/files/{fileId}/devices": {
      handler: async (_e, c) => json(200, await fileDevices(deviceAdminDeps(), actorOf(c), c.params)),
    },
  },
  dashboardRouteMiddlewares(),
  { errorPage: devicesErrorPage },
);
