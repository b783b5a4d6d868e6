import { hashSecret, secretMatches } from "../../ids/random-ids";
import type { Session } from "../../ports";
import { nowSeconds, type AccountDeps, type ClientInfo } from "../account-deps";
import { NotSignedInError, SessionNotFoundError } from "../account-errors";
import type { SessionRef, SessionView } from "../account.schema";
import { formatSessionToken, parseSessionToken } from "./session-token";

/** The signed-in person of a dashboard request. */
export interface SessionContext {
  userId: string;
  sessionId: string;
}

const MAX_USER_AGENT = 256;

/** A new session (new id, new secret) for a user who just proved who they are. */
export async function startSession(
  deps: Pick<AccountDeps, "sessions" | "clock" | "ids" | "settings">,
  userId: string,
  client: ClientInfo,
): Promise<{ token: string; session: Session }> {
  const now = deps.clock.now();
  const seconds = Math.floor(now.getTime() / 1000);
  const secret = deps.ids.secret();
  const session: Session = {
    sessionId: deps.ids.sessionId(),
    userId,
    secretHash: hashSecret(secret),
    createdAt: now.toISOString(),
    lastSeenAt: now.toISOString(),
    idleExpiresAt: seconds + deps.settings.sessionIdleSeconds,
    absoluteExpiresAt: seconds + deps.settings.sessionAbsoluteSeconds,
    ip: client.ip,
    ...(client.userAgent ? { userAgent: client.userAgent.slice(0, MAX_USER_AGENT) } : {}),
  };
  await deps.sessions.create(session);
  return { token: formatSessionToken({ userId, sessionId: session.sessionId, secret }), session };
}

/**
 * The session a cookie names, if its secret matches (constant-time compare of hashes) and it
 * has not expired, idle or absolute. Slides the idle expiry, at most once per refresh interval
 * so that reading pages does not cost a write each.
 */
export async function authenticateSession(
  deps: Pick<AccountDeps, "sessions" | "clock" | "settings">,
  token: string | undefined,
): Promise<SessionContext> {
  const parts = parseSessionToken(token);
  if (!parts) throw new NotSignedInError();
  const session = await deps.sessions.get(parts.userId, parts.sessionId);
  // Compare even when there is no session, so both cost the same.
  const matches = secretMatches(parts.secret, session?.secretHash ?? hashSecret("no-session"));
  const now = nowSeconds(deps.clock);
  if (!session || !matches || now >= session.idleExpiresAt || now >= session.absoluteExpiresAt) throw new NotSignedInError();

  const lastSeen = Math.floor(Date.parse(session.lastSeenAt) / 1000);
  if (now - lastSeen >= deps.settings.sessionRefreshSeconds) {
    const idleExpiresAt = Math.min(now + deps.settings.sessionIdleSeconds, session.absoluteExpiresAt);
    await deps.sessions.touch(session.userId, session.sessionId, deps.clock.now().toISOString(), idleExpiresAt);
  }
  return { userId: session.userId, sessionId: session.sessionId };
}

/** Sign-out: ends the cookie's session if it is a valid one; always succeeds. */
export async function endSessionOfToken(deps: Pick<AccountDeps, "sessions" | "clock" | "settings">, token: string | undefined): Promise<void> {
  let session: SessionContext;
  try {
    session = await authenticateSession(deps, token);
  } catch (error) {
    if (error instanceof NotSignedInError) return;
    throw error;
  }
  await deps.sessions.delete(session.userId, session.sessionId);
}

/** The caller's live sessions, the most recently used first. */
export async function listSessions(deps: Pick<AccountDeps, "sessions" | "clock">, current: SessionContext): Promise<SessionView[]> {
  const now = nowSeconds(deps.clock);
  const sessions = await deps.sessions.list(current.userId);
  return sessions
    .filter((s) => now < s.idleExpiresAt && now < s.absoluteExpiresAt)
    .sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt))
    .map((s) => ({
      sessionId: s.sessionId,
      current: s.sessionId === current.sessionId,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      ...(s.userAgent ? { userAgent: s.userAgent } : {}),
      ...(s.ip ? { ip: s.ip } : {}),
    }));
}

/** Ends one of the caller's sessions; another person's session id answers as an unknown one. */
export async function endSession(deps: Pick<AccountDeps, "sessions">, current: SessionContext, input: SessionRef): Promise<void> {
  if (!(await deps.sessions.delete(current.userId, input.sessionId))) throw new SessionNotFoundError();
}

/** "Sign out everywhere else". */
export async function endOtherSessions(deps: Pick<AccountDeps, "sessions">, current: SessionContext): Promise<void> {
  await deps.sessions.deleteAll(current.userId, current.sessionId);
}
