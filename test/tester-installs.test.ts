import { createHash, randomBytes } from "node:crypto";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { ScryptPasswordHasher } from "@hangar/core/accounts";
import { DynamoStageSecret, keys } from "@hangar/core/dynamo";
import { DynamoShareLinks } from "@hangar/core/links-dynamo";
import { newTokenSecret } from "@hangar/core/links";
import { INSTALL_LINK_SECRET, installLinkHash, installLinkToken } from "@hangar/core/testers";
import plist from "plist";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, newClientIp, type Browser } from "./support/accounts";
import { call, db, stack, type Key } from "./support/api";
import { eventually, expireLink, IOS_INSTALLER, itemsMentioning, outsideTheAuditLog, newDashboardKey, newProject, uploadIpa, withoutLinkTraces } from "./support/dashboard";
import { member, newWorkspace } from "./support/workspaces";

/**
 * Personal install links and who installed what (docs/testers.md), on the local stack. Until a
 * distribution writes them, the tests put a build's recipient and installLink items into the
 * table as the contract describes them (core's testers/install-link.ts makes the token), after a
 * real upload through the API.
 */

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const HTML = { Accept: "text/html,application/xhtml+xml" };
const HOSTILE = `<script>alert("x")</script> & 'quotes' "double"`;

let owner: { b: Browser; userId: string; personal: string };
let project: { projectId: string; name: string };
let key: Key;
let secret: Uint8Array;

/** A request from its own client address (the per-client rules never meet across tests). */
const visit = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  call(path, { method, headers: { "X-Hangar-Test-Client-Ip": newClientIp(), ...headers } });

/** What a distribution writes for one tester of one build (the contract's recipient and installLink items). */
async function sendTo(build: { fileId: string }, email: string): Promise<string> {
  const token = installLinkToken(secret, build.fileId, email);
  const at = new Date().toISOString();
  const common = { email, fileId: build.fileId, projectId: project.projectId, workspaceId: owner.personal, createdAt: at };
  await db().send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.installLink(installLinkHash(token)), type: "installLink", ...common } }));
  await db().send(
    new PutCommand({
      TableName: stack().tableName,
      Item: {
        ...keys.recipient(build.fileId, email),
        type: "recipient",
        ...common,
        distributionId: "dst_0000000000000000",
        status: "sent",
        gsi1pk: `TESTER#${email}`,
        gsi1sk: `BUILD#${at}#${build.fileId}`,
      },
    }),
  );
  return token;
}

/** A live tester session of `email`, as the tester sign-in leaves it; answers the cookie's token. */
async function testerSession(email: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + 30 * 86_400_000);
  await db().send(
    new PutCommand({
      TableName: stack().tableName,
      Item: {
        ...keys.testerSession(email, createHash("sha256").update(token).digest("hex")),
        type: "testerSession",
        email,
        createdAt: new Date().toISOString(),
        expiresAt: expiresAt.toISOString(),
        ttl: Math.floor(expiresAt.getTime() / 1000),
      },
    }),
  );
  return token;
}

const testerAddress = (label: string) => `${label}-${randomBytes(4).toString("hex")}@hangar.test`;

async function installsOf(fileId: string) {
  const reply = await dash(owner.b, "GET", `/api/files/${fileId}/installs`);
  expect(reply.status, reply.text).toBe(200);
  return reply.json.items as { email: string; firstAt: string; lastAt: string; downloads: number; installStarts: number; deviceFamily: string; via: string }[];
}

async function shareCounts(fileId: string): Promise<{ downloads: number; installs: number }> {
  const reply = await dash(owner.b, "GET", `/api/files/${fileId}`);
  expect(reply.status, reply.text).toBe(200);
  return { downloads: reply.json.share.downloads, installs: reply.json.share.installs };
}

const buttons = (html: string) =>
  [...html.matchAll(/<a class="button (?:primary|secondary)" href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => ({ href: m[1]!.replace(/&amp;/g, "&"), label: m[2] }));

beforeAll(async () => {
  owner = await member();
  project = await newProject(owner.b, `Installs ${randomBytes(3).toString("hex")}`);
  key = await newDashboardKey(owner.b, project.projectId);
  secret = await new DynamoStageSecret(db(), stack().tableName, INSTALL_LINK_SECRET).bytes();
}, 60_000);

describe("a tester's personal install link", () => {
  it("is the build's share page for that tester, saying whom it was sent to (escaped), with links under the personal address", async () => {
    const build = await uploadIpa(key, "Personal.ipa", { releaseNotes: HOSTILE });
    const email = testerAddress("o'brien");
    const token = await sendTo(build, email);
    const base = `${stack().baseUrl}/install/${token}`;

    const page = await visit(`/install/${token}`, { ...HTML, "User-Agent": IPHONE });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.text).toContain(`Sent to <strong>${email.replace("'", "&#39;")}</strong>`);
    expect(page.text).not.toContain(HOSTILE);
    expect(page.text).toContain("&lt;script&gt;alert(");
    const [install, download] = buttons(page.text);
    expect(install!.label).toBe("Install");
    expect(decodeURIComponent(install!.href.split("&url=")[1]!)).toBe(`${base}/manifest.plist`);
    expect(download!.href).toBe(`${base}/download`);

    // HEAD answers like GET without a body, and counts nothing.
    const head = await visit(`/install/${token}`, { ...HTML, "User-Agent": IPHONE }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(await installsOf(build.fileId)).toEqual([]);
  });

  it("counts a download for that tester only (302 to the package), and leaves the share link's counts as they were", async () => {
    const build = await uploadIpa(key, "Counted.ipa");
    const [a, b] = [testerAddress("a"), testerAddress("b")];
    const token = await sendTo(build, a);
    await sendTo(build, b);
    const before = await shareCounts(build.fileId);

    const reply = await visit(`/install/${token}/download`, { "User-Agent": DESKTOP });
    expect(reply.status).toBe(302);
    const pkg = await fetch(reply.headers.get("location")!);
    expect(pkg.status).toBe(200);
    expect(Number(pkg.headers.get("content-length"))).toBe(build.size);

    const rows = await installsOf(build.fileId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: a, downloads: 1, installStarts: 0, deviceFamily: "desktop", via: "link" });
    expect(rows[0]!.firstAt).toBe(rows[0]!.lastAt);
    expect(await shareCounts(build.fileId)).toEqual(before);

    // HEAD describes the package and counts nothing; a preview bot gets a page, not the package.
    const head = await visit(`/install/${token}/download`, { "User-Agent": DESKTOP }, "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(build.size);
    const bot = await visit(`/install/${token}/download`, { "User-Agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" });
    expect(bot.status).toBe(403);
    expect((await installsOf(build.fileId))[0]!.downloads).toBe(1);

    // Anonymous downloads through the share link count there, as always, and not for the tester.
    expect((await visit(`/download/${build.userKey}`, { "User-Agent": DESKTOP })).status).toBe(302);
    expect((await shareCounts(build.fileId)).downloads).toBe(before.downloads + 1);
    expect((await installsOf(build.fileId))[0]!.downloads).toBe(1);
  });

  it("serves an install manifest whose package is the personal download, and counts an iPhone's install start", async () => {
    const build = await uploadIpa(key, "Manifest.ipa");
    const email = testerAddress("phone");
    const token = await sendTo(build, email);
    const before = await shareCounts(build.fileId);

    const head = await visit(`/install/${token}/manifest.plist`, IOS_INSTALLER, "HEAD");
    expect(head.status).toBe(200);
    expect(await installsOf(build.fileId)).toEqual([]);

    const reply = await visit(`/install/${token}/manifest.plist`, IOS_INSTALLER);
    expect(reply.status).toBe(200);
    const parsed = plist.parse(reply.text) as { items: { assets: { kind: string; url: string }[] }[] };
    const assets = parsed.items[0]!.assets;
    expect(assets.find((x) => x.kind === "software-package")!.url).toBe(`${stack().baseUrl}/install/${token}/download`);
    const image = assets.find((x) => x.kind === "display-image");
    if (image) expect(image.url).toBe(`${stack().baseUrl}/install/${token}/icon.png`);

    // The installer then fetches the package through the personal download: one download too.
    expect((await visit(`/install/${token}/download`, IOS_INSTALLER)).status).toBe(302);
    const [row] = await installsOf(build.fileId);
    expect(row).toMatchObject({ email, installStarts: 1, downloads: 1, deviceFamily: "iPhone", via: "link" });
    expect(await shareCounts(build.fileId)).toEqual(before);
  });

  it("says `portal` when the request carried the tester's own session, and only theirs", async () => {
    const build = await uploadIpa(key, "Portal.ipa");
    const [a, b] = [testerAddress("portal-a"), testerAddress("portal-b")];
    const tokenA = await sendTo(build, a);
    const tokenB = await sendTo(build, b);
    const sessionA = await testerSession(a);

    // B's link with A's cookie: B's record, through the link (the cookie is not B's).
    expect((await visit(`/install/${tokenB}/download`, { "User-Agent": DESKTOP, Cookie: `hangar_tester=${sessionA}` })).status).toBe(302);
    // A's link with A's cookie: the portal.
    expect((await visit(`/install/${tokenA}/download`, { "User-Agent": PIXEL_UA, Cookie: `hangar_tester=${sessionA}` })).status).toBe(302);
    // A later request without the cookie (iOS's installer sends none) keeps it `portal`.
    expect((await visit(`/install/${tokenA}/download`, { "User-Agent": DESKTOP })).status).toBe(302);
    // A cookie that is no session at all changes nothing.
    expect((await visit(`/install/${tokenB}/download`, { "User-Agent": DESKTOP, Cookie: "hangar_tester=not-a-session-token-at-all" })).status).toBe(302);

    const rows = await installsOf(build.fileId);
    expect(rows.find((r) => r.email === a)).toMatchObject({ downloads: 2, via: "portal", deviceFamily: "desktop" });
    expect(rows.find((r) => r.email === b)).toMatchObject({ downloads: 2, via: "link" });
    // Newest lastAt first.
    expect(rows.map((r) => r.lastAt)).toEqual([...rows.map((r) => r.lastAt)].sort().reverse());
  });

  it("opens whatever the share link's password, expiry and cap say: the distribution is the grant", async () => {
    const build = await uploadIpa(key, "Locked.ipa");
    const email = testerAddress("locked");
    const token = await sendTo(build, email);
    const links = new DynamoShareLinks(db(), stack().tableName);
    expect(await links.update(build.userKey, { password: { hash: await new ScryptPasswordHasher().hash("secret words"), tokenSecret: newTokenSecret() } })).toBe(true);
    expect((await visit(`/share/${build.userKey}`, { ...HTML, "User-Agent": DESKTOP })).status).toBe(401);

    expect((await visit(`/install/${token}`, { ...HTML, "User-Agent": DESKTOP })).status).toBe(200);
    expect((await visit(`/install/${token}/download`, { "User-Agent": DESKTOP })).status).toBe(302);

    await links.update(build.userKey, { maxDownloads: 1, enabled: false });
    await expireLink(build.userKey);
    expect((await visit(`/share/${build.userKey}`, { ...HTML, "User-Agent": DESKTOP })).status).toBe(410);
    expect((await visit(`/install/${token}/download`, { "User-Agent": DESKTOP })).status).toBe(302);
    expect((await visit(`/install/${token}/manifest.plist`, IOS_INSTALLER)).status).toBe(200);
    expect((await installsOf(build.fileId))[0]).toMatchObject({ email, downloads: 2, installStarts: 1 });
  });

  it("answers 404 to tokens it never handed out, whatever their shape, and never a 5xx", async () => {
    const unknown = randomBytes(32).toString("base64url");
    const hostile = [
      "x",
      unknown,
      `${unknown}x`,
      "%ff",
      "..%2F..%2Fapi%2Faccount",
      "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
      "a".repeat(5000),
      encodeURIComponent("' OR 1=1 --"),
      "%00",
    ];
    for (const token of hostile) {
      for (const suffix of ["", "/download", "/manifest.plist", "/icon.png"]) {
        const reply = await visit(`/install/${token}${suffix}`, { ...HTML, "User-Agent": DESKTOP });
        expect(reply.status, `${token.slice(0, 40)}${suffix}`).toBeLessThan(500);
        expect([404, 414, 431]).toContain(reply.status);
      }
    }
    // As a page for browsers, as JSON for programs.
    const page = await visit(`/install/${unknown}`, { ...HTML, "User-Agent": DESKTOP });
    expect(page.text).toContain("No build at this link");
    const json = await visit(`/install/${unknown}/download`);
    expect(json.json.error.code).toBe("file_not_found");
  });
});

describe("who installed what", () => {
  it("lists a tester's builds in the workspace, the latest used first, with the project's name", async () => {
    const email = testerAddress("history");
    const first = await uploadIpa(key, "First.ipa");
    const second = await uploadIpa(key, "Second.ipa");
    const tokenFirst = await sendTo(first, email);
    const tokenSecond = await sendTo(second, email);
    expect((await visit(`/install/${tokenSecond}/download`, { "User-Agent": IPHONE })).status).toBe(302);
    expect((await visit(`/install/${tokenFirst}/download`, { "User-Agent": DESKTOP })).status).toBe(302);

    // The address in the path in any case: it is normalized like every tester address.
    const reply = await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/testers/${encodeURIComponent(email.toUpperCase())}/installs`);
    expect(reply.status, reply.text).toBe(200);
    const items = reply.json.items as Record<string, unknown>[];
    expect(items.map((i) => i.fileId)).toEqual([first.fileId, second.fileId]);
    expect(items[0]).toMatchObject({ projectId: project.projectId, projectName: project.name, platform: "ios", deviceFamily: "desktop", downloads: 1 });
    expect(items[1]).toMatchObject({ deviceFamily: "iPhone" });
    expect(typeof items[0]!.version).toBe("string");

    // The tester's last install in the workspace, for the group page.
    const last = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.lastInstall(owner.personal, email) }));
    expect(last.Item).toMatchObject({ fileId: first.fileId, projectId: project.projectId, platform: "ios" });

    // Another account sees neither list (404 as for ids that do not exist).
    const stranger = await member();
    expect((await dash(stranger.b, "GET", `/api/files/${first.fileId}/installs`)).status).toBe(404);
    expect((await dash(stranger.b, "GET", `/api/workspaces/${owner.personal}/testers/${encodeURIComponent(email)}/installs`)).status).toBe(404);
    // A malformed address names no tester.
    expect((await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/testers/not-an-address/installs`)).json.error.code).toBe("tester_not_found");
  });
});

describe("deleting builds leaves nothing of their testers", () => {
  /**
   * Every item that names the build, the tester or the tester's link, but the share link's and
   * personal links' traces (only the key, the reason and a TTL) and the audit log's entry of the delete.
   */
  async function leftOf(fileId: string, email: string, tokenHash: string) {
    const items = outsideTheAuditLog(withoutLinkTraces(await itemsMentioning(fileId, email, tokenHash)));
    return items.filter(
      (item) =>
        !(item.type === "installLink-ended" && item.ended === "removed" && typeof item.ttl === "number" && Object.keys(item).sort().join() === "ended,pk,sk,ttl,type"),
    );
  }

  it("a deleted build: its personal links answer 410, its recipients, installs, links and the tester's last install are gone", async () => {
    const build = await uploadIpa(key, "Doomed.ipa");
    const email = testerAddress("doomed");
    const token = await sendTo(build, email);
    expect((await visit(`/install/${token}/download`, { "User-Agent": DESKTOP })).status).toBe(302);
    expect(await installsOf(build.fileId)).toHaveLength(1);

    expect((await dash(owner.b, "DELETE", `/api/files/${build.fileId}`)).status).toBe(204);
    const page = await visit(`/install/${token}`, { ...HTML, "User-Agent": DESKTOP });
    expect(page.status).toBe(410);
    expect(page.text).toContain("This build was removed");
    expect((await visit(`/install/${token}/download`)).status).toBe(410);
    expect((await visit(`/install/${token}/manifest.plist`, IOS_INSTALLER)).status).toBe(410);

    expect(await leftOf(build.fileId, email, installLinkHash(token))).toEqual([]);
    const link = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.installLink(installLinkHash(token)) }));
    expect(JSON.stringify(link.Item)).not.toContain(email);
    const last = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.lastInstall(owner.personal, email) }));
    expect(last.Item).toBeUndefined();
  });

  it("a deleted project: the same for every build of it", async () => {
    const doomed = await newProject(owner.b, `Doomed ${randomBytes(3).toString("hex")}`);
    const doomedKey = await newDashboardKey(owner.b, doomed.projectId);
    const build = await uploadIpa(doomedKey, "Gone.ipa");
    const email = testerAddress("gone");
    const token = await installLinkOf(build, email, doomed.projectId, owner.personal);
    expect((await visit(`/install/${token}/download`, { "User-Agent": DESKTOP })).status).toBe(302);

    const deleted = await dash(owner.b, "DELETE", `/api/projects/${doomed.projectId}`, { confirmName: doomed.name });
    expect([202, 204]).toContain(deleted.status);
    await eventually(async () => (await leftOf(build.fileId, email, installLinkHash(token))).length === 0, "the project's builds leave no tester items");
    expect((await visit(`/install/${token}`, { ...HTML, "User-Agent": DESKTOP })).status).toBe(410);
  });

  it("a deleted workspace: its builds' tester items and its testers' last installs", async () => {
    const team = await newWorkspace(owner.b);
    const made = await dash(owner.b, "POST", "/api/projects", { name: "Team app", color: "green", workspaceId: team.workspaceId });
    expect(made.status, made.text).toBe(201);
    const teamKey = await newDashboardKey(owner.b, made.json.projectId);
    const build = await uploadIpa(teamKey, "Team.ipa");
    const email = testerAddress("team");
    const token = await installLinkOf(build, email, made.json.projectId, team.workspaceId);
    expect((await visit(`/install/${token}/download`, { "User-Agent": DESKTOP })).status).toBe(302);
    const lastInstall = { TableName: stack().tableName, Key: keys.lastInstall(team.workspaceId, email) };
    expect((await db().send(new GetCommand(lastInstall))).Item).toBeDefined();

    const deleted = await dash(owner.b, "DELETE", `/api/workspaces/${team.workspaceId}`, { confirmName: team.name });
    expect(deleted.status, deleted.text).toBe(200);
    await eventually(async () => (await leftOf(build.fileId, email, installLinkHash(token))).length === 0, "the workspace's builds leave no tester items");
    expect((await db().send(new GetCommand(lastInstall))).Item).toBeUndefined();
    expect((await visit(`/install/${token}`, { ...HTML, "User-Agent": DESKTOP })).status).toBe(410);
  });
});

const PIXEL_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

/** sendTo for a build of another project (and workspace). */
async function installLinkOf(build: { fileId: string }, email: string, projectId: string, workspaceId: string): Promise<string> {
  const token = installLinkToken(secret, build.fileId, email);
  const common = { email, fileId: build.fileId, projectId, workspaceId, createdAt: new Date().toISOString() };
  await db().send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.installLink(installLinkHash(token)), type: "installLink", ...common } }));
  await db().send(new PutCommand({ TableName: stack().tableName, Item: { ...keys.recipient(build.fileId, email), type: "recipient", ...common, status: "sent" } }));
  return token;
}
