import type { Context } from "aws-lambda";
import {
  accountMailTaskOf,
  changePassword,
  confirmPasswordReset,
  endOtherSessions,
  endSession,
  endSessionOfToken,
  getAccount,
  listSessions,
  LoginFailedError,
  requestPasswordReset,
  resendVerification,
  runAccountMailTask,
  DEVICE_COOKIE_SECONDS,
  signIn,
  signUp,
  updateProfile,
  verifyEmail,
} from "@hangar/core/accounts";
import { ACCOUNT_MAIL_KEY, accountDeps } from "../composition/accounts";
import { backgroundTaskOf } from "../composition/background";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { dashboardMiddlewares, sessionCookie as sessionCookieIO } from "../composition/dashboard-http";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { hangarContext, httpFunction, json } from "../middleware/http-function";
import { sessionAuth } from "../middleware/session-auth";
import { record } from "../observability/metrics";
import { clientInfo } from "./client-info";
import { logger } from "../observability/logger";
import { clearedSessionCookie, deviceCookie, readDeviceCookie, readSessionCookie, sessionCookie } from "./session-cookie";

/**
 * The accounts API (docs/accounts.md): one function for sign-up, verification, sign-in and
 * sessions, profile and passwords. Its routes are of the dashboard kind (route-input/): the
 * same-origin check and the security headers on every one; session routes then authenticate by
 * cookie. Bodies and ids arrive parsed; use cases live in core; this file only translates HTTP.
 */
const publicBase = (event: HttpEvent) => linkBases(event, getRuntime().settings).publicBaseUrl;
const client = (event: HttpEvent) => clientInfo(event, getRuntime().settings);
const links = (event: HttpEvent) => ({ publicBaseUrl: publicBase(event) });
const noContent = (cookies?: string[]): HttpResult => ({ statusCode: 204, ...(cookies ? { cookies } : {}) });

const accepted = (message: string, extra: Record<string, unknown> = {}) => json(202, { message, ...extra });

const http = httpFunction(
  "accounts",
  {
    // The mail itself is sent after the answer (core's account-mail-task.ts), so the answer is the
    // same for a new and a taken address and cannot know whether the mail went out.
    "POST /api/account/sign-up": {
      handler: async (event, context) => {
        await signUp(accountDeps(), context.body, client(event), links(event));
        return accepted("Check your inbox: we are sending a link to confirm the address. No mail after a few minutes? Ask for a new one.");
      },
    },
    "POST /api/account/verify-email": {
      handler: async (_event, context) =>
        json(200, { ...(await verifyEmail(accountDeps(), context.body)), message: "Your e-mail address is confirmed. You can sign in." }),
    },
    "POST /api/account/resend-verification": {
      handler: async (event, context) => {
        await resendVerification(accountDeps(), context.body, client(event), links(event));
        return accepted("If this address has an account waiting for confirmation, a new link is on its way.");
      },
    },
    "POST /api/session": {
      handler: async (event, context) => {
        const deps = accountDeps();
        const base = publicBase(event);
        const { account, sessionToken, session, deviceToken } = await signIn(deps, context.body, client(event), readDeviceCookie(event, base)).catch(
          (error: unknown) => {
            if (error instanceof LoginFailedError) record.signInFailure();
            throw error;
          },
        );
        record.signIn();
        const maxAge = session.absoluteExpiresAt - Math.floor(deps.clock.now().getTime() / 1000);
        const cookies = [sessionCookie(base, sessionToken, maxAge), ...(deviceToken ? [deviceCookie(base, deviceToken, DEVICE_COOKIE_SECONDS)] : [])];
        return { ...json(200, { account }), cookies };
      },
    },
    // Sign-out works with or without a valid session (it clears the cookie either way).
    "DELETE /api/session": {
      handler: async (event) => {
        await endSessionOfToken(accountDeps(), readSessionCookie(event, publicBase(event)));
        return noContent([clearedSessionCookie(publicBase(event))]);
      },
    },
    "GET /api/account": { handler: async (_event, context) => json(200, await getAccount(accountDeps(), context.session)) },
    "PUT /api/account/profile": {
      handler: async (_event, context) => json(200, await updateProfile(accountDeps(), context.session, context.body)),
    },
    "POST /api/account/password": {
      handler: async (_event, context) => {
        await changePassword(accountDeps(), context.session, context.body);
        return noContent();
      },
    },
    "POST /api/account/password-reset": {
      handler: async (event, context) => {
        await requestPasswordReset(accountDeps(), context.body, client(event), links(event));
        return accepted("If this address has an account, a link to choose a new password is on its way.");
      },
    },
    "POST /api/account/password-reset/confirm": {
      handler: async (event, context) => {
        await confirmPasswordReset(accountDeps(), context.body, client(event));
        // Every session of the account ended, this browser's included.
        return noContent([clearedSessionCookie(publicBase(event))]);
      },
    },
    "GET /api/account/sessions": {
      handler: async (_event, context) => json(200, { items: await listSessions(accountDeps(), context.session) }),
    },
    "DELETE /api/account/sessions": {
      handler: async (_event, context) => {
        await endOtherSessions(accountDeps(), context.session);
        return noContent();
      },
    },
    "DELETE /api/account/sessions/{sessionId}": {
      handler: async (event, context) => {
        await endSession(accountDeps(), context.session, context.params);
        return noContent(context.params.sessionId === context.session.sessionId ? [clearedSessionCookie(publicBase(event))] : undefined);
      },
    },
  },
  { session: sessionAuth(accountDeps, sessionCookieIO), dashboard: dashboardMiddlewares() },
);

/**
 * HTTP requests from API Gateway, and the asynchronous invocations this function sends itself
 * with the mail side of sign-up, resend and reset (composition/background.ts).
 */
export async function handler(event: HttpEvent | unknown, context: Context): Promise<HttpResult | void> {
  const task = backgroundTaskOf(event, ACCOUNT_MAIL_KEY, accountMailTaskOf);
  if (!task) return http(event as HttpEvent, hangarContext(context));
  try {
    await runAccountMailTask(accountDeps(), task);
  } catch (error) {
    // Thrown on: Lambda retries the async invocation (a repeated mail is harmless), then hands it on.
    logger.error("background account mail failed", { error: error as Error, kind: task.kind });
    throw error;
  }
}
