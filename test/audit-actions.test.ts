import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { AUDIT_ACTIONS } from "@hangar/core";
import { describe, expect, it } from "vitest";
import { dash, mailsTo, signedIn, type Browser } from "./support/accounts";
import { db, put, readFixture, stack } from "./support/api";
import { ipaPath } from "./support/dashboard";

/*
 * Issue 19: "audit entries for every listed action". Every action of AUDIT_ACTIONS is done once
 * through the API, as people would, from clients with their own address and browser; the log then
 * answers each with who did it, from where (the client's address and its browser's family only)
 * and on what. The workspace's own deletion is checked in the table: nobody can read the log of a
 * workspace that is gone.
 */

const SAFARI = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";
const FIREFOX = "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

interface Person {
  b: Browser;
  email: string;
  userId: string;
  ua: string;
}

async function person(ua: string): Promise<Person> {
  const { b, email } = await signedIn();
  return { b, email, ua, userId: (await dash(b, "GET", "/api/account")).json.userId };
}

/** A dashboard request from this person's browser; the answer's status must be `status`. */
async function as(p: Person, method: string, path: string, body: unknown, status: number) {
  const reply = await dash(p.b, method, path, body, { "User-Agent": p.ua });
  expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(status);
  return reply.json;
}

const acceptLink = () => new RegExp(`${stack().baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/invitations/accept\\?token=([A-Za-z0-9_-]{43})`);

/** The newest invitation link's token mailed to `email`, once `count` have arrived. */
async function invitationToken(email: string, count = 1): Promise<string> {
  for (let waited = 0; ; waited += 100) {
    const tokens = (await mailsTo(email)).map((m) => acceptLink().exec(m.text)?.[1]).filter((t): t is string => t !== undefined);
    if (tokens.length >= count) return tokens.at(-1)!;
    if (waited > 20_000) throw new Error(`no invitation mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the audit log records every action of AUDIT_ACTIONS done through the API", () => {
  it("with who, from where and on what", async () => {
    const [owner, dev, removed, leaver, revoked] = await Promise.all([person(SAFARI), person(FIREFOX), person(FIREFOX), person(FIREFOX), person(FIREFOX)]);
    const ws = (await as(owner, "POST", "/api/workspaces", { name: "Audited team" }, 201)).workspaceId as string;
    const base = `/api/workspaces/${ws}`;
    await as(owner, "PATCH", base, { name: "Audited team, renamed" }, 200);

    // Invitations: one accepted after a re-send, one revoked; members join, change role, are removed, leave.
    const invitation = await as(owner, "POST", `${base}/invitations`, { email: dev.email, role: "developer" }, 201);
    await as(owner, "POST", `${base}/invitations/${invitation.invitationId}/resend`, undefined, 200);
    await as(dev, "POST", "/api/invitations/accept", { token: await invitationToken(dev.email, 2) }, 200);
    const other = await as(owner, "POST", `${base}/invitations`, { email: revoked.email, role: "viewer" }, 201);
    await as(owner, "DELETE", `${base}/invitations/${other.invitationId}`, undefined, 204);
    for (const p of [removed, leaver]) {
      await as(owner, "POST", `${base}/invitations`, { email: p.email, role: "viewer" }, 201);
      await as(p, "POST", "/api/invitations/accept", { token: await invitationToken(p.email) }, 200);
    }
    await as(owner, "DELETE", `${base}/members/${removed.userId}`, undefined, 204);
    await as(leaver, "DELETE", `${base}/members/${leaver.userId}`, undefined, 204);
    await as(owner, "PATCH", `${base}/members/${dev.userId}`, { role: "admin" }, 200);
    await as(owner, "POST", `${base}/transfer`, { userId: dev.userId }, 200);
    await as(dev, "POST", `${base}/transfer`, { userId: owner.userId }, 200);

    // A project, a build uploaded from the dashboard, its link, a key; then everything deleted again.
    const project = await as(owner, "POST", "/api/projects", { name: "Audited app", color: "blue", workspaceId: ws }, 201);
    await as(owner, "PATCH", `/api/projects/${project.projectId}`, { description: "now with a description" }, 200);
    const bytes = readFixture(ipaPath());
    const declared = { fileName: "App.ipa", fileSize: bytes.length, fileType: "application/octet-stream" };
    const presigned = await as(dev, "POST", `/api/projects/${project.projectId}/uploads`, declared, 200);
    expect((await put(presigned.uploadUrl, bytes)).status).toBe(200);
    const build = await as(dev, "POST", `/api/projects/${project.projectId}/uploads/complete`, { ...declared, key: presigned.key }, 200);
    await as(dev, "PATCH", `/api/files/${build.fileId}/share`, { maxDownloads: 5 }, 200);
    await as(dev, "POST", `/api/files/${build.fileId}/distribute`, { testers: ["audited-tester@example.com"], notify: false }, 202);
    await as(dev, "POST", `/api/files/${build.fileId}/share/regenerate`, undefined, 200);
    const key = await as(dev, "POST", "/api/keys", { name: "CI", projectId: project.projectId }, 201);
    await as(dev, "POST", `/api/keys/${key.clientId}/regenerate`, undefined, 200);
    await as(dev, "DELETE", `/api/keys/${key.clientId}`, undefined, 204);
    // Issue 20: the project's app page and an update token.
    await as(dev, "PUT", `/api/projects/${project.projectId}/app-page`, { enabled: true }, 200);
    const updateToken = await as(dev, "POST", `/api/projects/${project.projectId}/update-tokens`, { name: "Beta builds" }, 201);
    await as(dev, "DELETE", `/api/projects/${project.projectId}/update-tokens/${updateToken.tokenId}`, undefined, 204);
    // Issue 24: pinned against the project's retention policy, then unpinned.
    await as(dev, "PATCH", `/api/files/${build.fileId}`, { pinned: true }, 200);
    await as(dev, "PATCH", `/api/files/${build.fileId}`, { pinned: false }, 200);
    await as(dev, "DELETE", `/api/files/${build.fileId}`, undefined, 204);
    const deleted = await dash(owner.b, "DELETE", `/api/projects/${project.projectId}`, { confirmName: "Audited app" }, { "User-Agent": owner.ua });
    expect([200, 202, 204], deleted.text).toContain(deleted.status);

    // Tester groups (issue 20): made, renamed, filled, a tester removed, an invite link made and revoked, deleted.
    const group = await as(owner, "POST", `${base}/groups`, { name: "Audited testers" }, 201);
    await as(owner, "PATCH", `/api/groups/${group.groupId}`, { name: "Audited testers (renamed)" }, 200);
    await as(owner, "POST", `/api/groups/${group.groupId}/testers`, { emails: ["t1@example.com", "t2@example.com"] }, 200);
    await as(owner, "DELETE", `/api/groups/${group.groupId}/testers/t1%40example.com`, undefined, 204);
    await as(owner, "POST", `/api/groups/${group.groupId}/invite-link`, {}, 201);
    await as(owner, "DELETE", `/api/groups/${group.groupId}/invite-link`, undefined, 204);
    await as(owner, "DELETE", `/api/groups/${group.groupId}`, undefined, 204);

    // Webhooks (issue 21): added, changed, given a new secret, deleted. The receiver's URL carries
    // a token, as Slack's do: the log names its host only, and never a secret.
    const hookUrl = "http://127.0.0.1:9/hooks/T000/B000/SeCrEtPaRt";
    const webhook = await as(owner, "POST", `${base}/webhooks`, { url: hookUrl, events: ["build.completed"] }, 201);
    await as(owner, "PATCH", `/api/webhooks/${webhook.webhookId}`, { description: "Deploy bot", enabled: false }, 200);
    const rotated = await as(owner, "POST", `/api/webhooks/${webhook.webhookId}/rotate-secret`, undefined, 200);
    await as(owner, "DELETE", `/api/webhooks/${webhook.webhookId}`, undefined, 204);

    // Every page of the log, as its owner reads it.
    const entries: { action: string; actor: { userId: string; email: string | null; ip: string | null; userAgentFamily: string | null }; target: { type: string; id: string } | null }[] = [];
    let cursor: string | null = null;
    do {
      const page = await as(owner, "GET", `${base}/audit${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, undefined, 200);
      entries.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);

    const expected: Record<string, { by: Person; target: string }> = {
      "workspace.created": { by: owner, target: ws },
      "workspace.renamed": { by: owner, target: ws },
      "invitation.created": { by: owner, target: invitation.invitationId },
      "invitation.resent": { by: owner, target: invitation.invitationId },
      "invitation.accepted": { by: dev, target: invitation.invitationId },
      "invitation.revoked": { by: owner, target: other.invitationId },
      "member.removed": { by: owner, target: removed.userId },
      "member.left": { by: leaver, target: leaver.userId },
      "member.role_changed": { by: owner, target: dev.userId },
      "ownership.transferred": { by: owner, target: dev.userId },
      "project.created": { by: owner, target: project.projectId },
      "project.updated": { by: owner, target: project.projectId },
      "build.uploaded": { by: dev, target: build.fileId },
      "build.distribute": { by: dev, target: build.fileId },
      "link.settings_changed": { by: dev, target: build.fileId },
      "link.regenerated": { by: dev, target: build.fileId },
      "key.created": { by: dev, target: key.clientId },
      "key.regenerated": { by: dev, target: key.clientId },
      "key.revoked": { by: dev, target: key.clientId },
      "build.pinned": { by: dev, target: build.fileId },
      "build.unpinned": { by: dev, target: build.fileId },
      "build.deleted": { by: dev, target: build.fileId },
      "project.deleted": { by: owner, target: project.projectId },
      "group.create": { by: owner, target: group.groupId },
      "group.update": { by: owner, target: group.groupId },
      "group.testers_add": { by: owner, target: group.groupId },
      "group.tester_remove": { by: owner, target: group.groupId },
      "group.invite_link_create": { by: owner, target: group.groupId },
      "group.invite_link_revoke": { by: owner, target: group.groupId },
      "group.delete": { by: owner, target: group.groupId },
      "project.app_page_update": { by: dev, target: project.projectId },
      "update_token.created": { by: dev, target: project.projectId },
      "update_token.revoked": { by: dev, target: project.projectId },
      "webhook.created": { by: owner, target: webhook.webhookId },
      "webhook.updated": { by: owner, target: webhook.webhookId },
      "webhook.secret_rotated": { by: owner, target: webhook.webhookId },
      "webhook.deleted": { by: owner, target: webhook.webhookId },
    };
    for (const [action, { by, target }] of Object.entries(expected)) {
      const entry = entries.find((e) => e.action === action && e.target?.id === target);
      expect(entry, `${action} on ${target}`).toBeDefined();
      expect(entry!.actor, action).toEqual({
        userId: by.userId,
        email: by.email,
        ip: by.b.ip,
        userAgentFamily: by.ua === SAFARI ? "Safari" : "Firefox",
      });
    }
    const hookEntries = entries.filter((e) => e.action.startsWith("webhook."));
    expect(hookEntries.find((e) => e.action === "webhook.updated")).toMatchObject({ target: { type: "webhook", label: "Deploy bot" }, details: { fields: "description,enabled", enabled: false } });
    expect(hookEntries.find((e) => e.action === "webhook.created")).toMatchObject({ target: { label: "127.0.0.1:9" }, details: { type: "webhook", host: "127.0.0.1:9", events: "build.completed" } });
    expect(JSON.stringify(hookEntries)).not.toContain("SeCrEtPaRt");
    expect(JSON.stringify(entries)).not.toContain(webhook.secret);
    expect(JSON.stringify(entries)).not.toContain(rotated.secret);
    // The full header is nowhere in the log.
    expect(JSON.stringify(entries)).not.toContain("Macintosh");
    expect(JSON.stringify(entries)).not.toContain("Ubuntu");

    // The workspace goes, and its log with it: no one could read it any more, and it holds
    // members' addresses and client IPs.
    await as(owner, "DELETE", base, { confirmName: "Audited team, renamed" }, 200);
    await as(owner, "GET", `${base}/audit`, undefined, 404);
    const stored = await db().send(
      new QueryCommand({ TableName: stack().tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": `AUDIT#${ws}` }, ConsistentRead: true }),
    );
    expect(stored.Items).toEqual([]);

    // Every action of the list was exercised, except Register with Apple's: it needs an App Store
    // Connect key, which the shared stack has off; test/devices-apple.test.ts reads its entries on
    // a stack configured with one.
    expect(Object.keys(expected).sort()).toEqual(AUDIT_ACTIONS.filter((a) => a !== "device.registered_with_apple").sort());
  });
});
