import { describe, expect, it } from "vitest";
import { confirmPasswordReset, requestPasswordReset, signIn, signUp, verifyEmail } from "../support/through-http";
import { RateLimitedError } from "../../src";
import {
  EmailNotVerifiedError,
  LoginFailedError,
  ScryptPasswordHasher,
  type AccountDeps,
} from "../../src/accounts";
import { PASSWORD, accountWorld, client, links, tokenFrom } from "./account-fakes";

async function verifiedUser(deps: AccountDeps, mailer: { sent: { text: string }[] }, email = "ada@example.com", password = PASSWORD) {
  await signUp(deps, { email, password }, client, links);
  await verifyEmail(deps, { token: tokenFrom(mailer.sent.at(-1) as never, "verify-email") });
}

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe("sign-in", () => {
  it("starts a session for the right password and shows the account", async () => {
    const { deps, mailer, sessions } = accountWorld();
    await verifiedUser(deps, mailer);
    const result = await signIn(deps, { email: " ADA@example.com", password: PASSWORD }, client);
    expect(result.account).toMatchObject({ email: "ada@example.com", emailVerified: true });
    expect(result.account).not.toHaveProperty("passwordHash");
    expect(sessions.items.size).toBe(1);
  });

  it("answers an unknown address exactly like a wrong password, after the same hash work", async () => {
    const { deps, mailer, hasher } = accountWorld();
    await verifiedUser(deps, mailer);
    hasher.verifies = [];
    const wrong = await failure(signIn(deps, { email: "ada@example.com", password: "wrong password here" }, client));
    const unknown = await failure(signIn(deps, { email: "nobody@example.com", password: "wrong password here" }, client));
    expect(wrong).toBeInstanceOf(LoginFailedError);
    expect(unknown).toBeInstanceOf(LoginFailedError);
    expect((unknown as Error).message).toBe((wrong as Error).message);
    // Both ran the password hash: the unknown address against a dummy (no stored hash).
    expect(hasher.verifies).toEqual([expect.stringMatching(/^fake:/), undefined]);
  });

  it("tells an unverified account so only after the right password", async () => {
    const { deps } = accountWorld();
    await signUp(deps, { email: "new@example.com", password: PASSWORD }, client, links);
    expect(await failure(signIn(deps, { email: "new@example.com", password: "not the password" }, client))).toBeInstanceOf(LoginFailedError);
    expect(await failure(signIn(deps, { email: "new@example.com", password: PASSWORD }, client))).toBeInstanceOf(EmailNotVerifiedError);
  });

  it("refuses accounts without a password (made by key:create) like a wrong password", async () => {
    const { deps, users } = accountWorld();
    await users.create({ userId: "usr_key", email: "ci@example.com", emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z" });
    expect(await failure(signIn(deps, { email: "ci@example.com", password: PASSWORD }, client))).toBeInstanceOf(LoginFailedError);
  });

  it("gives a new session id at every sign-in", async () => {
    const { deps, mailer } = accountWorld();
    await verifiedUser(deps, mailer);
    const a = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    const b = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    expect(a.session.sessionId).not.toBe(b.session.sessionId);
    expect(a.sessionToken).not.toBe(b.sessionToken);
  });

  it("rehashes a password stored with weaker parameters", async () => {
    const { deps, mailer, users, hasher } = accountWorld();
    await verifiedUser(deps, mailer);
    const user = [...users.byId.values()][0]!;
    user.passwordHash = `fake:v1:${PASSWORD}`;
    await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    expect(users.byId.get(user.userId)!.passwordHash).toBe(`fake:v${hasher.version}:${PASSWORD}`);
  });

  it("rehashes real scrypt hashes when the parameters rose", async () => {
    const weak = new ScryptPasswordHasher({ logN: 10, r: 8, p: 1 });
    const strong = new ScryptPasswordHasher({ logN: 11, r: 8, p: 1 });
    const { deps, users } = accountWorld({ hasher: strong });
    await users.create({ userId: "usr_old", email: "old@example.com", emailVerified: true, createdAt: "2026-01-01T00:00:00.000Z", passwordHash: await weak.hash(PASSWORD) });
    await signIn(deps, { email: "old@example.com", password: PASSWORD }, client);
    const stored = users.byId.get("usr_old")!.passwordHash!;
    expect(ScryptPasswordHasher.parametersOf(stored)).toEqual({ logN: 11, r: 8, p: 1 });
    expect((await strong.verify(PASSWORD, stored)).valid).toBe(true);
  });
});

describe("brute force", () => {
  const ATTACKER = { ip: "198.51.100.66" };

  it("holds one client after 10 failures on an account (429 with the wait, without hashing); another client is served", async () => {
    const { deps, mailer, hasher } = accountWorld();
    await verifiedUser(deps, mailer);
    for (let i = 0; i < 10; i++) {
      expect(await failure(signIn(deps, { email: "ada@example.com", password: `wrong password ${i}` }, ATTACKER))).toBeInstanceOf(LoginFailedError);
    }
    hasher.verifies = [];
    const locked = await failure(signIn(deps, { email: "ada@example.com", password: PASSWORD }, ATTACKER));
    expect(locked).toBeInstanceOf(RateLimitedError);
    expect((locked as RateLimitedError).code).toBe("rate_limited");
    expect((locked as RateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect(hasher.verifies).toEqual([]);
    await expect(signIn(deps, { email: "ada@example.com", password: PASSWORD }, { ip: "203.0.113.50" })).resolves.toMatchObject({ account: { email: "ada@example.com" } });
  });

  it("past the account-wide ceiling holds browsers without the device cookie, never one with it; a reset clears the ceiling", async () => {
    const { deps, mailer } = accountWorld();
    await verifiedUser(deps, mailer);
    const { deviceToken } = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    expect(deviceToken).toMatch(/^usr_\w+\.[\w-]{22}\.\d+\.[\w-]{43}$/);
    // Guesses spread over many addresses: no client is over its own limit, the account's ceiling fills.
    for (let i = 0; i < 20; i++) await failure(signIn(deps, { email: "ada@example.com", password: `guess ${i}` }, { ip: `198.51.100.${i}` }));
    expect(await failure(signIn(deps, { email: "ada@example.com", password: PASSWORD }, { ip: "203.0.113.60" }))).toBeInstanceOf(RateLimitedError);
    // The owner's browser signed in before: its cookie keeps it out of the ceiling.
    const owner = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client, deviceToken);
    expect(owner.deviceToken!.split(".")[1]).toBe(deviceToken!.split(".")[1]);
    // A forged or another account's cookie is no cookie.
    const forged = deviceToken!.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect(await failure(signIn(deps, { email: "ada@example.com", password: PASSWORD }, client, forged))).toBeInstanceOf(RateLimitedError);

    await requestPasswordReset(deps, { email: "ada@example.com" }, client, links);
    await confirmPasswordReset(deps, { token: tokenFrom(mailer.sent.at(-1) as never, "reset-password"), newPassword: "a brand new passphrase" }, client);
    await expect(signIn(deps, { email: "ada@example.com", password: "a brand new passphrase" }, { ip: "203.0.113.61" })).resolves.toBeDefined();
  });

  it("holds a device cookie by its own failure limit", async () => {
    const { deps, mailer } = accountWorld();
    await verifiedUser(deps, mailer);
    const { deviceToken } = await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    for (let i = 0; i < 10; i++) await failure(signIn(deps, { email: "ada@example.com", password: `typo ${i}` }, client, deviceToken));
    expect(await failure(signIn(deps, { email: "ada@example.com", password: PASSWORD }, client, deviceToken))).toBeInstanceOf(RateLimitedError);
  });

  it("counts only failures: successful sign-ins give their attempts back", async () => {
    const { deps, mailer, limiters } = accountWorld();
    await verifiedUser(deps, mailer);
    for (let i = 0; i < 25; i++) await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    expect([...limiters.signInCeiling.counts.values()]).toEqual([0]);
    expect([...limiters.signInFailures.counts.values()]).toEqual([0]);
  });

  it("limits sign-in attempts per client address across accounts", async () => {
    const { deps, limiters } = accountWorld();
    limiters.signIn.counts.set("203.0.113.7", 100);
    expect(await failure(signIn(deps, { email: "anyone@example.com", password: PASSWORD }, client))).toBeInstanceOf(RateLimitedError);
    expect(await failure(signIn(deps, { email: "anyone@example.com", password: PASSWORD }, { ip: "203.0.113.8" }))).toBeInstanceOf(LoginFailedError);
  });
});
