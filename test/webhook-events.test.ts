import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { browser, dash, mailsTo, uniqueEmail } from "./support/accounts";
import { stack } from "./support/api";
import { eventually, newDashboardKey, newProject, uploadIpa } from "./support/dashboard";
import { member } from "./support/workspaces";

/**
 * The testers' events on the local stack (issue 21 item 1, docs/webhooks.md): a build sent to
 * testers — from the dashboard and from CI's complete — is a `build.distributed`, and someone who
 * becomes a tester of a group — added by a member or joining through the invite link — is a
 * `tester.joined`. Each delivery to a receiver on 127.0.0.1 is verified with the `standardwebhooks`
 * package (the specification's reference library), never with Hangar's own code.
 */

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

const servers: Server[] = [];

async function receiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, received };
}

afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));

type Event = { type: string; timestamp: string; data: Record<string, any> };

const verified = (secret: string, got: Received[]): Event[] =>
  got.map(
    (r) =>
      new Webhook(secret).verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"]),
      }) as Event,
  );

const TOKEN = "[A-Za-z0-9_-]{43}";
const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The token of the join confirmation mailed to `email`. */
async function confirmationToken(email: string): Promise<string> {
  const link = new RegExp(`${escaped(stack().baseUrl)}/tester/sign-in\\?token=(${TOKEN})`);
  let token: string | undefined;
  await eventually(async () => {
    token = (await mailsTo(email)).map((m) => link.exec(m.text)?.[1]).find((t) => t !== undefined);
    return token !== undefined;
  }, `the join confirmation mailed to ${email}`);
  return token!;
}

describe("build.distributed and tester.joined reach a local receiver, signed", () => {
  it("a member adding testers, CI's complete with `distribute`, a dashboard distribute and a join through the invite link", async () => {
    const owner = await member();
    const workspaceId = owner.personal;
    const { projectId } = await newProject(owner.b);
    const key = await newDashboardKey(owner.b, projectId);
    const hook = await receiver();
    const made = await dash(owner.b, "POST", `/api/workspaces/${workspaceId}/webhooks`, { url: hook.url, events: ["build.distributed", "tester.joined"] });
    expect(made.status, made.text).toBe(201);
    const secret = made.json.secret as string;
    // Subscribed to neither: gets nothing of all this.
    const other = await receiver();
    expect((await dash(owner.b, "POST", `/api/workspaces/${workspaceId}/webhooks`, { url: other.url, events: ["build.deleted"] })).status).toBe(201);

    // A group, and two addresses a member adds to it: one tester.joined each, `via: "added"`.
    const group = await dash(owner.b, "POST", `/api/workspaces/${workspaceId}/groups`, { name: "QA" });
    expect(group.status, group.text).toBe(201);
    const groupId = group.json.groupId as string;
    const [first, second] = [uniqueEmail("added-one"), uniqueEmail("added-two")];
    expect((await dash(owner.b, "POST", `/api/groups/${groupId}/testers`, { emails: [first, second] })).status).toBe(200);
    await eventually(async () => hook.received.length >= 2, "two tester.joined");
    const added = verified(secret, hook.received.slice(0, 2));
    expect(added.map((e) => e.data.tester.email).sort()).toEqual([first, second].sort());
    for (const event of added) {
      expect(event).toEqual({
        type: "tester.joined",
        timestamp: expect.any(String),
        data: { workspaceId, tester: { email: event.data.tester.email }, group: { groupId, name: "QA" }, via: "added" },
      });
    }
    // Adding the same address again changes nothing, and says nothing.
    expect((await dash(owner.b, "POST", `/api/groups/${groupId}/testers`, { emails: [first] })).status).toBe(200);

    // CI: complete with `distribute` names the group; the event carries the build and its links.
    const build = await uploadIpa(key, "App.ipa", { branch: "release/3.1", commit: "9f8e7d6c", distribute: { groups: ["QA"], message: "From CI" } });
    await eventually(async () => hook.received.length >= 3, "build.distributed from complete");
    const [fromCi] = verified(secret, hook.received.slice(2, 3));
    expect(fromCi!.type).toBe("build.distributed");
    expect(fromCi!.data).toMatchObject({
      workspaceId,
      build: { fileId: build.fileId, projectId, branch: "release/3.1", commit: "9f8e7d6c", links: { share: build.shareUrl, download: build.downloadUrl, qr: `${build.shareUrl}/qr.svg` } },
      distribution: { distributionId: expect.stringMatching(/^dst_/), groups: [{ groupId, name: "QA" }], recipients: 2, message: "From CI" },
      actor: { kind: "apiKey", clientId: key.clientId },
    });
    expect(fromCi!.data.build.appName).toBeTruthy();

    // The dashboard: a member sends it to one more address.
    const sent = await dash(owner.b, "POST", `/api/files/${build.fileId}/distribute`, { testers: [uniqueEmail("direct")], notify: false });
    expect(sent.status, sent.text).toBe(202);
    await eventually(async () => hook.received.length >= 4, "build.distributed from the dashboard");
    const [fromDashboard] = verified(secret, hook.received.slice(3, 4));
    expect(fromDashboard!.data).toMatchObject({
      build: { fileId: build.fileId },
      distribution: { distributionId: sent.json.distributionId, groups: [], recipients: 1, message: null },
      actor: { kind: "user", userId: owner.userId },
    });

    // Someone joins through the group's invite link: tester.joined, `via: "invite_link"`.
    const link = await dash(owner.b, "POST", `/api/groups/${groupId}/invite-link`, {});
    expect(link.status, link.text).toBe(201);
    const linkToken = new RegExp(`/join/(${TOKEN})$`).exec(link.json.url as string)![1]!;
    const joiner = uniqueEmail("joiner");
    expect((await dash(browser(), "POST", "/api/join", { token: linkToken, email: joiner })).status).toBe(202);
    const session = await dash(browser(), "POST", "/api/tester/session", { token: await confirmationToken(joiner) });
    expect(session.status, session.text).toBe(200);
    await eventually(async () => hook.received.length >= 5, "tester.joined from the invite link");
    const [joined] = verified(secret, hook.received.slice(4, 5));
    expect(joined).toEqual({
      type: "tester.joined",
      timestamp: expect.any(String),
      data: { workspaceId, tester: { email: joiner }, group: { groupId, name: "QA" }, via: "invite_link" },
    });

    // Every id is its own delivery, in the endpoint's log; the other endpoint got nothing.
    expect(new Set(hook.received.map((r) => r.headers["webhook-id"])).size).toBe(5);
    const log = await dash(owner.b, "GET", `/api/webhooks/${made.json.webhookId}/deliveries`);
    expect(log.json.items.map((d: { event: string }) => d.event).sort()).toEqual(["build.distributed", "build.distributed", "tester.joined", "tester.joined", "tester.joined"]);
    expect(hook.received).toHaveLength(5);
    expect(other.received).toEqual([]);
  });
});
