import type { Context } from "aws-lambda";
import {
  endTesterSession,
  getTesterApp,
  listTesterApps,
  previewJoin,
  requestJoin,
  requestTesterSignIn,
  startTesterSession,
  testerMailTaskOf,
  runTesterMailTask,
  type TesterMailAnswer,
} from "@hangar/core/tester-access";
import { deviceCookieHeader, redeemDeviceHandoff } from "@hangar/core/devices";
import { clientInfo } from "../accounts/client-info";
import { isHttps } from "../accounts/session-cookie";
import { backgroundTaskOf } from "../composition/background";
import { dashboardMiddlewares } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { deviceHandoffDeps, TESTER_MAIL_KEY, testerAccessDeps } from "../composition/tester";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { hangarContext, httpFunction, json } from "../middleware/http-function";
import { testerAuth } from "../middleware/tester-auth";
import { logger } from "../observability/logger";
import { deviceCookies } from "../share/page-verdict";
import { clearedTesterCookie, readTesterCookie, testerCookie } from "./tester-cookie";

/**
 * Tester access (docs/testers.md, "Tester sign-in and the portal API"): magic-link sign-in, the
 * tester session, the join flow of invite links and the portal's reads. Every route is of the
 * dashboard kind (the tester pages are the web app's: same-origin guard, security headers); the
 * portal's routes authenticate by the `hangar_tester` cookie only. Use cases live in core.
 */
const bases = (event: HttpEvent) => linkBases(event, getRuntime().settings);
const client = (event: HttpEvent) => clientInfo(event, getRuntime().settings);
const links = (event: HttpEvent) => ({ publicBaseUrl: bases(event).publicBaseUrl });
const sent: TesterMailAnswer = { status: "sent" };

const cookieIO = {
  read: readTesterCookie,
  cleared: (event: HttpEvent) => clearedTesterCookie(bases(event).publicBaseUrl),
};

const http = httpFunction(
  "tester",
  {
    // 202 whatever the address: the lookup and the mail run after the answer (core's tester-mail-task.ts).
    "POST /api/tester/sign-in": {
      handler: async (event, c) => {
        await requestTesterSignIn(testerAccessDeps(), c.body, client(event), links(event));
        return json(202, sent);
      },
    },
    "POST /api/tester/session": {
      handler: async (event, c) => {
        const { cookieValue, answer, maxAgeSeconds } = await startTesterSession(testerAccessDeps(), c.body);
        return { ...json(200, answer), cookies: [testerCookie(bases(event).publicBaseUrl, cookieValue, maxAgeSeconds)] };
      },
    },
    "GET /api/tester/session": {
      handler: async (_event, c) => json(200, { email: c.tester.email, expiresAt: c.tester.expiresAt }),
    },
    // Works with or without a valid session: it clears the cookie either way.
    "DELETE /api/tester/session": {
      handler: async (event): Promise<HttpResult> => {
        await endTesterSession(testerAccessDeps(), readTesterCookie(event));
        return { statusCode: 204, cookies: [clearedTesterCookie(bases(event).publicBaseUrl)] };
      },
    },
    "GET /api/tester/apps": {
      handler: async (event, c) => json(200, await listTesterApps(testerAccessDeps(), c.tester, bases(event), deviceCookies(event))),
    },
    "GET /api/tester/apps/{projectId}": {
      handler: async (event, c) => json(200, await getTesterApp(testerAccessDeps(), c.tester, c.params, bases(event), deviceCookies(event))),
    },
    // The share host's enroll result page sent the tester back with a hand-off: the device cookie, set on this host.
    "POST /api/tester/device": {
      handler: async (event, c): Promise<HttpResult> => {
        const device = await redeemDeviceHandoff(deviceHandoffDeps(), c.tester, c.body);
        const secret = await deviceHandoffDeps().deviceCookieSecret.bytes();
        return { statusCode: 204, cookies: [deviceCookieHeader(secret, device, isHttps(bases(event).publicBaseUrl))] };
      },
    },
    "POST /api/join/preview": {
      handler: async (event, c) => json(200, await previewJoin(testerAccessDeps(), c.body, client(event))),
    },
    // 202 always: the confirmation mail goes out after the answer, only while the link lets people in.
    "POST /api/join": {
      handler: async (event, c) => {
        await requestJoin(testerAccessDeps(), c.body, client(event), links(event));
        return json(202, sent);
      },
    },
  },
  { tester: testerAuth(testerAccessDeps, cookieIO), dashboard: dashboardMiddlewares() },
);

/**
 * HTTP requests from API Gateway, and the asynchronous invocations this function sends itself
 * with the mail side of sign-in and join requests (composition/background.ts).
 */
export async function handler(event: HttpEvent | unknown, context: Context): Promise<HttpResult | void> {
  const task = backgroundTaskOf(event, TESTER_MAIL_KEY, testerMailTaskOf);
  if (!task) return http(event as HttpEvent, hangarContext(context));
  try {
    await runTesterMailTask(testerAccessDeps(), task);
  } catch (error) {
    // Thrown on: Lambda retries the async invocation (a repeated mail is harmless), then hands it on.
    logger.error("background tester mail failed", { error: error as Error, kind: task.kind });
    throw error;
  }
}
