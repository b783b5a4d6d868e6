import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PASSWORD, browser, dash, linkToken, mailsTo, signedIn, uniqueEmail, verifiedAccount } from "./support/accounts";
import { db, newKey, stack } from "./support/api";

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("accounts: the whole journey", () => {
  it("sign-up → mail → verify → profile → sign in → sign out → reset → sign in with the new password", async () => {
    const b = browser();
    const email = uniqueEmail("journey");
    const signUp = await dash(b, "POST", "/api/account/sign-up", { email: ` ${email.toUpperCase()} `, password: PASSWORD });
    expect(signUp.status).toBe(202);
    expect(signUp.json.message).toMatch(/^Check your inbox/);

    // The mail (sent after the answer): text and HTML, the link to the dashboard page built from the public URL.
    const [mail] = await mailsTo(email, 1);
    expect(mail!.subject).toBe("Confirm your e-mail address for Hangar");
    const token = await linkToken(email, "verify-email");
    expect(mail!.html).toContain(`href="${stack().baseUrl}/verify-email?token=${token}"`);

    // Before verification the right password gets 403 email_not_verified.
    const early = await dash(b, "POST", "/api/session", { email, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(early.json.error.code).toBe("email_not_verified");

    // Nothing a GET can do (a mail scanner prefetching the link) consumes the token; the POST does.
    expect((await dash(b, "GET", `/api/account/verify-email?token=${token}`)).status).toBe(405);
    expect((await dash(b, "POST", "/api/account/verify-email", { token })).json).toMatchObject({ emailVerified: true });

    const login = await dash(b, "POST", "/api/session", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.json.account).toMatchObject({ email, emailVerified: true });
    expect(login.json.account).not.toHaveProperty("passwordHash");
    expect(b.cookie).toMatch(/^hangar_session=usr_\w+\.ses_\w+\.[\w-]{43}$/);

    const profile = await dash(b, "PUT", "/api/account/profile", { displayName: "Ada <Lovelace>", organization: "Engines & Co" });
    expect(profile.status).toBe(200);
    expect(profile.json).toMatchObject({ email, displayName: "Ada <Lovelace>", organization: "Engines & Co", emailVerified: true });
    const me = await dash(b, "GET", "/api/account");
    expect(me.status).toBe(200);
    expect(Object.keys(me.json).sort()).toEqual(["createdAt", "displayName", "email", "emailVerified", "organization", "userId"]);

    const out = await dash(b, "DELETE", "/api/session");
    expect(out.status).toBe(204);
    expect(b.cookie).toBeUndefined();
    expect((await dash(b, "GET", "/api/account")).status).toBe(401);

    // Reset: mail, new password, every session gone, old password refused.
    const other = browser();
    await dash(other, "POST", "/api/session", { email, password: PASSWORD });
    expect((await dash(b, "POST", "/api/account/password-reset", { email })).status).toBe(202);
    const resetToken = await linkToken(email, "reset-password");
    const confirm = await dash(b, "POST", "/api/account/password-reset/confirm", { token: resetToken, newPassword: "a whole new passphrase" });
    expect(confirm.status).toBe(204);
    expect((await dash(other, "GET", "/api/account")).json.error.code).toBe("not_signed_in");
    expect((await dash(b, "POST", "/api/session", { email, password: PASSWORD })).status).toBe(401);
    expect((await dash(b, "POST", "/api/session", { email, password: "a whole new passphrase" })).status).toBe(200);
  });

  it("stores the password only as a scrypt string with OWASP's parameters, and tokens only hashed", async () => {
    const b = browser();
    const email = uniqueEmail("storage");
    await dash(b, "POST", "/api/account/sign-up", { email, password: PASSWORD });
    const token = await linkToken(email, "verify-email");
    const link = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
    const user = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `USER#${link.Item!.userId}`, sk: "USER" } }));
    expect(user.Item!.passwordHash).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/);
    expect(JSON.stringify(user.Item)).not.toContain(PASSWORD);
    const stored = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `TOKEN#${sha256(token)}`, sk: "TOKEN" } }));
    expect(stored.Item).toMatchObject({ purpose: "verify_email", userId: link.Item!.userId });
    expect(JSON.stringify(stored.Item)).not.toContain(token);
    // 24 hours, and DynamoDB's TTL set to the same moment.
    const created = Date.parse(stored.Item!.createdAt) / 1000;
    expect(stored.Item!.expiresAt - created).toBeGreaterThanOrEqual(24 * 3600 - 1);
    expect(stored.Item!.expiresAt - created).toBeLessThanOrEqual(24 * 3600);
    expect(stored.Item!.ttl).toBe(stored.Item!.expiresAt);
  });
});

describe("tokens", () => {
  it("work once: reuse of a verification or reset link is refused", async () => {
    const b = browser();
    const email = uniqueEmail("reuse");
    await dash(b, "POST", "/api/account/sign-up", { email, password: PASSWORD });
    const token = await linkToken(email, "verify-email");
    expect((await dash(b, "POST", "/api/account/verify-email", { token })).status).toBe(200);
    const again = await dash(b, "POST", "/api/account/verify-email", { token });
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe("invalid_token");

    await dash(b, "POST", "/api/account/password-reset", { email });
    const reset = await linkToken(email, "reset-password");
    expect((await dash(b, "POST", "/api/account/password-reset/confirm", { token: reset, newPassword: "first new passphrase" })).status).toBe(204);
    const twice = await dash(b, "POST", "/api/account/password-reset/confirm", { token: reset, newPassword: "second new passphrase" });
    expect(twice.json.error.code).toBe("invalid_token");
  });

  it("are consumed by a conditional write: of concurrent uses of one link exactly one wins", async () => {
    const b = browser();
    const email = uniqueEmail("race");
    await dash(b, "POST", "/api/account/sign-up", { email, password: PASSWORD });
    const token = await linkToken(email, "verify-email");
    const replies = await Promise.all(Array.from({ length: 6 }, () => dash(browser(), "POST", "/api/account/verify-email", { token })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  it("that expired are refused even before DynamoDB's TTL removes them (reset: 1 hour)", async () => {
    const b = browser();
    const email = await verifiedAccount(b);
    await dash(b, "POST", "/api/account/password-reset", { email });
    const token = await linkToken(email, "reset-password");
    const key = { pk: `TOKEN#${sha256(token)}`, sk: "TOKEN" };
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: key }));
    expect(Item!.expiresAt - Date.parse(Item!.createdAt) / 1000).toBeCloseTo(3600, -1);
    // Move the token's clock: it expired a second ago.
    await db().send(
      new UpdateCommand({ TableName: stack().tableName, Key: key, UpdateExpression: "SET expiresAt = :past", ExpressionAttributeValues: { ":past": Math.floor(Date.now() / 1000) - 1 } }),
    );
    const reply = await dash(b, "POST", "/api/account/password-reset/confirm", { token, newPassword: "too late passphrase" });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("invalid_token");
  });

  it("that were tampered with or malformed are refused with the same answer", async () => {
    const b = browser();
    const email = uniqueEmail("tamper");
    await dash(b, "POST", "/api/account/sign-up", { email, password: PASSWORD });
    const token = await linkToken(email, "verify-email");
    const flipped = `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`;
    const tampered = await dash(b, "POST", "/api/account/verify-email", { token: flipped });
    expect(tampered.status).toBe(400);
    expect(tampered.json.error.code).toBe("invalid_token");
    const malformed = await dash(b, "POST", "/api/account/verify-email", { token: `${token}'; --` });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe("invalid_request");
    expect((await dash(b, "POST", "/api/account/verify-email", { token })).status).toBe(200);
  });
});

describe("sessions", () => {
  it("set an HttpOnly, SameSite=Lax cookie for the whole site, without Secure on plain http", async () => {
    const b = browser();
    const email = await verifiedAccount(b);
    const reply = await dash(b, "POST", "/api/session", { email, password: PASSWORD });
    const [cookie] = reply.headers.getSetCookie();
    expect(cookie).toMatch(/^hangar_session=[\w.-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie!)![1])).toBeGreaterThan(30 * 24 * 3600 - 60);
    expect(Number(/Max-Age=(\d+)/.exec(cookie!)![1])).toBeLessThanOrEqual(30 * 24 * 3600);
  });

  it("are listed, ended one by one or everywhere else, and another account's session is a 404", async () => {
    const { b, email } = await signedIn();
    const phone = browser();
    await dash(phone, "POST", "/api/session", { email, password: PASSWORD }, { "User-Agent": "Phone/1.0" });
    const tablet = browser();
    await dash(tablet, "POST", "/api/session", { email, password: PASSWORD });

    const list = await dash(b, "GET", "/api/account/sessions");
    expect(list.status).toBe(200);
    expect(list.json.items).toHaveLength(3);
    expect(list.json.items.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const phoneSession = list.json.items.find((s: { userAgent?: string }) => s.userAgent === "Phone/1.0");
    expect(phoneSession).toMatchObject({ ip: phone.ip, current: false });

    const stranger = await signedIn();
    const notYours = await dash(stranger.b, "DELETE", `/api/account/sessions/${phoneSession.sessionId}`);
    expect(notYours.status).toBe(404);
    expect(notYours.json.error.code).toBe("session_not_found");

    expect((await dash(b, "DELETE", `/api/account/sessions/${phoneSession.sessionId}`)).status).toBe(204);
    expect((await dash(phone, "GET", "/api/account")).status).toBe(401);
    expect((await dash(b, "DELETE", "/api/account/sessions")).status).toBe(204);
    expect((await dash(tablet, "GET", "/api/account")).status).toBe(401);
    expect((await dash(b, "GET", "/api/account")).status).toBe(200);
  });

  it("past their idle expiry are refused and the cookie is cleared", async () => {
    const { b } = await signedIn();
    const [, userId, sessionId] = /^hangar_session=(usr_\w+)\.(ses_\w+)\./.exec(b.cookie!)!;
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `USER#${userId}`, sk: `SESSION#${sessionId}` },
        UpdateExpression: "SET idleExpiresAt = :past",
        ExpressionAttributeValues: { ":past": Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const reply = await dash(b, "GET", "/api/account");
    expect(reply.status).toBe(401);
    expect(reply.json.error.code).toBe("not_signed_in");
    expect(reply.headers.getSetCookie()[0]).toMatch(/^hangar_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
  });

  it("store only the secret's hash, with a TTL", async () => {
    const { b } = await signedIn();
    const [, userId, sessionId, secret] = /^hangar_session=(usr_\w+)\.(ses_\w+)\.([\w-]+)$/.exec(b.cookie!)!;
    const { Items } = await db().send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :s)",
        ExpressionAttributeValues: { ":pk": `USER#${userId}`, ":s": "SESSION#" },
      }),
    );
    expect(Items).toHaveLength(1);
    expect(Items![0]).toMatchObject({ sessionId, secretHash: sha256(secret!) });
    expect(JSON.stringify(Items)).not.toContain(secret);
    expect(Items![0]!.ttl).toBe(Math.min(Items![0]!.idleExpiresAt, Items![0]!.absoluteExpiresAt));
  });

  it("change of password ends every other session and needs the current password", async () => {
    const { b, email } = await signedIn();
    const other = browser();
    await dash(other, "POST", "/api/session", { email, password: PASSWORD });
    const wrong = await dash(b, "POST", "/api/account/password", { currentPassword: "not it at all", newPassword: "a fresh passphrase" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.fields).toEqual([{ field: "currentPassword", message: "is not your current password" }]);
    expect((await dash(b, "POST", "/api/account/password", { currentPassword: PASSWORD, newPassword: "a fresh passphrase" })).status).toBe(204);
    expect((await dash(other, "GET", "/api/account")).status).toBe(401);
    expect((await dash(b, "GET", "/api/account")).status).toBe(200);
  });
});

describe("key:create", () => {
  it("makes a verified owner, who can sign in to the dashboard after a password reset", async () => {
    const project = `keyowner-${Date.now()}`;
    await newKey(project);
    const email = `it-${project}@hangar.test`;
    const link = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `EMAIL#${email}`, sk: "EMAIL" } }));
    const user = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `USER#${link.Item!.userId}`, sk: "USER" } }));
    expect(user.Item).toMatchObject({ email, emailVerified: true });
    expect(user.Item!.passwordHash).toBeUndefined();
    const b = browser();
    // No password yet: refused like any wrong password.
    expect((await dash(b, "POST", "/api/session", { email, password: PASSWORD })).status).toBe(401);
    expect((await dash(b, "POST", "/api/account/password-reset", { email })).status).toBe(202);
    const token = await linkToken(email, "reset-password");
    expect((await dash(b, "POST", "/api/account/password-reset/confirm", { token, newPassword: PASSWORD })).status).toBe(204);
    const login = await dash(b, "POST", "/api/session", { email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.json.account).toMatchObject({ email, emailVerified: true });
  });
});
