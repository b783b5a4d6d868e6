import { describe, expect, it } from "vitest";
import { confirmPasswordReset, requestPasswordReset, resendVerification, signIn, signUp, verifyEmail } from "../support/through-http";
import { DependencyError, RateLimitedError, hashSecret } from "../../src";
import {
  InvalidTokenError,
  accountExistsMail,
  randomAccountIds,
  verificationMail,
} from "../../src/accounts";
import { PASSWORD, accountWorld, client, links, tokenFrom } from "./account-fakes";

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
const HOUR = 3600 * 1000;

describe("no account enumeration", () => {
  it("answers a sign-up with a taken address exactly like a new one, mails the owner a notice, changes nothing", async () => {
    const { deps, users, mailer } = accountWorld();
    const first = await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    const before = structuredClone([...users.byId.values()]);
    const second = await signUp(deps, { email: "ada@example.com", password: "an attacker's password" }, client, links);
    expect(second).toEqual(first);
    expect([...users.byId.values()]).toEqual(before);
    const notice = mailer.sent.at(-1)!;
    expect(notice.subject).toBe("Someone tried to sign up to Hangar with your address");
    expect(notice.text).toContain("https://hangar.example/forgot-password");
    expect(notice.text).not.toContain("verify-email");
  });

  it("answers a reset for an unknown address like a known one, and sends nothing", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    const sent = mailer.sent.length;
    await expect(requestPasswordReset(deps, { email: "nobody@example.com" }, client, links)).resolves.toBeUndefined();
    expect(mailer.sent).toHaveLength(sent);
    await expect(requestPasswordReset(deps, { email: "ada@example.com" }, client, links)).resolves.toBeUndefined();
    expect(mailer.sent).toHaveLength(sent + 1);
  });

  it("resends verification only to unverified accounts, answering every address the same", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await expect(resendVerification(deps, { email: "nobody@example.com" }, client, links)).resolves.toBeUndefined();
    expect(mailer.sent).toHaveLength(1);
    await resendVerification(deps, { email: "ada@example.com" }, client, links);
    expect(mailer.sent).toHaveLength(2);
    await verifyEmail(deps, { token: tokenFrom(mailer.sent[1], "verify-email") });
    await resendVerification(deps, { email: "ada@example.com" }, client, links);
    expect(mailer.sent).toHaveLength(2);
  });
});

describe("mail limits", () => {
  it("limit sign-up, resend and reset mails per address (5 an hour) and per client", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    for (let i = 0; i < 2; i++) await resendVerification(deps, { email: "ada@example.com" }, { ip: `198.51.100.${i}` }, links);
    for (let i = 0; i < 2; i++) await requestPasswordReset(deps, { email: "ADA@example.com" }, { ip: `198.51.100.${10 + i}` }, links);
    const sent = mailer.sent.length;
    // Sixth request for the same inbox, from yet another address, whichever route: refused.
    for (const attempt of [
      () => resendVerification(deps, { email: "ada@example.com" }, { ip: "198.51.100.50" }, links),
      () => requestPasswordReset(deps, { email: "ada@example.com" }, { ip: "198.51.100.51" }, links),
      () => signUp(deps, { email: "ada@example.com", password: PASSWORD }, { ip: "198.51.100.52" }, links),
    ]) {
      expect(await failure(attempt())).toBeInstanceOf(RateLimitedError);
    }
    expect(mailer.sent).toHaveLength(sent);
  });

  it("limit mail requests per client address across inboxes (30 per window)", async () => {
    const { deps, mailer } = accountWorld();
    for (let i = 0; i < 30; i++) await requestPasswordReset(deps, { email: `u${i}@example.com` }, client, links);
    expect(await failure(requestPasswordReset(deps, { email: "u99@example.com" }, client, links))).toBeInstanceOf(RateLimitedError);
    expect(await failure(signUp(deps, { email: "u98@example.com", password: PASSWORD }, client, links))).toBeInstanceOf(RateLimitedError);
    expect(mailer.sent).toHaveLength(0);
  });
});

describe("verification and reset tokens", () => {
  it("are 32 random bytes in the link and only their SHA-256 in storage", async () => {
    const { deps, mailer, tokens } = accountWorld({ ids: randomAccountIds });
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    const token = tokenFrom(mailer.sent[0], "verify-email");
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect([...tokens.items.keys()]).toEqual([hashSecret(token)]);
    expect(JSON.stringify([...tokens.items.values()])).not.toContain(token);
  });

  it("verify once: a second use is refused", async () => {
    const { deps, mailer, users } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    const token = tokenFrom(mailer.sent[0], "verify-email");
    await expect(verifyEmail(deps, { token })).resolves.toEqual({ emailVerified: true });
    expect([...users.byId.values()][0]!.emailVerified).toBe(true);
    expect(await failure(verifyEmail(deps, { token }))).toBeInstanceOf(InvalidTokenError);
  });

  it("verification links last 24 hours", async () => {
    const { deps, mailer, clock } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await signUp(deps, { email: "bob@example.com", password: PASSWORD }, client, links);
    const start = clock.now().getTime();
    clock.set(new Date(start + 24 * HOUR - 1000).toISOString());
    await expect(verifyEmail(deps, { token: tokenFrom(mailer.sent[0], "verify-email") })).resolves.toEqual({ emailVerified: true });
    clock.set(new Date(start + 24 * HOUR).toISOString());
    expect(await failure(verifyEmail(deps, { token: tokenFrom(mailer.sent[1], "verify-email") }))).toBeInstanceOf(InvalidTokenError);
    expect(mailer.sent[0]!.text).toContain("expires in 24 hours");
  });

  it("reset links last 1 hour", async () => {
    const { deps, mailer, clock } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await requestPasswordReset(deps, { email: "ada@example.com" }, client, links);
    const token = tokenFrom(mailer.sent.at(-1), "reset-password");
    clock.set(new Date(clock.now().getTime() + HOUR).toISOString());
    expect(await failure(confirmPasswordReset(deps, { token, newPassword: "a brand new password" }))).toBeInstanceOf(InvalidTokenError);
    expect(mailer.sent.at(-1)!.text).toContain("expires in 60 minutes");
  });

  it("refuse tampered tokens and tokens of the other kind", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    const token = tokenFrom(mailer.sent[0], "verify-email");
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await failure(verifyEmail(deps, { token: tampered }))).toBeInstanceOf(InvalidTokenError);
    expect(await failure(confirmPasswordReset(deps, { token, newPassword: "a brand new password" }))).toBeInstanceOf(InvalidTokenError);
    await expect(verifyEmail(deps, { token })).resolves.toEqual({ emailVerified: true });
  });

  it("a reset sets the password, verifies the address, ends every session, and kills older reset links", async () => {
    const { deps, mailer, sessions, users, clock } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await verifyEmail(deps, { token: tokenFrom(mailer.sent[0], "verify-email") });
    await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    await signIn(deps, { email: "ada@example.com", password: PASSWORD }, client);
    expect(sessions.items.size).toBe(2);
    await requestPasswordReset(deps, { email: "ada@example.com" }, client, links);
    const older = tokenFrom(mailer.sent.at(-1), "reset-password");
    await requestPasswordReset(deps, { email: "ada@example.com" }, client, links);
    const newer = tokenFrom(mailer.sent.at(-1), "reset-password");

    clock.set(new Date(clock.now().getTime() + 1000).toISOString());
    await confirmPasswordReset(deps, { token: newer, newPassword: "a brand new password" });
    expect(sessions.items.size).toBe(0);
    expect(await failure(signIn(deps, { email: "ada@example.com", password: PASSWORD }, client))).toBeDefined();
    await expect(signIn(deps, { email: "ada@example.com", password: "a brand new password" }, client)).resolves.toBeDefined();
    expect(await failure(confirmPasswordReset(deps, { token: older, newPassword: "yet another password" }))).toBeInstanceOf(InvalidTokenError);
    expect([...users.byId.values()][0]!.emailVerified).toBe(true);
  });

  it("a refused new password does not burn the reset link", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    await requestPasswordReset(deps, { email: "ada@example.com" }, client, links);
    const token = tokenFrom(mailer.sent.at(-1), "reset-password");
    await expect(confirmPasswordReset(deps, { token, newPassword: "short" })).rejects.toThrow(/at least 12/);
    await expect(confirmPasswordReset(deps, { token, newPassword: "qwerty123456" })).rejects.toThrow(/too common/);
    await expect(confirmPasswordReset(deps, { token, newPassword: "a brand new password" })).resolves.toBeUndefined();
  });
});

describe("mail", () => {
  it("has a text and an HTML part with links built from the public URL", async () => {
    const { deps, mailer } = accountWorld();
    await signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links);
    const mail = mailer.sent[0]!;
    const token = tokenFrom(mail, "verify-email");
    expect(mail.text).toContain(`https://hangar.example/verify-email?token=${token}`);
    expect(mail.html).toContain(`href="https://hangar.example/verify-email?token=${token}"`);
    expect(mail.html).toMatch(/^<!doctype html>/);
  });

  it("escapes every value that came from outside", () => {
    const evil = "o'brien&<b>co</b>@example.com";
    for (const mail of [verificationMail(evil, "https://h.example/verify-email?token=x&y=\"z\"", 24), accountExistsMail(evil, { signIn: "https://h.example/login", forgotPassword: "https://h.example/forgot-password" })]) {
      expect(mail.html).not.toContain("<b>");
      expect(mail.html).not.toContain("o'brien");
      expect(mail.html).toContain("o&#39;brien&amp;&lt;b&gt;co&lt;/b&gt;@example.com");
      expect(mail.html).not.toContain('"z"');
      expect(mail.text).toContain(evil);
    }
  });

  it("that cannot be sent does not lose the account, fails the background step (to be retried), and resend works", async () => {
    const { deps, mailer, users, background } = accountWorld();
    mailer.failing = true;
    // The answer cannot depend on the mail: it is sent after it, for every address alike.
    await expect(signUp(deps, { email: "ada@example.com", password: PASSWORD }, client, links)).resolves.toBeUndefined();
    expect(users.byEmail.has("ada@example.com")).toBe(true);
    await expect(resendVerification(deps, { email: "ada@example.com" }, client, links)).resolves.toBeUndefined();
    expect(background.failures).toHaveLength(2);
    for (const error of background.failures) expect(error).toBeInstanceOf(DependencyError);
    mailer.failing = false;
    await resendVerification(deps, { email: "ada@example.com" }, client, links);
    expect(background.failures).toHaveLength(2);
    await expect(verifyEmail(deps, { token: tokenFrom(mailer.sent.at(-1), "verify-email") })).resolves.toEqual({ emailVerified: true });
  });
});
