import { createHash } from "node:crypto";
import { addressSubject, enforce, nowSeconds, type ClientInfo } from "../accounts/account-deps";
import { InvalidTokenError, NotSignedInError } from "../accounts/account-errors";
import { hashSecret } from "../ids/random-ids";
import type { TesterSession } from "../testers/tester-context";
import type { JoinLinkInput, JoinPreview, JoinedGroup, TesterSessionAnswer, TesterTokenInput } from "./tester-access.schema";
import { JoinLinkGoneError } from "./tester-access-errors";
import type { TesterAccessDeps } from "./tester-access-deps";

/** What the request schemas of sign-in and join give (the address normalized by accounts' `Email`). */
export interface TesterEmailInput {
  email: string;
}
export interface JoinRequestInput {
  token: string;
  email: string;
}

/** Where links in mails point: the dashboard's public origin (the tester pages are part of it). */
export interface TesterLinks {
  publicBaseUrl: string;
}

/**
 * `POST /api/tester/sign-in`: asks for a magic link. Every address gets the same 202 after the
 * same work in the request: the two limits are counted (per client, per address: both keyed
 * whatever the address is), then one background task is scheduled. Whether the address is a
 * tester is looked up only in that task, after the answer, which then mails a link or nothing.
 * So the answer and its time are equal by construction, as for accounts' reset (issue 17, M1).
 */
export async function requestTesterSignIn(deps: TesterAccessDeps, input: TesterEmailInput, client: ClientInfo, links: TesterLinks): Promise<void> {
  await enforce(deps, [
    [deps.limiters.signInPerClient, client.ip],
    [deps.limiters.mailPerAddress, addressSubject("tester-mail", input.email)],
  ]);
  await deps.background.schedule({ kind: "tester-sign-in", email: input.email, publicBaseUrl: links.publicBaseUrl });
}

/** Rate-limit subject of one invite link: a hash of its token (the token itself is never stored). */
const linkSubject = (token: string) => `join-link:${createHash("sha256").update(token, "utf8").digest("hex").slice(0, 32)}`;

/**
 * `POST /api/join`: asks to join a group through its invite link. 202 always, after the same work
 * whatever the link and the address (limits per client, per link and per address, one background
 * task): the task mails a confirmation link only while the invite link lets people in. The answer
 * says nothing of the address; the join page previews the link first (`previewJoin`), so a person
 * with a dead link learns it there.
 */
export async function requestJoin(deps: TesterAccessDeps, input: JoinRequestInput, client: ClientInfo, links: TesterLinks): Promise<void> {
  await enforce(deps, [
    [deps.limiters.joinPerClient, client.ip],
    [deps.limiters.joinPerLink, linkSubject(input.token)],
    [deps.limiters.mailPerAddress, addressSubject("tester-mail", input.email)],
  ]);
  await deps.background.schedule({ kind: "tester-join", email: input.email, publicBaseUrl: links.publicBaseUrl, joinToken: input.token });
}

/**
 * `POST /api/join/preview`: what the join page shows before asking for an address. A link that
 * lets nobody in (unknown, revoked, replaced, expired, full) is one 410 `join_link_gone`.
 */
export async function previewJoin(deps: TesterAccessDeps, input: JoinLinkInput, client: ClientInfo): Promise<JoinPreview> {
  await enforce(deps, [[deps.limiters.joinPerClient, client.ip]]);
  const link = await deps.joinLinks.preview(input.token);
  if (!link?.open) throw new JoinLinkGoneError();
  return { groupName: link.groupName, workspaceName: link.workspaceName, expiresAt: link.expiresAt, open: link.open };
}

/** A new session's cookie value and what the answer says. */
export interface TesterSignedIn {
  /** `<address, base64url>.<token>`: the cookie's value, shown to the browser once (only the token's hash is stored). */
  cookieValue: string;
  answer: TesterSessionAnswer;
  /** Seconds until the session ends: the cookie's Max-Age. */
  maxAgeSeconds: number;
}

/**
 * `POST /api/tester/session`: redeems a magic link (sign-in or join) for a tester session of 30
 * days. The token is consumed first (one conditional delete: a second use, an expired or an
 * unknown token is 400 `invalid_token`). A join token then adds the address to the group through
 * tester-groups (410 `join_link_gone` when the link was revoked, expired or filled meanwhile: no
 * session then, since the person asked to join, not to sign in). Every sign-in is a new session
 * with a new token (no fixation).
 */
export async function startTesterSession(deps: TesterAccessDeps, input: TesterTokenInput): Promise<TesterSignedIn> {
  const now = deps.clock.now();
  const token = await deps.tokens.consume(hashSecret(input.token), ["tester_sign_in", "tester_join"], nowSeconds(deps.clock));
  if (!token) throw new InvalidTokenError();
  let joined: JoinedGroup | null = null;
  if (token.purpose === "tester_join") {
    if (!token.joinToken) throw new InvalidTokenError();
    const outcome = await deps.joinLinks.join({ token: token.joinToken, email: token.email, now });
    joined = { groupId: outcome.groupId, groupName: outcome.groupName, workspaceName: outcome.workspaceName };
    // Only a new member of the group is news: a second click on the mail changes nothing.
    if (outcome.joined) {
      await deps.events?.publish({
        type: "tester.joined",
        occurredAt: now.toISOString(),
        workspaceId: outcome.workspaceId,
        projectId: null,
        branch: null,
        data: { workspaceId: outcome.workspaceId, tester: { email: token.email }, group: { groupId: outcome.groupId, name: outcome.groupName }, via: "invite_link" },
      });
    }
  }
  const secret = deps.secret();
  const expiresAt = new Date(now.getTime() + deps.settings.sessionTtlSeconds * 1000).toISOString();
  await deps.sessions.create({ sessionId: hashSecret(secret), email: token.email, createdAt: now.toISOString(), expiresAt });
  return {
    cookieValue: `${Buffer.from(token.email, "utf8").toString("base64url")}.${secret}`,
    answer: { email: token.email, expiresAt, joined },
    maxAgeSeconds: deps.settings.sessionTtlSeconds,
  };
}

// `<address, base64url: at most 254 characters, so 339>.<43 characters>`: checked before any read.
const COOKIE = /^([A-Za-z0-9_-]{4,340})\.([A-Za-z0-9_-]{43})$/;

/**
 * The address and session id a `hangar_tester` cookie names (`<address, base64url>.<token>`), or
 * undefined for any other value: also what the installs function reads to count a portal install.
 */
export function parseTesterCookie(value: string | undefined): { email: string; sessionId: string } | undefined {
  const m = value === undefined ? null : COOKIE.exec(value);
  if (!m) return undefined;
  const email = Buffer.from(m[1]!, "base64url").toString("utf8");
  // Round trip: a value that is not the canonical encoding of an address names nothing.
  if (!email.includes("@") || Buffer.from(email, "utf8").toString("base64url") !== m[1]) return undefined;
  return { email, sessionId: hashSecret(m[2]!) };
}

/**
 * The tester behind a `hangar_tester` cookie, or 401 `not_signed_in`: one consistent read of the
 * session item, keyed by the hash of the cookie's token (a forged token names no item). A session
 * past its end is refused (and deleted) here, not left to TTL, which deletes late.
 */
export async function authenticateTester(deps: Pick<TesterAccessDeps, "sessions" | "clock">, cookieValue: string | undefined): Promise<TesterSession> {
  const parsed = parseTesterCookie(cookieValue);
  if (!parsed) throw new NotSignedInError();
  const session = await deps.sessions.get(parsed.email, parsed.sessionId);
  if (!session) throw new NotSignedInError();
  if (Date.parse(session.expiresAt) <= deps.clock.now().getTime()) {
    await deps.sessions.delete(parsed.email, parsed.sessionId);
    throw new NotSignedInError();
  }
  return { sessionId: session.sessionId, email: session.email, expiresAt: session.expiresAt };
}

/** `DELETE /api/tester/session`: ends the cookie's session, if it names one; signing out never fails. */
export async function endTesterSession(deps: Pick<TesterAccessDeps, "sessions">, cookieValue: string | undefined): Promise<void> {
  const parsed = parseTesterCookie(cookieValue);
  if (parsed) await deps.sessions.delete(parsed.email, parsed.sessionId);
}
