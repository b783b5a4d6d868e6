import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, uniqueEmail, type Browser } from "./support/accounts";
import { call, db, presign, stack, type Key } from "./support/api";
import { newDashboardKey, uploadIpa } from "./support/dashboard";
import { seedGroup } from "./support/tester-groups-seed";
import { addMember, member, newWorkspace } from "./support/workspaces";
import { runCli } from "../packages/cli/test/upload/support/run-cli";
import { ipaPath } from "./support/dashboard";

/*
 * Distribution and build mail (issue 20 items 3 and 4, docs/testers.md "Distribution and build
 * mail") on the local stack: real MailDev, real DynamoDB Local, the in-process sender. Groups are
 * seeded in DynamoDB Local in the items' format of docs/data-model.md (the groups API has its own
 * tests).
 */

interface Mail {
  id: string;
  to: { address: string }[];
  subject: string;
  text: string;
  html: string;
}

/** The header fields of a caught mail, from its raw source (MailDev's parsed `headers` keep only a few), names lower-cased, folding undone. */
async function headersOf(mail: Mail): Promise<Record<string, string>> {
  const res = await fetch(`${stack().mailUrl}/api/email/${mail.id}/source`);
  expect(res.status).toBe(200);
  const source = await res.text();
  const head = source.slice(0, source.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  return Object.fromEntries(head.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
}

async function allMails(): Promise<Mail[]> {
  const res = await fetch(`${stack().mailUrl}/api/email`);
  expect(res.status).toBe(200);
  return (await res.json()) as Mail[];
}

/** The build mails to `address` (subject "New build: …"). */
async function buildMailsTo(address: string): Promise<Mail[]> {
  return (await allMails()).filter((m) => m.subject.startsWith("New build:") && m.to.some((t) => t.address.toLowerCase() === address));
}

/** Waits until every recipient of the build left `queued`/`sending` (the sender is done with it). */
async function settled(b: Browser, fileId: string): Promise<{ email: string; status: string; sentAt: string | null }[]> {
  for (let waited = 0; ; waited += 100) {
    const reply = await dash(b, "GET", `/api/files/${fileId}/distributions`);
    expect(reply.status, reply.text).toBe(200);
    const recipients = reply.json.recipients as { email: string; status: string; sentAt: string | null }[];
    if (recipients.every((r) => r.status !== "queued" && r.status !== "sending")) return recipients;
    if (waited > 30_000) throw new Error(`recipients still waiting: ${JSON.stringify(recipients)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const distribute = (b: Browser, fileId: string, body: unknown) => dash(b, "POST", `/api/files/${fileId}/distribute`, body);

interface Team {
  owner: Browser;
  workspaceId: string;
  projectId: string;
  key: Key;
}

async function team(name = "QA Team"): Promise<Team> {
  const { b } = await member();
  const { workspaceId } = await newWorkspace(b, name);
  const made = await dash(b, "POST", "/api/projects", { name: `App ${Math.random().toString(36).slice(2, 8)}`, description: "", color: "blue", workspaceId });
  expect(made.status, made.text).toBe(201);
  const projectId = made.json.projectId as string;
  return { owner: b, workspaceId, projectId, key: await newDashboardKey(b, projectId) };
}

describe("distributing a build to testers", () => {
  let t: Team;
  const a = uniqueEmail("tester-a");
  const bb = uniqueEmail("tester-b");
  const both = uniqueEmail("tester-both");
  const nobody = uniqueEmail("tester-none");
  let qa: string;
  let beta: string;
  let fileId: string;

  beforeAll(async () => {
    t = await team();
    qa = await seedGroup(t.workspaceId, "QA", [a, both]);
    beta = await seedGroup(t.workspaceId, "Beta", [bb, both]);
    fileId = (await uploadIpa(t.key)).fileId;
  });

  it("two groups with an overlapping tester: exactly one mail per tester, answered at once with 202", async () => {
    const sent = await distribute(t.owner, fileId, { groups: [qa, "beta"], message: "Please test the login" });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.json).toMatchObject({ recipients: 3, queued: 3, capped: 0 });
    expect(sent.json.distributionId).toMatch(/^dst_[A-Za-z0-9]{16}$/);
    const recipients = await settled(t.owner, fileId);
    expect(recipients.map((r) => [r.email, r.status])).toEqual([a, both, bb].sort().map((e) => [e, "sent"]));
    for (const address of [a, bb, both]) expect(await buildMailsTo(address), address).toHaveLength(1);
    // A tester in no group gets nothing.
    expect(await buildMailsTo(nobody)).toHaveLength(0);
  });

  it("a second distribution of the same build sends no second mail", async () => {
    const again = await distribute(t.owner, fileId, { groups: ["QA", "Beta"], testers: [both.toUpperCase()] });
    expect(again.status, again.text).toBe(202);
    expect(again.json).toMatchObject({ recipients: 3, queued: 0 });
    await settled(t.owner, fileId);
    for (const address of [a, bb, both]) expect(await buildMailsTo(address), address).toHaveLength(1);
    const listed = await dash(t.owner, "GET", `/api/files/${fileId}/distributions`);
    expect(listed.json.items).toHaveLength(2);
    expect(listed.json.items[1]).toMatchObject({ groups: [{ groupId: qa, name: "QA" }, { groupId: beta, name: "Beta" }], message: "Please test the login", notify: true, recipients: 3 });
  });

  it("the mail has text and HTML parts, the personal install link, the portal and RFC 8058 headers", async () => {
    const [mail] = await buildMailsTo(a);
    expect(mail!.text).toContain("Please test the login");
    expect(mail!.html).toContain("Please test the login");
    const install = new RegExp(`${stack().baseUrl}/install/([A-Za-z0-9_-]{43})`);
    expect(mail!.text).toMatch(install);
    expect(mail!.html).toMatch(install);
    expect(mail!.text).toContain(`${stack().baseUrl}/apps`);
    expect(mail!.text).toContain("“QA”");
    const headers = await headersOf(mail!);
    const unsubscribe = headers["list-unsubscribe"];
    expect(unsubscribe).toMatch(new RegExp(`^<${stack().baseUrl}/unsubscribe/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}>$`));
    expect(headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.html).toContain(unsubscribe!.slice(1, -1));
    // The install link of another tester is another link.
    const [other] = await buildMailsTo(bb);
    expect(install.exec(other!.text)![1]).not.toBe(install.exec(mail!.text)![1]);
    // Its install link item exists for exactly this tester and build.
    const { Items } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `FILE#${fileId}`, sk: `RECIPIENT#${a}` } })).then((r) => ({ Items: [r.Item] }));
    expect(Items[0]).toMatchObject({ type: "recipient", status: "sent", gsi1pk: `TESTER#${a}` });
  });

  it("one-click unsubscribe (RFC 8058 POST) stops the next build's mail for that project", async () => {
    const [mail] = await buildMailsTo(both);
    const url = (await headersOf(mail!))["list-unsubscribe"]!.slice(1, -1);
    const path = new URL(url).pathname;
    const page = await call(path, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("<form method=\"post\"");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const done = await call(path, { method: "POST", rawBody: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain("You will no longer get mail about");

    const next = (await uploadIpa(t.key, "App-2.ipa")).fileId;
    const sent = await distribute(t.owner, next, { groups: ["QA", "Beta"] });
    expect(sent.json).toMatchObject({ recipients: 3, queued: 2 });
    const recipients = await settled(t.owner, next);
    expect(recipients.find((r) => r.email === both)!.status).toBe("unsubscribed");
    expect(await buildMailsTo(both)).toHaveLength(1);
    expect(await buildMailsTo(a)).toHaveLength(2);
  });

  it("another workspace's group id, or an unknown name, is 404 group_not_found naming them; nothing is written", async () => {
    const other = await team("Other team");
    const theirs = await seedGroup(other.workspaceId, "Theirs", [uniqueEmail("theirs")]);
    const refused = await distribute(t.owner, fileId, { groups: [theirs, "QA", "qe"] });
    expect(refused.status, refused.text).toBe(404);
    expect(refused.json.error).toMatchObject({ code: "group_not_found", missing: [theirs, "qe"] });
    // Nor can the other team send this team's build.
    const foreign = await distribute(other.owner, fileId, { groups: ["Theirs"] });
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe("file_not_found");
  });

  it("notify false records silent copies and sends no mail; explicit addresses need no group", async () => {
    const quiet = uniqueEmail("quiet");
    const build = (await uploadIpa(t.key, "App-3.ipa")).fileId;
    const sent = await distribute(t.owner, build, { testers: [quiet], notify: false });
    expect(sent.json).toMatchObject({ recipients: 1, queued: 0 });
    expect((await settled(t.owner, build)).map((r) => r.status)).toEqual(["silent"]);
    const direct = uniqueEmail("direct");
    const mailed = await distribute(t.owner, build, { testers: [` ${direct.toUpperCase()} `] });
    expect(mailed.json).toMatchObject({ recipients: 1, queued: 1 });
    await settled(t.owner, build);
    const [mail] = await buildMailsTo(direct);
    expect(mail!.text).toContain("sent this build to");
    expect(await buildMailsTo(quiet)).toHaveLength(0);
  });

  it("escapes a hostile app name and message in the HTML part", async () => {
    const build = (await uploadIpa(t.key, "App-4.ipa")).fileId;
    // The app's name comes from the package's Info.plist: what a hostile build would carry.
    const { Item: file } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `FILE#${build}`, sk: "FILE" } }));
    const metadata = { ...JSON.parse(file!.metadata as string), appName: `<img src=x onerror=alert(1)>"App"` };
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `FILE#${build}`, sk: "FILE" },
        UpdateExpression: "SET metadata = :metadata",
        ExpressionAttributeValues: { ":metadata": JSON.stringify(metadata) },
      }),
    );
    const target = uniqueEmail("hostile");
    const sent = await distribute(t.owner, build, { testers: [target], message: `</div><script>alert("m")</script>\nline two` });
    expect(sent.status, sent.text).toBe(202);
    await settled(t.owner, build);
    const [mail] = await buildMailsTo(target);
    expect(mail!.html).not.toContain("<script>");
    expect(mail!.html).not.toContain("<img src=x");
    expect(mail!.html).toContain("&lt;script&gt;");
    expect(mail!.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(mail!.text).toContain(`</div><script>alert("m")</script>\nline two`);
    expect(mail!.subject).toContain(`<img src=x onerror=alert(1)>"App"`);
  });

  it("default groups get every upload: an API key's complete answers the distribution", async () => {
    const put = await dash(t.owner, "PUT", `/api/projects/${t.projectId}/default-groups`, { groupIds: ["QA"] });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toEqual({ groupIds: [qa] });
    expect((await dash(t.owner, "GET", `/api/projects/${t.projectId}/default-groups`)).json).toEqual({ groupIds: [qa] });
    const before = (await buildMailsTo(a)).length;
    const done = await uploadIpa(t.key, "App-5.ipa");
    const completed = done as unknown as { distribution: { recipients: number; queued: number } };
    // QA is `a` and `both`; `both` unsubscribed from this project above.
    expect(completed.distribution).toMatchObject({ recipients: 2, queued: 1 });
    await settled(t.owner, done.fileId);
    expect(await buildMailsTo(a)).toHaveLength(before + 1);
    const listed = await dash(t.owner, "GET", `/api/files/${done.fileId}/distributions`);
    expect(listed.json.items[0].createdBy).toEqual({ clientId: t.key.clientId });
    // complete's own `distribute`, by name, beside the default group; an unknown group fails the complete before it completes.
    const extra = uniqueEmail("extra");
    const withGroups = await uploadIpa(t.key, "App-6.ipa", { distribute: { groups: ["beta"], testers: [extra], message: "From CI" } });
    expect((withGroups as unknown as { distribution: { recipients: number } }).distribution.recipients).toBe(4);
    const presigned = await presign(t.key, { fileName: "App-7.ipa", fileSize: 10, fileType: "application/octet-stream" });
    const typo = await call("/api/upload/api-key/complete", {
      key: t.key,
      body: { key: presigned.json.key, fileName: "App-7.ipa", fileSize: 10, fileType: "application/octet-stream", distribute: { groups: ["qe"] } },
    });
    expect(typo.status, typo.text).toBe(404);
    expect(typo.json.error).toMatchObject({ code: "group_not_found", missing: ["qe"] });
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `FILE#${presigned.json.fileId}`, sk: "FILE" } }));
    expect(Item!.status).toBe("pending");
    await dash(t.owner, "PUT", `/api/projects/${t.projectId}/default-groups`, { groupIds: [] });
  });

  it("a build that is not completed is 409; a viewer cannot distribute (403) but sees the distributions", async () => {
    const presigned = await presign(t.key, { fileName: "Pending.ipa", fileSize: 10, fileType: "application/octet-stream" });
    const pending = await distribute(t.owner, presigned.json.fileId, { groups: ["QA"] });
    expect(pending.status, pending.text).toBe(409);
    expect(pending.json.error.code).toBe("build_not_completed");
    const viewer = await member();
    await addMember(t.workspaceId, viewer.userId, "viewer");
    const refused = await distribute(viewer.b, fileId, { groups: ["QA"] });
    expect(refused.status, refused.text).toBe(403);
    expect((await dash(viewer.b, "GET", `/api/files/${fileId}/distributions`)).status).toBe(200);
    expect((await dash(viewer.b, "PUT", `/api/projects/${t.projectId}/default-groups`, { groupIds: [] })).status).toBe(403);
  });

  it("hostile input never answers 5xx", async () => {
    const bodies: unknown[] = [
      {},
      { groups: [] },
      { groups: [""] },
      { groups: ["x".repeat(10_000)] },
      { testers: ["not an address"] },
      { testers: ["a@b"] },
      { testers: Array.from({ length: 1001 }, (_, i) => `t${i}@hangar.test`) },
      { groups: ["QA"], notify: "yes" },
      { groups: ["QA"], message: "x".repeat(1001) },
      { groups: ["QA"], message: "bell\u0007" },
      { groups: ["QA"], message: "\ud800" },
      { groups: [{ $ne: 1 }] },
      [],
      "groups",
    ];
    for (const body of bodies) {
      const reply = await distribute(t.owner, fileId, body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(reply.status, reply.text).toBeLessThan(500);
    }
    for (const path of [`/api/files/%ff/distribute`, `/api/files/${"f".repeat(500)}/distribute`, `/api/files/fil_nope/distribute`]) {
      const reply = await distribute(t.owner, path.split("/")[3]!, { groups: ["QA"] });
      expect(reply.status).toBeLessThan(500);
    }
    for (const token of ["x", "a.b", `${"A".repeat(60)}.${"B".repeat(43)}`, "%ff", "x".repeat(2000), "<script>"]) {
      for (const method of ["GET", "POST"]) {
        const reply = await call(`/unsubscribe/${encodeURIComponent(token)}`, { method, headers: { Accept: "text/html" } });
        expect(reply.status, `${method} ${token.slice(0, 20)}`).toBe(404);
      }
    }
    expect((await dash(t.owner, "PUT", `/api/projects/${t.projectId}/default-groups`, { groupIds: ["nope"] })).status).toBe(404);
    expect((await dash(t.owner, "PUT", `/api/projects/${t.projectId}/default-groups`, { groupIds: "QA" })).status).toBe(400);
  });
});

describe("unsubscribe links", () => {
  it("a token of one project cannot be bent to another: any change to it names nothing", async () => {
    const t = await team("Unsub team");
    const who = uniqueEmail("unsub");
    await seedGroup(t.workspaceId, "QA", [who]);
    const fileId = (await uploadIpa(t.key)).fileId;
    expect((await distribute(t.owner, fileId, { groups: ["QA"] })).status).toBe(202);
    await settled(t.owner, fileId);
    const [mail] = await buildMailsTo(who);
    const token = (await headersOf(mail!))["list-unsubscribe"]!.slice(1, -1).split("/unsubscribe/")[1]!;
    const [payload, mac] = token.split(".");
    const forged = Buffer.from(Buffer.from(payload!, "base64url").toString().replace(t.projectId, "prj_other"), "utf8").toString("base64url");
    expect((await call(`/unsubscribe/${forged}.${mac}`, { method: "POST" })).status).toBe(404);
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `UNSUBSCRIBED#${who}`, sk: "PROJECT#prj_other" } }));
    expect(Item).toBeUndefined();
    // The page's own button (a form post with another body) unsubscribes too, and twice is fine.
    for (let i = 0; i < 2; i++) {
      const done = await call(`/unsubscribe/${token}`, { method: "POST", rawBody: "List-Unsubscribe=One-Click&x=1", headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" } });
      expect(done.status).toBe(200);
    }
  });
});

describe("the CLI", () => {
  it("hangar upload --groups --testers --message sends the build with complete; an unknown group fails before completing (exit 2)", async () => {
    const t = await team("CLI team");
    const inQa = uniqueEmail("cli-qa");
    const direct = uniqueEmail("cli-direct");
    await seedGroup(t.workspaceId, "QA", [inQa]);
    const env = { HANGAR_URL: stack().baseUrl, HANGAR_CLIENT_ID: t.key.clientId, HANGAR_CLIENT_SECRET: t.key.clientSecret };
    const typo = await runCli(["upload", ipaPath(), "--groups", "qe", "--quiet"], { env });
    expect(typo.code, typo.stderr).toBe(2);
    expect(typo.stderr).toContain("group_not_found");
    const run = await runCli(["upload", ipaPath(), "--groups", "qa", "--testers", direct, "--message", "Nightly <build>", "--json"], { env });
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { fileId: string; distribution: { recipients: number; queued: number } };
    expect(answer.distribution).toMatchObject({ recipients: 2, queued: 2 });
    await settled(t.owner, answer.fileId);
    for (const address of [inQa, direct]) {
      const mails = await buildMailsTo(address);
      expect(mails, address).toHaveLength(1);
      expect(mails[0]!.html).toContain("Nightly &lt;build&gt;");
    }
    const plain = await runCli(["upload", ipaPath(), "--groups", "QA"], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/Testers:\s+1 \(1 new mail queued\)/);
  });
});
