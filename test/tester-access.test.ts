import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { browser, dash, mailsTo, signedIn, uniqueEmail, type Browser } from "./support/accounts";
import { call, db, stack, type Reply } from "./support/api";
import { expireLink, newDashboardKey, newProject, uploadIpa } from "./support/dashboard";

/*
 * Tester access (issue 20 item 2, the server side of items 5 and 6; docs/testers.md "Tester sign-in
 * and the portal API") on the local stack: real mail through MailDev, real DynamoDB Local. What the
 * distribute work writes when a build is sent (the recipient and install-link items of the
 * contract) is written here directly into the table after a real upload, so these tests depend on
 * the portal's reads only. Expiry is a token item written with `expiresAt` in the past (the stack
 * has no clock setting). No enumeration is equal by construction (the request counts its limits and
 * schedules the lookup and the mail after the answer, whatever the address); the tests check what
 * a caller can see: the same status and body, and the mail only for the known address.
 */

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const table = () => stack().tableName;
const TOKEN = "[A-Za-z0-9_-]{43}";
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const signInLink = () => new RegExp(`${escaped(stack().baseUrl)}/tester/sign-in\\?token=(${TOKEN})`);

/** The tokens of the tester sign-in links mailed to `address`, once at least `count` arrived. */
async function magicTokens(address: string, count = 1): Promise<string[]> {
  for (let waited = 0; ; waited += 100) {
    const tokens = (await mailsTo(address)).map((m) => signInLink().exec(m.text)?.[1]).filter((t): t is string => t !== undefined);
    if (tokens.length >= count || waited >= 20_000) {
      expect(tokens.length, `sign-in links mailed to ${address}`).toBeGreaterThanOrEqual(count);
      return tokens;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What the distribute work writes when it sends `fileId` to `email`: the recipient item and the install-link item. */
async function sendBuild(fileId: string, email: string, createdAt = new Date().toISOString(), message?: string): Promise<void> {
  const { Item: file } = await db().send(new GetCommand({ TableName: table(), Key: { pk: `FILE#${fileId}`, sk: "FILE" } }));
  const distributionId = `dst_${randomBytes(8).toString("hex")}`;
  const base = { fileId, projectId: file!.projectId, workspaceId: file!.workspaceId };
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        pk: `FILE#${fileId}`,
        sk: `RECIPIENT#${email}`,
        type: "recipient",
        email,
        ...base,
        distributionId,
        createdAt,
        status: "sent",
        sentAt: createdAt,
        gsi1pk: `TESTER#${email}`,
        gsi1sk: `BUILD#${createdAt}#${fileId}`,
      },
    }),
  );
  await db().send(
    new PutCommand({
      TableName: table(),
      Item: {
        pk: `FILE#${fileId}`,
        sk: `DISTRIBUTION#${distributionId}`,
        type: "distribution",
        distributionId,
        ...base,
        groupIds: [],
        testers: [email],
        message: message ?? null,
        notify: true,
        recipients: 1,
        createdAt,
        createdBy: { clientId: "test" },
      },
    }),
  );
}

/** A tester's browser, signed in through the magic link mailed to `email`. */
async function testerSignedIn(email: string): Promise<Browser> {
  const b = browser();
  const before = (await magicTokens(email, 0)).length;
  const asked = await dash(b, "POST", "/api/tester/sign-in", { email });
  expect(asked.status, asked.text).toBe(202);
  const token = (await magicTokens(email, before + 1)).at(-1)!;
  const session = await dash(b, "POST", "/api/tester/session", { token });
  expect(session.status, session.text).toBe(200);
  return b;
}

const installUrl = () => new RegExp(`^${escaped(stack().baseUrl)}/install/${TOKEN}$`);

let owner: Browser;
let projectId: string;
let otherProjectId: string;
let fileA: string;
let fileOther: string;
const testerA = uniqueEmail("tester-a");
const testerB = uniqueEmail("tester-b");
// Sessions are signed in as their own testers: each address may ask for five links an hour.
const testerS = uniqueEmail("tester-s");
const testerT = uniqueEmail("tester-t");

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  projectId = (await newProject(owner, `Tester app ${randomBytes(3).toString("hex")}`)).projectId;
  otherProjectId = (await newProject(owner, `Other app ${randomBytes(3).toString("hex")}`)).projectId;
  const key = await newDashboardKey(owner, projectId);
  const otherKey = await newDashboardKey(owner, otherProjectId);
  fileA = (await uploadIpa(key, "A.ipa", { releaseNotes: "Fixes the <b>login</b> crash" })).fileId;
  fileOther = (await uploadIpa(otherKey, "Other.ipa")).fileId;
  await sendBuild(fileA, testerA, new Date().toISOString(), "Please test the login");
  await sendBuild(fileOther, testerB);
  await sendBuild(fileA, testerS);
  await sendBuild(fileA, testerT);
});

describe("magic-link sign-in", () => {
  it("answers the same for a known and an unknown address, and mails only the known one", async () => {
    const unknown = uniqueEmail("nobody");
    const b = browser();
    const first = await dash(b, "POST", "/api/tester/sign-in", { email: unknown });
    const second = await dash(b, "POST", "/api/tester/sign-in", { email: testerA });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(first.text).toBe(second.text);
    expect(first.json).toEqual({ status: "sent" });
    expect(first.headers.get("set-cookie")).toBeNull();

    const [mail] = await mailsTo(testerA, 1);
    expect(mail!.subject).toMatch(/sign-in link/i);
    expect(mail!.text).toMatch(signInLink());
    expect(mail!.text).toContain("15 minutes");
    expect(mail!.text).toContain("test builds were sent to this address");
    expect(mail!.html).toContain("Sign in to the tester portal");
    // The unknown address's background step ran before the known one's (same process, scheduled first).
    expect(await mailsTo(unknown)).toEqual([]);
  });

  it("an address in the request is normalized: upper case and spaces reach the same tester", async () => {
    const before = (await magicTokens(testerA, 0)).length;
    const asked = await dash(browser(), "POST", "/api/tester/sign-in", { email: `  ${testerA.toUpperCase()} ` });
    expect(asked.status, asked.text).toBe(202);
    await magicTokens(testerA, before + 1);
  });

  it("a link signs in once; a second use, an expired token and an unknown token are 400 invalid_token", async () => {
    const b = browser();
    const before = (await magicTokens(testerA, 0)).length;
    await dash(b, "POST", "/api/tester/sign-in", { email: testerA });
    const token = (await magicTokens(testerA, before + 1)).at(-1)!;

    const session = await dash(b, "POST", "/api/tester/session", { token });
    expect(session.status, session.text).toBe(200);
    expect(session.json.email).toBe(testerA);
    expect(session.json.joined).toBeNull();
    expect(Date.parse(session.json.expiresAt) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const cookie = session.headers.getSetCookie().find((c) => c.startsWith("hangar_tester="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=2592000/);
    // The session item is keyed by the SHA-256 of the cookie's token, never the token itself.
    const secret = cookie.split(";")[0]!.split(".").pop()!;
    const { Item } = await db().send(new GetCommand({ TableName: table(), Key: { pk: `TESTER#${testerA}`, sk: `SESSION#${sha256(secret)}` } }));
    expect(Item).toMatchObject({ type: "testerSession", email: testerA });
    expect(JSON.stringify(Item)).not.toContain(secret);

    const again = await dash(browser(), "POST", "/api/tester/session", { token });
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe("invalid_token");

    const expired = randomBytes(32).toString("base64url");
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: `TOKEN#${sha256(expired)}`, sk: "TOKEN", type: "token", tokenHash: sha256(expired), purpose: "tester_sign_in", email: testerA, createdAt: new Date(Date.now() - 16 * 60_000).toISOString(), expiresAt: Math.floor(Date.now() / 1000) - 60 },
      }),
    );
    const late = await dash(browser(), "POST", "/api/tester/session", { token: expired });
    expect(late.status).toBe(400);
    expect(late.json.error.code).toBe("invalid_token");

    const unknown = await dash(browser(), "POST", "/api/tester/session", { token: randomBytes(32).toString("base64url") });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe("invalid_token");
  });

  it("an account's tokens (reset, verification) never open a tester session", async () => {
    const token = randomBytes(32).toString("base64url");
    await db().send(
      new PutCommand({
        TableName: table(),
        Item: { pk: `TOKEN#${sha256(token)}`, sk: "TOKEN", type: "token", tokenHash: sha256(token), purpose: "reset_password", userId: "usr_x", createdAt: new Date().toISOString(), expiresAt: Math.floor(Date.now() / 1000) + 600 },
      }),
    );
    const reply = await dash(browser(), "POST", "/api/tester/session", { token });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("invalid_token");
    await db().send(new DeleteCommand({ TableName: table(), Key: { pk: `TOKEN#${sha256(token)}`, sk: "TOKEN" } }));
  });

  it("counts requests per address: the sixth magic link within the hour is 429", async () => {
    const email = uniqueEmail("flood");
    const replies: Reply[] = [];
    for (let i = 0; i < 6; i++) replies.push(await dash(browser(), "POST", "/api/tester/sign-in", { email }));
    expect(replies.slice(0, 5).map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    expect(replies[5]!.status).toBe(429);
    expect(Number(replies[5]!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses a cross-site sign-in request (the same-origin guard of the dashboard's routes)", async () => {
    const reply = await call("/api/tester/sign-in", {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/json", "X-Hangar-Test-Client-Ip": browser().ip },
      body: { email: testerA },
    });
    expect(reply.status).toBe(403);
  });
});

describe("tester session", () => {
  it("opens the tester's session and apps; sign-out ends it for good", async () => {
    const b = await testerSignedIn(testerS);
    const kept = b.cookie;
    const me = await dash(b, "GET", "/api/tester/session");
    expect(me.status, me.text).toBe(200);
    expect(me.json.email).toBe(testerS);
    expect((await dash(b, "GET", "/api/tester/apps")).status).toBe(200);

    const out = await dash(b, "DELETE", "/api/tester/session");
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/hangar_tester=;.*Max-Age=0/);
    expect(b.cookie).toBeUndefined();

    // The old cookie, replayed, names no session any more (and is cleared as it is refused).
    const replay = await dash({ ...browser(), cookie: kept! }, "GET", "/api/tester/apps");
    expect(replay.status).toBe(401);
    expect(replay.json.error.code).toBe("not_signed_in");
    expect(replay.headers.getSetCookie().join()).toMatch(/hangar_tester=;/);
    // Signing out without a session still answers 204.
    expect((await dash(browser(), "DELETE", "/api/tester/session")).status).toBe(204);
  });

  it("a tester session opens no dashboard route, and a dashboard session no tester route", async () => {
    const tester = await testerSignedIn(testerT);
    for (const path of ["/api/projects", "/api/account", "/api/workspaces", `/api/projects/${projectId}`]) {
      const reply = await dash(tester, "GET", path);
      expect(reply.status, path).toBe(401);
    }
    for (const path of ["/api/tester/session", "/api/tester/apps", `/api/tester/apps/${projectId}`]) {
      const reply = await dash(owner, "GET", path);
      expect(reply.status, path).toBe(401);
      expect(reply.json.error.code).toBe("not_signed_in");
    }
    // Both cookies at once: each route reads its own.
    const both: Browser = { ip: tester.ip, cookie: `${tester.cookie}; ${owner.cookie}` };
    expect((await dash(both, "GET", "/api/tester/session")).json.email).toBe(testerT);
    expect((await dash(both, "GET", "/api/account")).status).toBe(200);
  });

  it("forged, malformed and foreign cookies are 401 not_signed_in, never 5xx", async () => {
    const forged = `${Buffer.from(testerA).toString("base64url")}.${randomBytes(32).toString("base64url")}`;
    for (const value of [forged, "x", "a.b", `${"A".repeat(5000)}.x`, "%00", `${Buffer.from("no-at-sign").toString("base64url")}.${randomBytes(32).toString("base64url")}`]) {
      const reply = await dash({ ...browser(), cookie: `hangar_tester=${value}` }, "GET", "/api/tester/apps");
      expect(reply.status, value.slice(0, 20)).toBe(401);
    }
  });
});

describe("the portal's API", () => {
  it("lists only builds sent to this tester, with their personal install link", async () => {
    const a = await testerSignedIn(testerA);
    const apps = await dash(a, "GET", "/api/tester/apps");
    expect(apps.status, apps.text).toBe(200);
    expect(apps.json.items).toHaveLength(1);
    const [app] = apps.json.items;
    expect(app.projectId).toBe(projectId);
    expect(app.workspaceName).toEqual(expect.any(String));
    expect(app.latest.android).toBeNull();
    const build = app.latest.ios;
    expect(build).toMatchObject({ fileId: fileA, platform: "ios", releaseNotes: "Fixes the <b>login</b> crash", message: "Please test the login" });
    expect(build.installUrl).toMatch(installUrl());
    expect(typeof build.installable).toBe("boolean");
    expect(build.iconUrl === null || typeof build.iconUrl === "string").toBe(true);
    // The install link is the one the contract's installLink item names: sha256(token) → this build and tester.
    const token = build.installUrl.split("/").pop();
    expect(token).toMatch(new RegExp(`^${TOKEN}$`));

    const detail = await dash(a, "GET", `/api/tester/apps/${projectId}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.json.builds.map((b: { fileId: string }) => b.fileId)).toEqual([fileA]);
    expect(detail.json.builds[0].installUrl).toBe(build.installUrl);

    // Another project's build was sent to tester B only: 404 for A, listed for B.
    const other = await dash(a, "GET", `/api/tester/apps/${otherProjectId}`);
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe("app_not_found");
    expect((await dash(a, "GET", "/api/tester/apps/not%20an%20id")).status).toBe(404);

    const b = await testerSignedIn(testerB);
    const bApps = await dash(b, "GET", "/api/tester/apps");
    expect(bApps.json.items.map((i: { projectId: string }) => i.projectId)).toEqual([otherProjectId]);
    expect(bApps.json.items[0].latest.ios.installUrl).not.toBe(build.installUrl);
  });

  it("newest build first; a deleted build and one whose link expired are left out", async () => {
    const email = uniqueEmail("tester-c");
    const key = await newDashboardKey(owner, projectId, "CI 2");
    const older = (await uploadIpa(key, "Old.ipa")).fileId;
    const newer = (await uploadIpa(key, "New.ipa")).fileId;
    const gone = (await uploadIpa(key, "Gone.ipa")).fileId;
    const ended = await uploadIpa(key, "Ended.ipa");
    // Sent in another order than uploaded: the list follows the uploads.
    await sendBuild(newer, email);
    await sendBuild(older, email);
    await sendBuild(gone, email);
    await sendBuild(ended.fileId, email);
    expect((await dash(owner, "DELETE", `/api/files/${gone}`)).status).toBe(204);
    await expireLink(ended.userKey);

    const c = await testerSignedIn(email);
    const detail = await dash(c, "GET", `/api/tester/apps/${projectId}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.json.builds.map((b: { fileId: string }) => b.fileId)).toEqual([newer, older]);
    const apps = await dash(c, "GET", "/api/tester/apps");
    expect(apps.json.items[0].latest.ios.fileId).toBe(newer);
  });
});

/** The owner's personal workspace, a group in it, and an invite link of that group. */
async function groupWithLink(settings: { maxMembers?: number | null; expiresAt?: string | null } = {}) {
  const spaces = await dash(owner, "GET", "/api/workspaces");
  const workspaceId = spaces.json.items[0].workspaceId as string;
  const made = await dash(owner, "POST", `/api/workspaces/${workspaceId}/groups`, { name: `QA ${randomBytes(3).toString("hex")}` });
  expect(made.status, made.text).toBe(201);
  const groupId = made.json.groupId as string;
  const link = await dash(owner, "POST", `/api/groups/${groupId}/invite-link`, settings);
  expect(link.status, link.text).toBe(201);
  const token = new RegExp(`/join/(${TOKEN})$`).exec(link.json.url)![1]!;
  return { workspaceId, groupId, groupName: made.json.name as string, token };
}

/** Asks to join through the link as `email` and returns the confirmation link's token from the mail. */
async function joinToken(linkToken: string, email: string): Promise<string> {
  const asked = await dash(browser(), "POST", "/api/join", { token: linkToken, email });
  expect(asked.status, asked.text).toBe(202);
  expect(asked.json).toEqual({ status: "sent" });
  const [mail] = await mailsTo(email, 1);
  expect(mail!.subject).toMatch(/confirm your address to join/);
  return (await magicTokens(email, 1)).at(-1)!;
}

describe("join flow", () => {
  it("preview, join request, the mailed confirmation: the tester is in the group and signed in", async () => {
    const { groupId, groupName, token } = await groupWithLink();
    const preview = await dash(browser(), "POST", "/api/join/preview", { token });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json).toMatchObject({ groupName, expiresAt: null, open: true, workspaceName: expect.any(String) });

    const email = uniqueEmail("joiner");
    const confirm = await joinToken(token, email);
    const t = browser();
    const session = await dash(t, "POST", "/api/tester/session", { token: confirm });
    expect(session.status, session.text).toBe(200);
    expect(session.json).toMatchObject({ email, joined: { groupId, groupName, workspaceName: preview.json.workspaceName } });
    expect((await dash(t, "GET", "/api/tester/session")).json.email).toBe(email);
    // The portal is empty until a build is sent; the owner sees the tester as joined.
    expect((await dash(t, "GET", "/api/tester/apps")).json.items).toEqual([]);
    const group = await dash(owner, "GET", `/api/groups/${groupId}`);
    expect(group.json.testers).toEqual([expect.objectContaining({ email, source: "joined" })]);
    // A second click on the confirmation is a used link.
    expect((await dash(browser(), "POST", "/api/tester/session", { token: confirm })).json.error.code).toBe("invalid_token");
    // A group member is a tester: a sign-in request now mails a link.
    await dash(browser(), "POST", "/api/tester/sign-in", { email });
    await magicTokens(email, 2);
  });

  it("the member cap: the confirmation that would pass it is 410, and the full link previews as gone", async () => {
    const { token } = await groupWithLink({ maxMembers: 1 });
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    // Both ask while the link is open; the first to confirm takes the one place.
    const [firstToken, secondToken] = [await joinToken(token, first), await joinToken(token, second)];
    expect((await dash(browser(), "POST", "/api/tester/session", { token: firstToken })).status).toBe(200);
    const late = await dash(browser(), "POST", "/api/tester/session", { token: secondToken });
    expect(late.status, late.text).toBe(410);
    expect(late.json.error.code).toBe("join_link_gone");
    expect(late.headers.getSetCookie()).toEqual([]);
    const preview = await dash(browser(), "POST", "/api/join/preview", { token });
    expect(preview.status).toBe(410);
    expect(preview.json.error.code).toBe("join_link_gone");
  });

  it("an expired link and a revoked link are 410; a confirmation of a revoked link signs nobody in", async () => {
    const expiring = await groupWithLink({ expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: { pk: `WORKSPACE#${expiring.workspaceId}`, sk: `GROUP#${expiring.groupId}` },
        UpdateExpression: "SET inviteLink.expiresAt = :past",
        ExpressionAttributeValues: { ":past": "2021-06-01T00:00:00.000Z" },
      }),
    );
    expect((await dash(browser(), "POST", "/api/join/preview", { token: expiring.token })).json.error.code).toBe("join_link_gone");

    const revoked = await groupWithLink();
    const email = uniqueEmail("revoked");
    const confirm = await joinToken(revoked.token, email);
    expect((await dash(owner, "DELETE", `/api/groups/${revoked.groupId}/invite-link`)).status).toBe(204);
    expect((await dash(browser(), "POST", "/api/join/preview", { token: revoked.token })).status).toBe(410);
    const session = await dash(browser(), "POST", "/api/tester/session", { token: confirm });
    expect(session.status).toBe(410);
    expect(session.json.error.code).toBe("join_link_gone");
    expect((await dash(owner, "GET", `/api/groups/${revoked.groupId}`)).json.testers).toEqual([]);
  });

  it("an unknown invite link is 410 join_link_gone; a join request answers 202 all the same", async () => {
    const token = randomBytes(32).toString("base64url");
    const preview = await dash(browser(), "POST", "/api/join/preview", { token });
    expect(preview.status).toBe(410);
    expect(preview.json.error.code).toBe("join_link_gone");
    const join = await dash(browser(), "POST", "/api/join", { token, email: uniqueEmail("joiner") });
    expect(join.status).toBe(202);
    expect(join.json).toEqual({ status: "sent" });
  });
});

describe("hostile input", () => {
  it("never answers 5xx", async () => {
    const bodies: [string, unknown][] = [
      ["/api/tester/sign-in", {}],
      ["/api/tester/sign-in", { email: "not an address" }],
      ["/api/tester/sign-in", { email: "x".repeat(100_000) }],
      ["/api/tester/sign-in", { email: ["a@b.co"] }],
      ["/api/tester/sign-in", { email: { toString: "a@b.co" } }],
      ["/api/tester/session", { token: "short" }],
      ["/api/tester/session", { token: null }],
      ["/api/tester/session", { token: "A".repeat(43) + "\u0000" }],
      ["/api/join/preview", { token: "../../etc/passwd" }],
      ["/api/join", { token: randomBytes(32).toString("base64url"), email: "<script>@x.co" }],
      ["/api/join", { token: 42, email: "a@b.co" }],
    ];
    for (const [path, body] of bodies) {
      const reply = await dash(browser(), "POST", path, body);
      expect(reply.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
      expect(reply.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).toBeLessThan(500);
    }
    const raw = await call("/api/tester/sign-in", {
      method: "POST",
      headers: { Origin: stack().baseUrl, "Content-Type": "application/json", "X-Hangar-Test-Client-Ip": browser().ip },
      rawBody: "{\"email\": ",
    });
    expect(raw.status).toBe(400);
  });
});
