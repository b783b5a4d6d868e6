import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOT_DIR, sharedBrowser } from "./browser/support/browser";
import { PASSWORD, browser, dash, mailsTo, signedIn, uniqueEmail, verifiedAccount, type Browser } from "./support/accounts";
import { db, stack, type Reply } from "./support/api";

/*
 * Invitations to workspaces (issue 19 item 3, docs/teams.md "Invitations") on the local stack:
 * real mail through MailDev, real DynamoDB Local. Expiry is made by writing `expiresAt` in the past
 * on the token and invitation items in DynamoDB Local (the stack has no clock setting), and the
 * pending-invitation limit by seeding invitation items there (the daily mail limit of a workspace
 * equals the pending limit, so a day's mails alone can never reach it).
 */

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const table = () => stack().tableName;

async function newWorkspace(owner: Browser, name: string): Promise<string> {
  const made = await dash(owner, "POST", "/api/workspaces", { name });
  expect(made.status, made.text).toBe(201);
  return made.json.workspaceId as string;
}

const invite = (b: Browser, workspaceId: string, email: string, role: string) =>
  dash(b, "POST", `/api/workspaces/${workspaceId}/invitations`, { email, role });

const acceptLink = () => new RegExp(`${stack().baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/invitations/accept\\?token=([A-Za-z0-9_-]{43})`);

/** The invitation mails to `address` (not its account mails), oldest first, once at least `count` arrived. */
async function invitationMails(address: string, count = 1) {
  for (let waited = 0; ; waited += 100) {
    const mails = (await mailsTo(address)).filter((m) => acceptLink().test(m.text));
    if (mails.length >= count || waited >= 20_000) {
      expect(mails.length, `invitation mails to ${address}`).toBeGreaterThanOrEqual(count);
      return mails;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The tokens of every invitation link mailed to `address`, oldest first, once at least `count` arrived. */
async function acceptTokens(address: string, count = 1): Promise<string[]> {
  return (await invitationMails(address, count)).map((m) => acceptLink().exec(m.text)![1]!);
}

/** Invites `email` and returns the created answer and the mailed token. */
async function invited(b: Browser, workspaceId: string, email: string, role: string): Promise<{ reply: Reply; token: string }> {
  const before = (await mailsTo(email)).filter((m) => acceptLink().test(m.text)).length;
  const reply = await invite(b, workspaceId, email, role);
  expect(reply.status, reply.text).toBe(201);
  const tokens = await acceptTokens(email, before + 1);
  return { reply, token: tokens.at(-1)! };
}

/** A signed-in account that accepted an invitation to the workspace with `role`. */
async function member(owner: Browser, workspaceId: string, role: string): Promise<{ b: Browser; email: string }> {
  const someone = await signedIn();
  const { token } = await invited(owner, workspaceId, someone.email, role);
  const accepted = await dash(someone.b, "POST", "/api/invitations/accept", { token });
  expect(accepted.status, accepted.text).toBe(200);
  return someone;
}

async function auditActions(workspaceId: string): Promise<{ action: string; target?: { id: string }; actor: Record<string, string> }[]> {
  const { Items = [] } = await db().send(
    new QueryCommand({ TableName: table(), KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `AUDIT#${workspaceId}` }, ConsistentRead: true }),
  );
  return Items as never;
}

/**
 * The mail limits are fixed windows (an hour, a UTC day): a test that fills one waits until the
 * current window has at least `seconds` left, so its requests all count in one window.
 */
async function clearOfWindowEnd(windowSeconds: number, seconds = 120): Promise<void> {
  const left = windowSeconds - (Math.floor(Date.now() / 1000) % windowSeconds);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
}

const preview = (token: string) => dash(browser(), "POST", "/api/invitations/preview", { token });
const gone = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(410);
  expect(reply.json.error.code).toBe("invitation_gone");
};

describe("invitations", () => {
  let owner: { b: Browser; email: string };
  let workspaceId: string;
  const workspaceName = `Rocket <b>Team</b> & "Co"`;

  beforeAll(async () => {
    owner = await signedIn();
    expect((await dash(owner.b, "PUT", "/api/account/profile", { displayName: "Olga <Owner>" })).status).toBe(200);
    workspaceId = await newWorkspace(owner.b, workspaceName);
  });

  it("invite → mail → preview → accept by an existing, verified account (the address typed in any case)", async () => {
    const invitee = await signedIn();
    const sent = await invite(owner.b, workspaceId, ` ${invitee.email.toUpperCase()} `, "developer");
    expect(sent.status, sent.text).toBe(201);
    expect(sent.json).toMatchObject({ email: invitee.email, role: "developer", mail: "sent", invitedBy: { email: owner.email } });
    expect(sent.json.invitationId).toMatch(/^inv_[0-9A-Za-z]{16}$/);
    const week = Date.parse(sent.json.expiresAt) - Date.parse(sent.json.createdAt);
    expect(week).toBeGreaterThan(7 * 86_400_000 - 2000);
    expect(week).toBeLessThanOrEqual(7 * 86_400_000);

    // The mail: who invited whom to what with which role, why, the link, the expiry, how to ignore it.
    const [mail] = await invitationMails(invitee.email, 1);
    const [token] = await acceptTokens(invitee.email);
    expect(mail!.subject).toBe(`Hangar: Olga <Owner> invited you to the workspace “${workspaceName}”`);
    expect(mail!.text).toContain(`Olga <Owner> (${owner.email}) invited you to join the workspace “${workspaceName}” on Hangar as a developer.`);
    expect(mail!.text).toContain(`because ${owner.email} entered your address, ${invitee.email}`);
    expect(mail!.text).toContain(`${stack().baseUrl}/invitations/accept?token=${token}`);
    expect(mail!.text).toContain(`expires on ${sent.json.expiresAt.slice(0, 16).replace("T", " ")} UTC`);
    expect(mail!.text).toMatch(/ignore this mail: nothing happens without the link/);
    // The HTML part escapes the workspace's and the inviter's names (other people's typing).
    expect(mail!.html).toContain("Rocket &lt;b&gt;Team&lt;/b&gt; &amp; &quot;Co&quot;");
    expect(mail!.html).toContain("Olga &lt;Owner&gt;");
    expect(mail!.html).not.toContain("<b>Team</b>");
    expect(mail!.html).toContain(`href="${stack().baseUrl}/invitations/accept?token=${token}"`);

    // Look at it: the HTML part rendered by Chromium (reviewers open .tmp/screenshots/invitation-mail.png).
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 640, height: 720 } });
    await page.setContent(mail!.html, { waitUntil: "load" });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, "invitation-mail.png"), fullPage: true });
    await page.close();

    // Only the token's hash is stored, as a token item of its own; the invitation names it.
    const stored = await db().send(new GetCommand({ TableName: table(), Key: { pk: `TOKEN#${sha256(token!)}`, sk: "TOKEN" } }));
    expect(stored.Item).toMatchObject({ type: "token", purpose: "workspace_invitation", workspaceId, invitationId: sent.json.invitationId });
    expect(stored.Item!.ttl).toBe(stored.Item!.expiresAt);
    const item = await db().send(new GetCommand({ TableName: table(), Key: { pk: `WORKSPACE#${workspaceId}`, sk: `INVITATION#${sent.json.invitationId}` } }));
    expect(item.Item).toMatchObject({ type: "invitation", email: invitee.email, role: "developer", tokenHash: sha256(token!), ttl: stored.Item!.expiresAt });
    expect(JSON.stringify([stored.Item, item.Item])).not.toContain(token);

    const listed = await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/invitations`);
    expect(listed.status).toBe(200);
    expect(listed.json.items).toContainEqual({
      invitationId: sent.json.invitationId,
      email: invitee.email,
      role: "developer",
      expiresAt: sent.json.expiresAt,
      createdAt: sent.json.createdAt,
      invitedBy: { userId: expect.stringMatching(/^usr_/), email: owner.email },
    });

    // The accept page's preview, before anyone signs in.
    const shown = await preview(token!);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.json).toEqual({
      workspaceName,
      invitedBy: { email: owner.email, displayName: "Olga <Owner>" },
      email: invitee.email,
      role: "developer",
      expiresAt: sent.json.expiresAt,
    });

    // Accepting needs a session; then the member is in, with the invited role.
    expect((await dash(browser(), "POST", "/api/invitations/accept", { token })).status).toBe(401);
    const accepted = await dash(invitee.b, "POST", "/api/invitations/accept", { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ workspaceId, role: "developer" });
    const ws = await dash(invitee.b, "GET", `/api/workspaces/${workspaceId}`);
    expect(ws.status, ws.text).toBe(200);
    expect(ws.json).toMatchObject({ workspaceId, role: "developer" });
    const members = await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/members`);
    expect(members.json.items).toContainEqual(expect.objectContaining({ email: invitee.email, role: "developer" }));

    // Single use: the token and the invitation are gone; a second accept or preview is 410.
    gone(await dash(invitee.b, "POST", "/api/invitations/accept", { token }));
    gone(await preview(token!));
    expect((await db().send(new GetCommand({ TableName: table(), Key: { pk: `TOKEN#${sha256(token!)}`, sk: "TOKEN" } }))).Item).toBeUndefined();
    expect((await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/invitations`)).json.items.map((i: { email: string }) => i.email)).not.toContain(invitee.email);

    // Inviting a member again is refused.
    const again = await invite(owner.b, workspaceId, invitee.email, "viewer");
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("already_member");

    const audit = (await auditActions(workspaceId)).filter((e) => e.target?.id === sent.json.invitationId);
    expect(audit.map((e) => e.action).sort()).toEqual(["invitation.accepted", "invitation.created"]);
    // Who and from where: the inviter for the invitation, the new member for the accept.
    const created = audit.find((e) => e.action === "invitation.created")!;
    expect(created.actor).toMatchObject({ userId: sent.json.invitedBy.userId, email: owner.email, ip: owner.b.ip, userAgentFamily: "Node.js" });
    expect(audit.find((e) => e.action === "invitation.accepted")!.actor).toMatchObject({ email: invitee.email, ip: invitee.b.ip });
  });

  it("a new account: the invited address signs up from the mail, confirms, signs in and accepts", async () => {
    const email = uniqueEmail("newcomer");
    const { token } = await invited(owner.b, workspaceId, email, "viewer");
    // The preview works before the account exists (the accept page offers sign-up with this address).
    expect((await preview(token)).json).toMatchObject({ email, role: "viewer", workspaceName });

    const b = browser();
    await verifiedAccount(b, email);
    expect((await dash(b, "POST", "/api/session", { email, password: PASSWORD })).status).toBe(200);
    const accepted = await dash(b, "POST", "/api/invitations/accept", { token });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json).toEqual({ workspaceId, role: "viewer" });
    expect((await dash(b, "GET", `/api/workspaces/${workspaceId}`)).json).toMatchObject({ role: "viewer" });
  });

  it("the wrong account gets 403 wrong_account naming neither address fully, and the link still works for the right one", async () => {
    const invitee = await signedIn();
    const stranger = await signedIn();
    const { token } = await invited(owner.b, workspaceId, invitee.email, "developer");

    const wrong = await dash(stranger.b, "POST", "/api/invitations/accept", { token });
    expect(wrong.status, wrong.text).toBe(403);
    expect(wrong.json.error.code).toBe("wrong_account");
    expect(wrong.json.error.message).toMatch(/^You are signed in as \S+, but this invitation was sent to \S+\./);
    expect(wrong.text).not.toContain(invitee.email);
    expect(wrong.text).not.toContain(stranger.email);
    expect(wrong.json.error.invited).toBe(`${invitee.email[0]}•••@h•••.test`);
    expect((await dash(stranger.b, "GET", `/api/workspaces/${workspaceId}`)).status).toBe(404);

    expect((await dash(invitee.b, "POST", "/api/invitations/accept", { token })).status).toBe(200);
  });

  it("an expired link (expiresAt written in the past in DynamoDB Local) answers exactly like an unknown one", async () => {
    const email = uniqueEmail("late");
    const { reply, token } = await invited(owner.b, workspaceId, email, "developer");
    const past = Math.floor(Date.now() / 1000) - 60;
    const set = { UpdateExpression: "SET expiresAt = :past", ExpressionAttributeValues: { ":past": past } };
    await db().send(new UpdateCommand({ TableName: table(), Key: { pk: `TOKEN#${sha256(token)}`, sk: "TOKEN" }, ...set }));
    await db().send(new UpdateCommand({ TableName: table(), Key: { pk: `WORKSPACE#${workspaceId}`, sk: `INVITATION#${reply.json.invitationId}` }, ...set }));

    const expired = await preview(token);
    const unknown = await preview(randomBytes(32).toString("base64url"));
    gone(expired);
    gone(unknown);
    const { requestId: _a, ...a } = expired.json.error;
    const { requestId: _b, ...b } = unknown.json.error;
    expect(a).toEqual(b);

    const b2 = browser();
    await verifiedAccount(b2, email);
    await dash(b2, "POST", "/api/session", { email, password: PASSWORD });
    gone(await dash(b2, "POST", "/api/invitations/accept", { token }));
    // No longer pending: not listed, and the address may be invited again.
    expect((await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/invitations`)).json.items.map((i: { email: string }) => i.email)).not.toContain(email);
    expect((await invite(owner.b, workspaceId, email, "developer")).status).toBe(201);
  });

  it("revoked: the link is dead at once, the list forgets it, the audit log records it", async () => {
    const email = uniqueEmail("revoked");
    const { reply, token } = await invited(owner.b, workspaceId, email, "admin");
    const path = `/api/workspaces/${workspaceId}/invitations/${reply.json.invitationId}`;
    expect((await dash(owner.b, "DELETE", path)).status).toBe(204);
    gone(await preview(token));
    const b = browser();
    await verifiedAccount(b, email);
    await dash(b, "POST", "/api/session", { email, password: PASSWORD });
    gone(await dash(b, "POST", "/api/invitations/accept", { token }));
    expect((await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/invitations`)).json.items.map((i: { email: string }) => i.email)).not.toContain(email);
    const twice = await dash(owner.b, "DELETE", path);
    expect(twice.status).toBe(404);
    expect(twice.json.error.code).toBe("invitation_not_found");
    expect((await auditActions(workspaceId)).filter((e) => e.target?.id === reply.json.invitationId).map((e) => e.action).sort()).toEqual([
      "invitation.created",
      "invitation.revoked",
    ]);
  });

  it("re-sending mails a new link with a new expiry and kills the old one; inviting the address twice is refused", async () => {
    const invitee = await signedIn();
    const { reply, token: first } = await invited(owner.b, workspaceId, invitee.email, "developer");
    const twice = await invite(owner.b, workspaceId, invitee.email, "admin");
    expect(twice.status).toBe(409);
    expect(twice.json.error).toMatchObject({ code: "already_invited", invitationId: reply.json.invitationId });

    const resent = await dash(owner.b, "POST", `/api/workspaces/${workspaceId}/invitations/${reply.json.invitationId}/resend`);
    expect(resent.status, resent.text).toBe(200);
    expect(resent.json).toMatchObject({ invitationId: reply.json.invitationId, email: invitee.email, role: "developer", mail: "sent" });
    expect(Date.parse(resent.json.expiresAt)).toBeGreaterThanOrEqual(Date.parse(reply.json.expiresAt));
    const tokens = await acceptTokens(invitee.email, 2);
    const second = tokens.at(-1)!;
    expect(second).not.toBe(first);

    gone(await preview(first));
    gone(await dash(invitee.b, "POST", "/api/invitations/accept", { token: first }));
    expect((await dash(invitee.b, "POST", "/api/invitations/accept", { token: second })).status).toBe(200);
    expect((await auditActions(workspaceId)).filter((e) => e.target?.id === reply.json.invitationId).map((e) => e.action).sort()).toEqual([
      "invitation.accepted",
      "invitation.created",
      "invitation.resent",
    ]);
  });

  it("roles: an admin invites but cannot invite an owner; a viewer gets 403 forbidden; a non-member gets 404", async () => {
    const admin = await member(owner.b, workspaceId, "admin");
    const asOwner = await invite(admin.b, workspaceId, uniqueEmail("would-be-owner"), "owner");
    expect(asOwner.status).toBe(403);
    expect(asOwner.json.error).toMatchObject({ code: "forbidden", permission: "owners.manage", role: "admin" });
    const dev = await invite(admin.b, workspaceId, uniqueEmail("dev"), "developer");
    expect(dev.status, dev.text).toBe(201);
    expect(dev.json.invitedBy.email).toBe(admin.email);
    expect((await dash(admin.b, "GET", `/api/workspaces/${workspaceId}/invitations`)).status).toBe(200);

    // The owner may invite an owner; the admin may not re-send that invitation either.
    const ownerInvite = await invite(owner.b, workspaceId, uniqueEmail("co-owner"), "owner");
    expect(ownerInvite.status).toBe(201);
    const resend = await dash(admin.b, "POST", `/api/workspaces/${workspaceId}/invitations/${ownerInvite.json.invitationId}/resend`);
    expect(resend.status).toBe(403);
    expect(resend.json.error.permission).toBe("owners.manage");

    const viewer = await member(owner.b, workspaceId, "viewer");
    for (const [method, path, body] of [
      ["POST", `/api/workspaces/${workspaceId}/invitations`, { email: uniqueEmail(), role: "viewer" }],
      ["GET", `/api/workspaces/${workspaceId}/invitations`, undefined],
      ["DELETE", `/api/workspaces/${workspaceId}/invitations/${dev.json.invitationId}`, undefined],
      ["POST", `/api/workspaces/${workspaceId}/invitations/${dev.json.invitationId}/resend`, undefined],
    ] as const) {
      const refused = await dash(viewer.b, method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.json.error).toMatchObject({ code: "forbidden", permission: "members.manage", role: "viewer" });
    }

    const outsider = await signedIn();
    for (const [method, path, body] of [
      ["POST", `/api/workspaces/${workspaceId}/invitations`, { email: uniqueEmail(), role: "viewer" }],
      ["GET", `/api/workspaces/${workspaceId}/invitations`, undefined],
      ["DELETE", `/api/workspaces/${workspaceId}/invitations/${dev.json.invitationId}`, undefined],
      ["POST", `/api/workspaces/${workspaceId}/invitations/${dev.json.invitationId}/resend`, undefined],
      ["GET", `/api/workspaces/ws_${"x".repeat(16)}/invitations`, undefined],
      ["GET", "/api/workspaces/nonsense/invitations", undefined],
    ] as const) {
      const refused = await dash(outsider.b, method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(404);
      expect(refused.json.error.code).toBe("workspace_not_found");
    }
    // The invitation the viewer and the outsider aimed at is untouched.
    expect((await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/invitations`)).json.items.map((i: { invitationId: string }) => i.invitationId)).toContain(
      dev.json.invitationId,
    );
  });

  it("limits: 20 invitation mails an hour per inviter, 50 a day per workspace (re-sends count), 50 pending per workspace", async () => {
    await clearOfWindowEnd(3600);
    await clearOfWindowEnd(86_400);
    const boss = await signedIn();
    const team = await newWorkspace(boss.b, "Busy team");
    const admins = [await member(boss.b, team, "admin"), await member(boss.b, team, "admin")];
    const domain = `limits-${randomBytes(4).toString("hex")}.test`;
    const sent: string[] = [];
    const send = async (b: Browser, n: number) => {
      for (let i = 0; i < n; i++) {
        const reply = await invite(b, team, `p${sent.length}@${domain}`, "viewer");
        expect(reply.status, reply.text).toBe(201);
        sent.push(reply.json.invitationId);
      }
    };
    // The boss sent 2 (the admins'); 18 more make 20 this hour.
    await send(boss.b, 18);
    const inviterHeld = await invite(boss.b, team, `over@${domain}`, "viewer");
    expect(inviterHeld.status).toBe(429);
    expect(inviterHeld.json.error.code).toBe("rate_limited");
    expect(inviterHeld.json.error.message).toMatch(/^You have sent 20 invitation mails/);
    expect(Number(inviterHeld.headers.get("retry-after"))).toBeGreaterThan(0);

    // The workspace: 20 so far; 20 by the first admin, then 10 re-sends by the second make 50.
    await send(admins[0]!.b, 20);
    for (const invitationId of sent.slice(0, 10)) {
      const resent = await dash(admins[1]!.b, "POST", `/api/workspaces/${team}/invitations/${invitationId}/resend`);
      expect(resent.status, resent.text).toBe(200);
    }
    const workspaceHeld = await invite(admins[1]!.b, team, `over@${domain}`, "viewer");
    expect(workspaceHeld.status).toBe(429);
    expect(workspaceHeld.json.error.message).toMatch(/^This workspace has sent 50 invitation mails/);
    // Refused requests sent nothing and stored nothing.
    expect(await mailsTo(`over@${domain}`)).toEqual([]);
    expect((await dash(boss.b, "GET", `/api/workspaces/${team}/invitations`)).json.items).toHaveLength(38);

    // Pending: a third workspace with 50 pending invitations (seeded in DynamoDB Local) takes no 51st.
    const full = await newWorkspace(boss.b, "Full house");
    const expiresAt = Math.floor(Date.now() / 1000) + 86_400;
    for (let i = 0; i < 50; i++) {
      const invitationId = `inv_${randomBytes(8).toString("hex")}`;
      await db().send(
        new PutCommand({
          TableName: table(),
          Item: {
            pk: `WORKSPACE#${full}`,
            sk: `INVITATION#${invitationId}`,
            type: "invitation",
            workspaceId: full,
            invitationId,
            email: `seed${i}@${domain}`,
            role: "viewer",
            invitedBy: "usr_0000000000000000",
            createdAt: new Date().toISOString(),
            expiresAt,
            ttl: expiresAt,
            tokenHash: sha256(invitationId),
          },
        }),
      );
    }
    const pendingHeld = await invite(boss.b, full, `one-more@${domain}`, "viewer");
    expect(pendingHeld.status).toBe(409);
    expect(pendingHeld.json.error).toMatchObject({ code: "limit_reached", limit: "invitations" });
  });

  it("concurrency: 25 invitations at once from one inviter admit exactly 20; two accepts of one link admit one", async () => {
    await clearOfWindowEnd(3600);
    const lead = await signedIn();
    const team = await newWorkspace(lead.b, "Racing team");
    const domain = `race-${randomBytes(4).toString("hex")}.test`;
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => invite(lead.b, team, `r${i}@${domain}`, "viewer")));
    expect(replies.map((r) => r.status).sort()).toEqual([...Array(20).fill(201), ...Array(5).fill(429)]);
    expect((await dash(lead.b, "GET", `/api/workspaces/${team}/invitations`)).json.items).toHaveLength(20);

    // One invitee in two tabs: one accept joins, the other finds the link used.
    const invitee = await signedIn();
    const second = browser();
    await dash(second, "POST", "/api/session", { email: invitee.email, password: PASSWORD });
    const owner2 = await signedIn();
    const place = await newWorkspace(owner2.b, "One seat");
    const { token } = await invited(owner2.b, place, invitee.email, "developer");
    const both = await Promise.all([invitee.b, second].map((b) => dash(b, "POST", "/api/invitations/accept", { token })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 410]);
    const members = await dash(owner2.b, "GET", `/api/workspaces/${place}/members`);
    expect(members.json.items.filter((m: { email: string }) => m.email === invitee.email)).toHaveLength(1);
    expect((await dash(owner2.b, "GET", `/api/workspaces/${place}`)).json.memberCount).toBe(2);
  });

  it("the preview is counted per client (60 per 15 minutes) and malformed tokens never reach storage", async () => {
    const b = browser();
    const token = randomBytes(32).toString("base64url");
    for (let i = 0; i < 60; i++) gone(await dash(b, "POST", "/api/invitations/preview", { token }));
    const held = await dash(b, "POST", "/api/invitations/preview", { token });
    expect(held.status).toBe(429);
    expect(held.json.error.code).toBe("rate_limited");
    const malformed = await dash(browser(), "POST", "/api/invitations/preview", { token: "short" });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe("invalid_request");
  });
});
