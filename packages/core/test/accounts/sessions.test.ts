import { describe, expect, it } from "vitest";
import { changePassword, endSession, signIn, signUp, updateProfile, verifyEmail } from "../support/through-http";
import { ValidationError, hashSecret } from "../../src";
import {
  NotSignedInError,
  SessionNotFoundError,
  authenticateSession,
  endOtherSessions,
  endSessionOfToken,
  getAccount,
  listSessions,
  parseSessionToken,
  randomAccountIds,
} from "../../src/accounts";
import { PASSWORD, accountWorld, client, links, tokenFrom } from "./account-fakes";

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
const DAY = 24 * 3600 * 1000;

async function signedIn(overrides = {}) {
  const world = accountWorld(overrides);
  await signUp(world.deps, { email: "ada@example.com", password: PASSWORD }, client, links);
  await verifyEmail(world.deps, { token: tokenFrom(world.mailer.sent[0], "verify-email") });
  const first = await signIn(world.deps, { email: "ada@example.com", password: PASSWORD }, { ip: "203.0.113.7", userAgent: "Firefox" });
  return { ...world, first };
}
const later = (clock: { now(): Date; set(d: string): void }, ms: number) => clock.set(new Date(clock.now().getTime() + ms).toISOString());

describe("sessions", () => {
  it("are an id and a 32-byte secret in the cookie, with only the secret's hash stored", async () => {
    const { first, sessions } = await signedIn({ ids: randomAccountIds });
    const parts = parseSessionToken(first.sessionToken)!;
    expect(Buffer.from(parts.secret, "base64url")).toHaveLength(32);
    const stored = [...sessions.items.values()][0]!;
    expect(stored.secretHash).toBe(hashSecret(parts.secret));
    expect(JSON.stringify(stored)).not.toContain(parts.secret);
  });

  it("authenticate only with the exact secret", async () => {
    const { deps, first } = await signedIn();
    await expect(authenticateSession(deps, first.sessionToken)).resolves.toEqual({ userId: first.session.userId, sessionId: first.session.sessionId });
    const tampered = `${first.sessionToken.slice(0, -1)}${first.sessionToken.endsWith("y") ? "z" : "y"}`;
    for (const bad of [tampered, undefined, "", "garbage", `${first.sessionToken}x`]) {
      expect(await failure(authenticateSession(deps, bad))).toBeInstanceOf(NotSignedInError);
    }
  });

  it("expire after 7 idle days, sliding with use but written at most once an hour", async () => {
    const { deps, first, clock, sessions } = await signedIn();
    later(clock, 30 * 60 * 1000);
    await authenticateSession(deps, first.sessionToken);
    expect(sessions.touches).toBe(0);
    later(clock, 31 * 60 * 1000);
    await authenticateSession(deps, first.sessionToken);
    expect(sessions.touches).toBe(1);
    // Used an hour in: idle until 7 days after that use, not after sign-in.
    later(clock, 7 * DAY - 1000);
    await expect(authenticateSession(deps, first.sessionToken)).resolves.toBeDefined();
    later(clock, 7 * DAY);
    expect(await failure(authenticateSession(deps, first.sessionToken))).toBeInstanceOf(NotSignedInError);
  });

  it("expire 30 days after sign-in however much they are used", async () => {
    const { deps, first, clock } = await signedIn();
    for (let day = 1; day < 30; day++) {
      later(clock, DAY);
      await authenticateSession(deps, first.sessionToken);
    }
    later(clock, DAY);
    expect(await failure(authenticateSession(deps, first.sessionToken))).toBeInstanceOf(NotSignedInError);
  });

  it("are listed with the current one marked, and end one by one, everywhere else, or by sign-out", async () => {
    const { deps, first } = await signedIn();
    const second = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, { ip: "198.51.100.1", userAgent: "Safari" });
    const third = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, { ip: "198.51.100.2" });
    const me = { userId: first.session.userId, sessionId: first.session.sessionId };
    const items = await listSessions(deps, me);
    expect(items).toHaveLength(3);
    expect(items.find((s) => s.current)).toMatchObject({ sessionId: me.sessionId, userAgent: "Firefox", ip: "203.0.113.7" });

    await endSession(deps, me, second.session.sessionId);
    expect(await failure(authenticateSession(deps, second.sessionToken))).toBeInstanceOf(NotSignedInError);
    expect(await failure(endSession(deps, me, second.session.sessionId))).toBeInstanceOf(SessionNotFoundError);

    await endOtherSessions(deps, me);
    expect(await failure(authenticateSession(deps, third.sessionToken))).toBeInstanceOf(NotSignedInError);
    await expect(authenticateSession(deps, first.sessionToken)).resolves.toEqual(me);

    await endSessionOfToken(deps, first.sessionToken);
    expect(await failure(authenticateSession(deps, first.sessionToken))).toBeInstanceOf(NotSignedInError);
    await expect(endSessionOfToken(deps, "garbage")).resolves.toBeUndefined();
  });

  it("of another person cannot be ended: it answers like an unknown session", async () => {
    const { deps, first, mailer } = await signedIn();
    await signUp(deps, { email: "eve@example.com", password: PASSWORD }, client, links);
    await verifyEmail(deps, { token: tokenFrom(mailer.sent.at(-1), "verify-email") });
    const eve = await signIn(deps, { email: "eve@example.com", password: PASSWORD }, client);
    const eveCtx = { userId: eve.session.userId, sessionId: eve.session.sessionId };
    expect(await failure(endSession(deps, eveCtx, first.session.sessionId))).toBeInstanceOf(SessionNotFoundError);
    await expect(authenticateSession(deps, first.sessionToken)).resolves.toBeDefined();
  });
});

describe("password change", () => {
  it("needs the current password, ends every other session and keeps this one", async () => {
    const { deps, first } = await signedIn();
    const other = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    const me = { userId: first.session.userId, sessionId: first.session.sessionId };
    const wrong = await failure(changePassword(deps, me, { currentPassword: "not my password", newPassword: "a brand new password" }));
    expect((wrong as ValidationError).issues).toEqual([{ field: "currentPassword", message: "is not your current password" }]);
    await changePassword(deps, me, { currentPassword: PASSWORD, newPassword: "a brand new password" });
    expect(await failure(authenticateSession(deps, other.sessionToken))).toBeInstanceOf(NotSignedInError);
    await expect(authenticateSession(deps, first.sessionToken)).resolves.toEqual(me);
    await expect(signIn(deps, { email: "ada@example.com", password: "a brand new password" }, client)).resolves.toBeDefined();
  });

  it("refuses short and common new passwords", async () => {
    const { deps, first } = await signedIn();
    const me = { userId: first.session.userId, sessionId: first.session.sessionId };
    await expect(changePassword(deps, me, { currentPassword: PASSWORD, newPassword: "short" })).rejects.toThrow(/at least 12/);
    await expect(changePassword(deps, me, { currentPassword: PASSWORD, newPassword: "Password1234" })).rejects.toThrow(/too common/);
  });
});

describe("profile", () => {
  it("needs a display name of 1 to 80 characters, takes an optional organization of up to 120, trimmed", async () => {
    const { deps, first } = await signedIn();
    const me = { userId: first.session.userId, sessionId: first.session.sessionId };
    const issues = async (body: unknown) => ((await failure(updateProfile(deps, me, body))) as ValidationError).issues;
    expect(await issues({})).toEqual([{ field: "displayName", message: "is required" }]);
    expect(await issues({ displayName: "   " })).toEqual([{ field: "displayName", message: "is required" }]);
    expect(await issues({ displayName: "x".repeat(81) })).toEqual([{ field: "displayName", message: "must be at most 80 characters" }]);
    expect(await issues({ displayName: "Ada", organization: "o".repeat(121) })).toEqual([{ field: "organization", message: "must be at most 120 characters" }]);
    expect(await issues({ displayName: "Ada\u202Eevil" })).toEqual([{ field: "displayName", message: "must not contain control or invisible characters" }]);
    await expect(updateProfile(deps, me, { displayName: "  Ada Lovelace ", organization: " Analytical Engines " })).resolves.toMatchObject({
      displayName: "Ada Lovelace",
      organization: "Analytical Engines",
    });
    await expect(updateProfile(deps, me, { displayName: "Ada", organization: "" })).resolves.not.toHaveProperty("organization");
    await expect(getAccount(deps, me)).resolves.toEqual({
      userId: me.userId,
      email: "ada@example.com",
      emailVerified: true,
      displayName: "Ada",
      createdAt: "2026-11-21T12:00:00.000Z",
    });
  });
});
