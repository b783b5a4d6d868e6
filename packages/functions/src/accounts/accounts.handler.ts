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
import { sameOriginGuard } from "../middleware/csrf";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { withSecurityHeaders } from "../middleware/security-headers";
import { sessionAuth } from "../middleware/session-auth";
import { record } from "../observability/metrics";
import { clientInfo } from "./client-info";
import { logger } from "../observability/logger";
import { clearedSessionCookie, deviceCookie, readDeviceCookie, readSessionCookie, sessionCookie } from "./session-cookie";

/**
 * The accounts API (docs/accounts.md): one function for sign-up, verification, sign-in and
 * sessions, profile and passwords. Every route passes the same-origin check first; session
 * routes then authenticate by cookie. Use cases live in core; this file only translates HTTP.
 */
const publicBase = (event: HttpEvent) => linkBases(event, getRuntime().settings).publicBaseUrl;
const client = (event: HttpEvent) => clientInfo(event, getRuntime().settings);
const links = (event: HttpEvent) => ({ publicBaseUrl: publicBase(event) });
const noContent = (cookies?: string[]): HttpResult => ({ statusCode: 204, ...(cookies ? { cookies } : {}) });

const accepted = (message: string, extra: Record<string, unknown> = {}) => json(202, { message, ...extra });

// The mail itself is sent after the answer (core's account-mail-task.ts), so the answer is the
// same for a new and a taken address and cannot know whether the mail went out.
async function signUpRoute(event: HttpEvent, context: ContextFor<"none">) {
  await signUp(accountDeps(), context.body, client(event), links(event));
  return accepted("Check your inbox: we are sending a link to confirm the address. No mail after a few minutes? Ask for a new one.");
}

async function verifyEmailRoute(_event: HttpEvent, context: ContextFor<"none">) {
  return json(200, { ...(await verifyEmail(accountDeps(), context.body)), message: "Your e-mail address is confirmed. You can sign in." });
}

async function resendRoute(event: HttpEvent, context: ContextFor<"none">) {
  await resendVerification(accountDeps(), context.body, client(event), links(event));
  return accepted("If this address has an account waiting for confirmation, a new link is on its way.");
}

async function signInRoute(event: HttpEvent, context: ContextFor<"none">) {
  const deps = accountDeps();
  const base = publicBase(event);
  const { account, sessionToken, session, deviceToken } = await signIn(deps, context.body, client(event), readDeviceCookie(event, base)).catch((error: unknown) => {
    if (error instanceof LoginFailedError) record.signInFailure();
    throw error;
  });
  record.signIn();
  const maxAge = session.absoluteExpiresAt - Math.floor(deps.clock.now().getTime() / 1000);
  const cookies = [sessionCookie(base, sessionToken, maxAge), ...(deviceToken ? [deviceCookie(base, deviceToken, DEVICE_COOKIE_SECONDS)] : [])];
  return { ...json(200, { account }), cookies };
}

async function signOutRoute(event: HttpEvent) {
  await endSessionOfToken(accountDeps(), readSessionCookie(event, publicBase(event)));
  return noContent([clearedSessionCookie(publicBase(event))]);
}

async function accountRoute(_event: HttpEvent, context: ContextFor<"session">) {
  return json(200, await getAccount(accountDeps(), context.session));
}

async function profileRoute(_event: HttpEvent, context: ContextFor<"session">) {
  return json(200, await updateProfile(accountDeps(), context.session, context.body));
}

async function passwordRoute(_event: HttpEvent, context: ContextFor<"session">) {
  await changePassword(accountDeps(), context.session, context.body);
  return noContent();
}

async function resetRequestRoute(event: HttpEvent, context: ContextFor<"none">) {
  await requestPasswordReset(accountDeps(), context.body, client(event), links(event));
  return accepted("If this address has an account, a link to choose a new password is on its way.");
}

async function resetConfirmRoute(event: HttpEvent, context: ContextFor<"none">) {
  await confirmPasswordReset(accountDeps(), context.body, client(event));
  // Every session of the account ended, this browser's included.
  return noContent([clearedSessionCookie(publicBase(event))]);
}

async function sessionsRoute(_event: HttpEvent, context: ContextFor<"session">) {
  return json(200, { items: await listSessions(accountDeps(), context.session) });
}

async function endOthersRoute(_event: HttpEvent, context: ContextFor<"session">) {
  await endOtherSessions(accountDeps(), context.session);
  return noContent();
}

async function endOneRoute(event: HttpEvent, context: ContextFor<"session">) {
  const sessionId = event.pathParameters?.sessionId;
  await endSession(accountDeps(), context.session, sessionId);
  return noContent(sessionId === context.session.sessionId ? [clearedSessionCookie(publicBase(event))] : undefined);
}

const inner = httpFunction(
  "accounts",
  {
    "POST /api/account/sign-up": { json: true, handler: signUpRoute },
    "POST /api/account/verify-email": { json: true, handler: verifyEmailRoute },
    "POST /api/account/resend-verification": { json: true, handler: resendRoute },
    "POST /api/session": { json: true, handler: signInRoute },
    "DELETE /api/session": { handler: signOutRoute },
    "GET /api/account": { handler: accountRoute },
    "PUT /api/account/profile": { json: true, handler: profileRoute },
    "POST /api/account/password": { json: true, handler: passwordRoute },
    "POST /api/account/password-reset": { json: true, handler: resetRequestRoute },
    "POST /api/account/password-reset/confirm": { json: true, handler: resetConfirmRoute },
    "GET /api/account/sessions": { handler: sessionsRoute },
    "DELETE /api/account/sessions": { handler: endOthersRoute },
    "DELETE /api/account/sessions/{sessionId}": { handler: endOneRoute },
  },
  { session: sessionAuth(accountDeps, (event) => readSessionCookie(event, publicBase(event))) },
  { guard: sameOriginGuard(publicBase) },
);

/** A stale or forged cookie is cleared as it is refused, so the browser stops sending it. */
function clearRefusedCookie(event: HttpEvent, result: HttpResult): HttpResult {
  if (result.statusCode !== 401 || !result.body?.includes('"not_signed_in"')) return result;
  if (readSessionCookie(event, publicBase(event)) === undefined) return result;
  return { ...result, cookies: [...(result.cookies ?? []), clearedSessionCookie(publicBase(event))] };
}

const http = withSecurityHeaders(inner as unknown as Parameters<typeof withSecurityHeaders>[0], clearRefusedCookie);

/**
 * HTTP requests from API Gateway, and the asynchronous invocations this function sends itself
 * with the mail side of sign-up, resend and reset (composition/background.ts).
 */
export async function handler(event: HttpEvent | unknown, context: Context): Promise<HttpResult | void> {
  const task = backgroundTaskOf(event, ACCOUNT_MAIL_KEY, accountMailTaskOf);
  if (!task) return http(event as HttpEvent, context);
  try {
    await runAccountMailTask(accountDeps(), task);
  } catch (error) {
    // Thrown on: Lambda retries the async invocation (a repeated mail is harmless), then hands it on.
    logger.error("background account mail failed", { error: error as Error, kind: task.kind });
    throw error;
  }
}
