import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { sendExpiryWarnings, type WatchedProject } from "@hangar/core";
import { UNSUBSCRIBE_SECRET, unsubscribeToken } from "@hangar/core/distribution";
import { DynamoExpiryWarnings, DynamoStageSecret } from "@hangar/core/dynamo";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call, db, stack, upload, readFixture } from "./support/api";
import { dash, type Browser } from "./support/accounts";
import { newDashboardKey, uploadIpa } from "./support/dashboard";
import { expiryMails, expiryRunDeps as deps, setProfileExpiry } from "./support/expiry";
import { fixtures } from "./support/fixtures";
import { addMember, member, newWorkspace } from "./support/workspaces";

/**
 * Expiry warnings (issue 24 item 4, docs/release-safety.md): the core use case the daily
 * housekeeping run calls, with the clock injected, on the real adapters against the local stack's
 * DynamoDB Local and MailDev. The profile of the IPA fixture (xml-plist.ipa, a development
 * profile) expires 2036-03-01T12:00:00Z, so the runs below are days of February 2036.
 *
 * The one thing narrowed: the run's list of projects keeps this test's workspace only (the real
 * Scan is asserted to find it), so mails to other tests' members (their builds carry the same
 * profile) never interfere with their own counts of mail.
 */
const day = (iso: string) => new Date(iso);

interface Team {
  owner: { b: Browser; email: string; userId: string };
  admin: { b: Browser; email: string; userId: string };
  developer: { email: string };
  viewer: { email: string };
  workspaceId: string;
  projectId: string;
  fileId: string;
}

async function team(): Promise<Team> {
  const owner = await member();
  const ws = await newWorkspace(owner.b, "Release <Team>");
  const [admin, developer, viewer] = await Promise.all([member(), member(), member()]);
  await addMember(ws.workspaceId, admin.userId, "admin");
  await addMember(ws.workspaceId, developer.userId, "developer");
  await addMember(ws.workspaceId, viewer.userId, "viewer");
  const made = await dash(owner.b, "POST", "/api/projects", { name: "Rocket & Co", description: "", color: "blue", workspaceId: ws.workspaceId });
  expect(made.status, made.text).toBe(201);
  const projectId = made.json.projectId as string;
  const key = await newDashboardKey(owner.b, projectId);
  // An older build of the same app first: only the latest one is warned about.
  await uploadIpa(key, "Old.ipa");
  const { fileId } = await uploadIpa(key, "Rocket.ipa");
  return { owner, admin, developer, viewer, workspaceId: ws.workspaceId, projectId, fileId };
}

async function headersOf(mail: { id?: string }): Promise<Record<string, string>> {
  const res = await fetch(`${stack().mailUrl}/api/email/${mail.id}/source`);
  expect(res.status).toBe(200);
  const source = await res.text();
  const head = source.slice(0, source.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, " ");
  return Object.fromEntries(head.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
}

describe("expiry warnings, with the clock injected", () => {
  let t: Team;
  beforeAll(async () => {
    t = await team();
  });

  it("the daily run's Scan finds the workspace's project", async () => {
    const found: WatchedProject[] = [];
    for await (const page of new DynamoExpiryWarnings(db(), stack().tableName).projects()) found.push(...page);
    expect(found).toContainEqual({ workspaceId: t.workspaceId, projectId: t.projectId, name: "Rocket & Co" });
  });

  it("30 days before: exactly one mail per owner and admin, none to developers or viewers; a second run sends nothing", async () => {
    const first = await sendExpiryWarnings(deps([t.workspaceId]), day("2036-02-01T00:00:00Z"));
    expect(first).toMatchObject({ projects: 1, builds: 1, warnings: 1, mailed: 2, failed: 0 });
    for (const who of [t.owner, t.admin]) {
      const mails = await expiryMails(who.email, 1);
      expect(mails.map((m) => m.subject), who.email).toEqual(["Profile expires in 30 days: Demo App 1.4.2 (142) for iOS"]);
    }
    const again = await sendExpiryWarnings(deps([t.workspaceId]), day("2036-02-01T06:00:00Z"));
    expect(again).toMatchObject({ warnings: 0, mailed: 0 });
    for (const who of [t.owner, t.admin]) expect(await expiryMails(who.email)).toHaveLength(1);
    // (Their sign-up's verification mail is all they have.)
    for (const who of [t.developer, t.viewer]) expect(await expiryMails(who.email)).toEqual([]);
    // The marker of the threshold, in the build's partition (purged with it).
    const marker = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `FILE#${t.fileId}`, sk: "EXPIRYWARNING#profile#30" }, ConsistentRead: true }));
    expect(marker.Item).toMatchObject({ type: "expiryWarning", thresholdDays: 30, at: "2036-02-01T00:00:00.000Z" });
  });

  it("the mail: text and HTML, why it was sent, what expires and when, the build's page, RFC 8058 one-click", async () => {
    const [mail] = await expiryMails(t.admin.email, 1);
    for (const part of [mail!.text, mail!.html]) {
      expect(part).toContain("development provisioning profile of Demo App 1.4.2 (142) for iOS");
      expect(part).toContain("Sat, 1 Mar 2036, 12:00 UTC");
      expect(part).toContain(`${stack().baseUrl}/files/${t.fileId}`);
    }
    expect(mail!.text).toContain("you are an admin of the workspace Release <Team> on Hangar");
    // Names people typed are escaped in the HTML.
    expect(mail!.html).toContain("Release &lt;Team&gt;");
    expect(mail!.html).toContain("Rocket &amp; Co");
    expect(mail!.html).not.toContain("<Team>");
    const [ownerMail] = await expiryMails(t.owner.email, 1);
    expect(ownerMail!.text).toContain("you are an owner of the workspace");
    const headers = await headersOf(mail as { id?: string });
    expect(headers["list-unsubscribe"]).toMatch(new RegExp(`^<${stack().baseUrl}/unsubscribe/expiry/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}>$`));
    expect(headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.html).toContain(headers["list-unsubscribe"]!.slice(1, -1));
  });

  it("23 days later two runs at once send the 7-day warning exactly once", async () => {
    const [a, b] = await Promise.all([
      sendExpiryWarnings(deps([t.workspaceId]), day("2036-02-24T00:00:00Z")),
      sendExpiryWarnings(deps([t.workspaceId]), day("2036-02-24T00:00:00Z")),
    ]);
    expect(a.warnings + b.warnings).toBe(1);
    expect(a.mailed + b.mailed).toBe(2);
    for (const who of [t.owner, t.admin]) {
      const subjects = (await expiryMails(who.email, 2)).map((m) => m.subject);
      expect(subjects).toEqual(["Profile expires in 30 days: Demo App 1.4.2 (142) for iOS", "Profile expires in 7 days: Demo App 1.4.2 (142) for iOS"]);
    }
  });

  it("one-click unsubscribe stops that person's warnings (and only theirs); a bad token is a 404 page", async () => {
    const [mail] = await expiryMails(t.admin.email, 1);
    const path = new URL((await headersOf(mail as { id?: string }))["list-unsubscribe"]!.slice(1, -1)).pathname;
    const page = await call(path, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.text).toContain("Stop expiry warnings?");
    expect(page.text).toContain(t.admin.email);
    const done = await call(path, { method: "POST", rawBody: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain("will no longer get expiry warnings");
    const forged = await call(`${path.slice(0, -3)}AAA`, { method: "POST", rawBody: "List-Unsubscribe=One-Click", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(forged.status).toBe(404);
    // A build-mail token (same stage secret, another domain prefix) opens nothing here.
    const secret = await new DynamoStageSecret(db(), stack().tableName, UNSUBSCRIBE_SECRET).bytes();
    const buildMailToken = unsubscribeToken(secret, { workspaceId: t.workspaceId, projectId: t.projectId, email: t.owner.email });
    expect((await call(`/unsubscribe/expiry/${buildMailToken}`, { headers: { Accept: "text/html" } })).status).toBe(404);
    const stored = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `USER#${t.admin.userId}`, sk: "PREF#expiry-mail" }, ConsistentRead: true }));
    expect(stored.Item).toMatchObject({ type: "expiryMailOptOut", userId: t.admin.userId });

    const last = await sendExpiryWarnings(deps([t.workspaceId]), day("2036-03-01T00:00:00Z"));
    expect(last).toMatchObject({ warnings: 1, mailed: 1 });
    expect((await expiryMails(t.owner.email, 3)).map((m) => m.subject).at(-1)).toBe("Profile expires within a day: Demo App 1.4.2 (142) for iOS");
    expect(await expiryMails(t.admin.email)).toHaveLength(2);
  });

  it("a run that first sees a build 5 days before expiry sends only the 7-day warning", async () => {
    const other = await team();
    const run = await sendExpiryWarnings(deps([other.workspaceId]), day("2036-02-25T12:00:00Z"));
    expect(run).toMatchObject({ warnings: 1, mailed: 2 });
    expect((await expiryMails(other.owner.email, 1)).map((m) => m.subject)).toEqual(["Profile expires in 5 days: Demo App 1.4.2 (142) for iOS"]);
    // The wider threshold is settled: 30 days never comes afterwards.
    expect(await sendExpiryWarnings(deps([other.workspaceId]), day("2036-02-26T00:00:00Z"))).toMatchObject({ warnings: 0 });
  });

  it("a share link that expires within a day is warned about once; App Store builds and links without expiry are not", async () => {
    const owner = await member();
    const made = await dash(owner.b, "POST", "/api/projects", { name: "Links", description: "", color: "blue", workspaceId: owner.personal });
    const key = await newDashboardKey(owner.b, made.json.projectId as string);
    const apk = fixtures("apk")[0]!;
    const { completed } = await upload(key, "App.apk", readFixture(apk));
    expect(completed.status, completed.text).toBe(200);
    const fileId = completed.json.fileId as string;
    const soon = new Date(Date.now() + 20 * 60 * 60 * 1000).toISOString();
    const set = await dash(owner.b, "PATCH", `/api/files/${fileId}/share`, { expiresAt: soon });
    expect(set.status, set.text).toBe(200);
    const run = await sendExpiryWarnings(deps([owner.personal]), new Date());
    expect(run).toMatchObject({ warnings: 1, mailed: 1 });
    const mails = await expiryMails(owner.email, 1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Share link expires within a day: /);
    expect(mails[0]!.text).toContain("The share link of");
    expect(await sendExpiryWarnings(deps([owner.personal]), new Date())).toMatchObject({ warnings: 0 });
  });
});

describe("GET /api/workspaces/{workspaceId}/expiring", () => {
  it("lists the latest builds whose profile expires within 30 days, for every member; a non-member gets 404", async () => {
    const t = await team();
    // The fixture's profile expires in 2036: moved to 12 days from now on the stored record, as a build signed today would be.
    const soon = new Date(Date.now() + 12 * 24 * 60 * 60 * 1000 - 60_000).toISOString();
    await setProfileExpiry(t.fileId, soon);
    const listed = await dash(t.owner.b, "GET", `/api/workspaces/${t.workspaceId}/expiring`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json).toEqual({
      items: [
        { fileId: t.fileId, projectId: t.projectId, projectName: "Rocket & Co", platform: "ios", version: "1.4.2", build: "142", kind: "profile", expiresAt: soon, daysLeft: 12 },
      ],
    });
    expect((await dash(t.admin.b, "GET", `/api/workspaces/${t.workspaceId}/expiring`)).json.items).toHaveLength(1);
    const stranger = await member();
    expect((await dash(stranger.b, "GET", `/api/workspaces/${t.workspaceId}/expiring`)).status).toBe(404);
    // The fixture's own date (2036) is far: another team's list is empty.
    const far = await team();
    expect((await dash(far.owner.b, "GET", `/api/workspaces/${far.workspaceId}/expiring`)).json).toEqual({ items: [] });
  });
});

describe("runDailyExpiryWarnings, as the housekeeping function composes it", () => {
  it("scans every project with the function's own adapters and mails what is due at the given time", async () => {
    // The function's environment on AWS, pointed at the local stack (SMTP instead of SES).
    const s = stack();
    vi.stubEnv("HANGAR_TABLE_NAME", s.tableName);
    vi.stubEnv("HANGAR_BUCKET_NAME", s.bucketName);
    vi.stubEnv("HANGAR_DYNAMODB_ENDPOINT", s.dynamoEndpoint);
    vi.stubEnv("HANGAR_LOCAL", "1");
    vi.stubEnv("HANGAR_SMTP_URL", `smtp://127.0.0.1:${s.smtpPort}`);
    vi.stubEnv("HANGAR_PUBLIC_URL", s.baseUrl);
    vi.stubEnv("AWS_REGION", s.region);
    vi.stubEnv("AWS_ACCESS_KEY_ID", s.credentials.accessKeyId);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", s.credentials.secretAccessKey);
    const { runDailyExpiryWarnings } = await import("../packages/functions/src/housekeeping/daily-expiry");

    // A run on 1 January 2000 reaches this build alone: its profile is moved to expire on the 20th,
    // every other build on the stack expires (profile or link) years later.
    const t = await team();
    await setProfileExpiry(t.fileId, "2000-01-20T00:00:00.000Z");
    const outcome = await runDailyExpiryWarnings(new Date("2000-01-01T00:00:00Z"));
    expect(outcome.projects).toBeGreaterThanOrEqual(1);
    expect(outcome).toMatchObject({ warnings: 1, mailed: 2, failed: 0 });
    for (const who of [t.owner, t.admin]) {
      const [mail] = await expiryMails(who.email, 1);
      expect(mail!.subject).toBe("Profile expires in 19 days: Demo App 1.4.2 (142) for iOS");
      expect(mail!.text).toContain(`${s.baseUrl}/files/${t.fileId}`);
      expect(mail!.text).toContain(`${s.baseUrl}/unsubscribe/expiry/`);
    }
    expect(await runDailyExpiryWarnings(new Date("2000-01-01T00:00:00Z"))).toMatchObject({ warnings: 0, mailed: 0 });
    vi.unstubAllEnvs();
  });
});
