import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, mailsTo, type Browser } from "./support/accounts";
import { eventually, newDashboardKey, newProject, uploadIpa } from "./support/dashboard";
import { addMember, member } from "./support/workspaces";

/**
 * Webhooks end to end on the local stack (docs/webhooks.md): the shared test stack runs with
 * HANGAR_WEBHOOK_ALLOW_LOOPBACK=1 and a 1 s retry schedule (test/setup/global-setup.ts), and the
 * receivers here listen on 127.0.0.1. Every delivery is verified with the `standardwebhooks`
 * package, the specification's reference library, never with Hangar's own code.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  /** The statuses to answer, in order; 200 once they run out. */
  statuses: number[];
  server: Server;
}

const receivers: Receiver[] = [];

async function receiver(statuses: number[] = []): Promise<Receiver> {
  const r = { received: [] as Received[], statuses: [...statuses] } as Receiver;
  r.server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      r.received.push({ headers: req.headers, body });
      const status = r.statuses.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "thanks" : `broken ${"x".repeat(3000)}`);
    });
  });
  await new Promise<void>((done) => r.server.listen(0, "127.0.0.1", done));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks`;
  receivers.push(r);
  return r;
}

afterAll(() => Promise.all(receivers.map((r) => new Promise((done) => r.server.close(done)))));

const verify = (secret: string, got: Received) =>
  new Webhook(secret).verify(got.body, {
    "webhook-id": String(got.headers["webhook-id"]),
    "webhook-timestamp": String(got.headers["webhook-timestamp"]),
    "webhook-signature": String(got.headers["webhook-signature"]),
  }) as { type: string; timestamp: string; data: Record<string, any> };

async function addWebhook(b: Browser, workspaceId: string, body: Record<string, unknown>) {
  const reply = await dash(b, "POST", `/api/workspaces/${workspaceId}/webhooks`, body);
  expect(reply.status, reply.text).toBe(201);
  return reply.json as { webhookId: string; secret: string; enabled: boolean };
}

let owner: Awaited<ReturnType<typeof member>>;
let projectId: string;
let key: Awaited<ReturnType<typeof newDashboardKey>>;

beforeAll(async () => {
  owner = await member();
  ({ projectId } = await newProject(owner.b));
  key = await newDashboardKey(owner.b, projectId);
});

describe("webhooks on the local stack", () => {
  it("a completed upload produces a signed build.completed that the reference library verifies, with links, notes, branch, commit and CI URL", async () => {
    const hook = await receiver();
    const created = await addWebhook(owner.b, owner.personal, { url: hook.url, events: ["build.completed"], description: "CI bot" });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // The secret is shown once: no later answer carries it.
    const listed = await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/webhooks`);
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(created.secret);
    expect(listed.json.items).toEqual([expect.objectContaining({ webhookId: created.webhookId, url: hook.url, enabled: true, events: ["build.completed"], description: "CI bot" })]);

    const build = await uploadIpa(key, "App.ipa", { releaseNotes: "Fixes the <login> bug", branch: "release/2.4", commit: "3f9c2d41b7e0", ciUrl: "https://ci.example.com/runs/1" });
    await eventually(async () => hook.received.length >= 1, "the build.completed delivery");
    const payload = verify(created.secret, hook.received[0]!);
    expect(payload.type).toBe("build.completed");
    expect(payload.data.build).toMatchObject({
      fileId: build.fileId,
      projectId,
      releaseNotes: "Fixes the <login> bug",
      branch: "release/2.4",
      commit: "3f9c2d41b7e0",
      ciUrl: "https://ci.example.com/runs/1",
      links: { share: build.shareUrl, download: build.downloadUrl, qr: `${build.shareUrl}/qr.svg` },
    });
    expect(payload.data.build.appName).toBeTruthy();
    expect(payload.data.actor).toEqual({ kind: "apiKey", clientId: key.clientId });

    const log = await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.json.items[0]).toMatchObject({ deliveryId: hook.received[0]!.headers["webhook-id"], event: "build.completed", state: "succeeded", attempts: [expect.objectContaining({ attempt: 1, status: 200, responseBody: "thanks", error: null })] });
  });

  it("retries a 500 with the same webhook-id: 500, 500, 200 is three attempts in the log, each verified", async () => {
    const team = await dash(owner.b, "POST", "/api/workspaces", { name: `Hooks ${Date.now()}` });
    const workspaceId = team.json.workspaceId as string;
    const hook = await receiver([500, 500]);
    const created = await addWebhook(owner.b, workspaceId, { url: hook.url, events: ["build.completed"] });
    const sent = await dash(owner.b, "POST", `/api/webhooks/${created.webhookId}/test`, {});
    expect(sent.status, sent.text).toBe(202);
    expect(sent.json).toMatchObject({ test: true, event: "build.completed", state: "pending" });
    await eventually(async () => hook.received.length >= 3, "three attempts");
    const ids = hook.received.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set([sent.json.deliveryId]));
    for (const got of hook.received) expect(verify(created.secret, got).type).toBe("build.completed");
    expect(hook.received.map((r) => r.body)).toEqual(Array(3).fill(hook.received[0]!.body));

    await eventually(async () => (await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}/deliveries`)).json.items[0].state === "succeeded", "the log's success");
    const [delivery] = (await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}/deliveries`)).json.items;
    expect(delivery.attempts.map((a: { attempt: number; status: number }) => [a.attempt, a.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    // The first 2 KB of the answer, for a person reading why it failed.
    expect(delivery.attempts[0].responseBody).toHaveLength(2048);
    expect(delivery.attempts[0].error).toMatch(/HTTP 500/);
    expect((await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}`)).json.failureStreak).toBe(0);

    // Redeliver: one more attempt, same id.
    const again = await dash(owner.b, "POST", `/api/webhooks/${created.webhookId}/deliveries/${delivery.deliveryId}/redeliver`);
    expect(again.status, again.text).toBe(202);
    await eventually(async () => hook.received.length >= 4, "the redelivery");
    expect(hook.received[3]!.headers["webhook-id"]).toBe(delivery.deliveryId);
  });

  it("a disabled endpoint gets nothing; a rotated secret signs beside the old one", async () => {
    const team = await dash(owner.b, "POST", "/api/workspaces", { name: `Off ${Date.now()}` });
    const workspaceId = team.json.workspaceId as string;
    const off = await receiver();
    const on = await receiver();
    const disabled = await addWebhook(owner.b, workspaceId, { url: off.url, events: ["key.created", "key.revoked"], enabled: false });
    const enabled = await addWebhook(owner.b, workspaceId, { url: on.url, events: ["key.created"] });
    const rotated = await dash(owner.b, "POST", `/api/webhooks/${enabled.webhookId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(enabled.secret);
    expect(Date.parse(rotated.json.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600_000);

    const project = await dash(owner.b, "POST", "/api/projects", { name: `P ${Date.now()}`, color: "blue", workspaceId });
    expect(project.status, project.text).toBe(201);
    const created = await dash(owner.b, "POST", "/api/keys", { name: "CI", projectId: project.json.projectId });
    expect(created.status).toBe(201);
    await eventually(async () => on.received.length >= 1, "key.created to the enabled endpoint");
    const payload = verify(rotated.json.secret, on.received[0]!);
    expect(verify(enabled.secret, on.received[0]!)).toEqual(payload);
    expect(payload).toMatchObject({ type: "key.created", data: { key: { clientId: created.json.clientId, name: "CI" } } });
    expect(payload.data.actor).toMatchObject({ kind: "user", userId: owner.userId, email: owner.email });

    expect((await dash(owner.b, "POST", `/api/webhooks/${disabled.webhookId}/test`, {})).status).toBe(409);
    // The enabled endpoint's second event shows the disabled one had its chance too.
    await dash(owner.b, "DELETE", `/api/keys/${created.json.clientId}`);
    const second = await dash(owner.b, "PATCH", `/api/webhooks/${enabled.webhookId}`, { events: ["key.created", "key.revoked"] });
    expect(second.status).toBe(200);
    const another = await dash(owner.b, "POST", "/api/keys", { name: "CI 2", projectId: project.json.projectId });
    await dash(owner.b, "DELETE", `/api/keys/${another.json.clientId}`);
    await eventually(async () => on.received.length >= 3, "key.created and key.revoked");
    expect(off.received).toEqual([]);
    expect((await dash(owner.b, "GET", `/api/webhooks/${disabled.webhookId}/deliveries`)).json.items).toEqual([]);
  });

  it("posts a Slack Block Kit message and a Teams Adaptive Card to local receivers", async () => {
    const team = await dash(owner.b, "POST", "/api/workspaces", { name: `Chat <b>&amp; ${Date.now()}` });
    const workspaceId = team.json.workspaceId as string;
    const slack = await receiver();
    const teams = await receiver();
    const s = await addWebhook(owner.b, workspaceId, { type: "slack", url: slack.url, events: ["build.completed"] });
    const t = await addWebhook(owner.b, workspaceId, { type: "teams", url: teams.url, events: ["build.completed"] });
    const sentSlack = await dash(owner.b, "POST", `/api/webhooks/${s.webhookId}/test`, {});
    expect(sentSlack.status, sentSlack.text).toBe(202);
    const sentTeams = await dash(owner.b, "POST", `/api/webhooks/${t.webhookId}/test`, { event: "build.completed" });
    expect(sentTeams.status, sentTeams.text).toBe(202);
    await eventually(async () => slack.received.length >= 1 && teams.received.length >= 1, "the chat messages");
    const message = JSON.parse(slack.received[0]!.body);
    expect(message.blocks.map((b: { type: string }) => b.type)).toEqual(["section", "section", "context", "actions"]);
    expect(JSON.stringify(message)).toContain("Chat &lt;b&gt;&amp;amp;");
    expect(message.blocks[3].elements[0]).toMatchObject({ type: "button", text: { text: "Install" } });
    const card = JSON.parse(teams.received[0]!.body);
    expect(card).toMatchObject({ type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: { type: "AdaptiveCard", version: "1.4" } }] });
    expect(card.attachments[0].content.actions[0]).toMatchObject({ type: "Action.OpenUrl", title: "Install" });
  });

  it("turns an endpoint off after 15 failed attempts in a row and mails the owner why, escaped", async () => {
    const team = await dash(owner.b, "POST", "/api/workspaces", { name: `Failing ${Date.now()}` });
    const workspaceId = team.json.workspaceId as string;
    const hook = await receiver(Array(100).fill(503));
    const created = await addWebhook(owner.b, workspaceId, { url: hook.url, events: ["build.completed"], description: "<b>Deploy</b> & bot" });
    // Five deliveries of three attempts each (the test stack's schedule is 1 s, 1 s).
    for (let i = 0; i < 5; i++) expect((await dash(owner.b, "POST", `/api/webhooks/${created.webhookId}/test`, {})).status).toBe(202);
    await eventually(async () => (await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}`)).json.enabled === false, "the endpoint turned off");
    const after = await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}`);
    expect(after.json).toMatchObject({ enabled: false, disabledReason: "failing" });
    expect(hook.received.length).toBeGreaterThanOrEqual(15);

    const turnedOff = async () => (await mailsTo(owner.email)).find((m) => m.subject.includes("turned off a webhook"));
    await eventually(async () => (await turnedOff()) !== undefined, "the mail to the owner");
    const mail = (await turnedOff())!;
    expect(mail, "the mail to the owner").toBeTruthy();
    expect(mail.text).toContain("“<b>Deploy</b> & bot” (127.0.0.1:");
    expect(mail.text).toContain("answered with HTTP 503");
    expect(mail.html).toContain("&lt;b&gt;Deploy&lt;/b&gt; &amp; bot");
    expect(mail.html).not.toContain("<b>Deploy</b>");

    // Off means nothing more arrives, not even the retries it had pending; on again works.
    const seen = hook.received.length;
    expect((await dash(owner.b, "POST", `/api/webhooks/${created.webhookId}/test`, {})).status).toBe(409);
    await new Promise((r) => setTimeout(r, 2500));
    expect(hook.received.length).toBe(seen);
    hook.statuses = [];
    const on = await dash(owner.b, "PATCH", `/api/webhooks/${created.webhookId}`, { enabled: true });
    expect(on.json).toMatchObject({ enabled: true, disabledReason: null, failureStreak: 0 });
    expect((await dash(owner.b, "POST", `/api/webhooks/${created.webhookId}/test`, {})).status).toBe(202);
    await eventually(async () => hook.received.length > seen, "a delivery after turning it on");
  });

  it("refuses receivers the service may not call, at save time", async () => {
    for (const url of ["http://10.0.0.1/hook", "http://169.254.169.254/latest", "http://[::ffff:192.168.0.1]/", "file:///etc/passwd", "gopher://127.0.0.1/"]) {
      const reply = await dash(owner.b, "POST", `/api/workspaces/${owner.personal}/webhooks`, { url, events: ["build.completed"] });
      expect({ url, status: reply.status }).toEqual({ url, status: 400 });
      expect(reply.json.error.fields[0].field).toBe("url");
    }
  });

  it("members read, owners and admins manage; another workspace's webhook is a 404", async () => {
    const team = await dash(owner.b, "POST", "/api/workspaces", { name: `Roles ${Date.now()}` });
    const workspaceId = team.json.workspaceId as string;
    const hook = await receiver();
    const created = await addWebhook(owner.b, workspaceId, { url: hook.url, events: ["build.deleted"] });
    const dev = await member();
    await addMember(workspaceId, dev.userId, "developer");
    expect((await dash(dev.b, "GET", `/api/webhooks/${created.webhookId}`)).status).toBe(200);
    expect((await dash(dev.b, "GET", `/api/webhooks/${created.webhookId}`)).text).not.toContain(created.secret);
    const refused = await dash(dev.b, "PATCH", `/api/webhooks/${created.webhookId}`, { enabled: false });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("forbidden");
    const outsider = await member();
    expect((await dash(outsider.b, "GET", `/api/webhooks/${created.webhookId}`)).json.error.code).toBe("webhook_not_found");
    expect((await dash(outsider.b, "DELETE", `/api/webhooks/${created.webhookId}`)).status).toBe(404);
    expect((await dash(owner.b, "DELETE", `/api/webhooks/${created.webhookId}`)).status).toBe(204);
    expect((await dash(owner.b, "GET", `/api/webhooks/${created.webhookId}`)).status).toBe(404);
  });
});
