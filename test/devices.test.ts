import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DEVICE_COOKIE, DEVICE_COOKIE_SECRET, enrollmentHash, parseDeviceCookie, signDeviceCookie } from "@hangar/core/devices";
import { DynamoStageSecret, DynamoWorkspaceCatalog, keys } from "@hangar/core/dynamo";
import { INSTALL_LINK_SECRET, installLinkHash, installLinkToken } from "@hangar/core/testers";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AD_HOC_DEVICES } from "../packages/inspect/fixtures/ipa-fixtures";
import { dash, newClientIp } from "./support/accounts";
import { call, db, readFixture, stack, upload, type Key } from "./support/api";
import { newDashboardKey, newProject } from "./support/dashboard";
import { fixtures } from "./support/fixtures";
import { member, newWorkspace } from "./support/workspaces";

/**
 * iOS devices on the local stack (docs/devices.md): the enroll profile, the device's signed answer
 * built here the way an iPhone builds it (openssl cms -sign with a throwaway certificate), the
 * result page and its cookie, the refusals that store nothing, and the dashboard's devices against
 * a real ad-hoc profile (packages/inspect's ad-hoc-devices.ipa) with Apple's export file.
 */

const HTML = { Accept: "text/html,application/xhtml+xml" };
const PKCS7 = { "Content-Type": "application/pkcs7-signature" };

let dir: string;
let owner: Awaited<ReturnType<typeof member>>;
let key: Key;
let build: { fileId: string; userKey: string };
let apk: { fileId: string };

/** A request from its own client address (the per-client rules never meet across tests). */
const visit = (path: string, init: { method?: string; headers?: Record<string, string>; rawBody?: Buffer | string } = {}) =>
  call(path, { ...init, headers: { "X-Hangar-Test-Client-Ip": newClientIp(), ...(init.headers ?? {}) } });

function openssl(args: string[], input?: Buffer): Buffer {
  return execFileSync("openssl", args, { cwd: dir, ...(input ? { input } : {}), stdio: ["pipe", "pipe", "pipe"] });
}

/** The device's answer: an XML plist of its attributes, as iOS writes it. */
function answerPlist(fields: Record<string, string>): Buffer {
  return Buffer.from(plist.build(fields), "utf8");
}

/** Signed as a device signs it: CMS SignedData, DER, content attached, with its certificate. */
function signed(content: Buffer): Buffer {
  writeFileSync(join(dir, "answer.plist"), content);
  openssl(["cms", "-sign", "-in", "answer.plist", "-signer", "device.pem", "-inkey", "device.key", "-outform", "DER", "-nodetach", "-binary", "-out", "answer.p7"]);
  return readFileSync(join(dir, "answer.p7"));
}

/** `GET /devices/enroll?return=…`: the profile (parsed) and its challenge. */
async function enrollProfile(returnTo: string, headers: Record<string, string> = {}) {
  const reply = await visit(`/devices/enroll?return=${encodeURIComponent(returnTo)}`, { headers });
  expect(reply.status, reply.text).toBe(200);
  const profile = plist.parse(reply.text) as Record<string, any>;
  return { reply, profile, challenge: profile.PayloadContent.Challenge as string };
}

let udidCounter = 0;
/** A fresh UDID of the 2018+ shape, none of the profile's. */
const freshUdid = () => `00008120-${(Date.now() * 1000 + udidCounter++).toString(16).toUpperCase().padStart(16, "0").slice(-16)}`;

/** Runs the whole flow for a device; answers the callback's and the result page's replies. */
async function enrollDevice(returnTo: string, device: Record<string, string>, headers: Record<string, string> = {}) {
  const { challenge } = await enrollProfile(returnTo, headers);
  const answer = await visit("/devices/enroll/callback", { method: "POST", headers: PKCS7, rawBody: signed(answerPlist({ CHALLENGE: challenge, ...device })) });
  return { challenge, answer };
}

async function devicesOf(workspaceId: string, b = owner.b) {
  const reply = await dash(b, "GET", `/api/workspaces/${workspaceId}/devices`);
  expect(reply.status, reply.text).toBe(200);
  return reply.json as { items: Record<string, any>[]; appleRegistration: { enabled: boolean } };
}

/** Every device item of a workspace, straight from the table. */
async function deviceItems(workspaceId: string) {
  const out = await db().send(
    new QueryCommand({
      TableName: stack().tableName,
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :p)",
      ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":p": "DEVICE#" },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hangar-devices-"));
  // A throwaway device identity (an iPhone signs with its own key and certificate).
  openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Test iPhone", "-days", "2", "-keyout", "device.key", "-out", "device.pem"]);
  owner = await member();
  const project = await newProject(owner.b);
  key = await newDashboardKey(owner.b, project.projectId);
  const ipa = fixtures("ipa").find((f) => f.endsWith("ad-hoc-devices.ipa"))!;
  const uploaded = await upload(key, "Devices.ipa", readFixture(ipa));
  expect(uploaded.completed.status, uploaded.completed.text).toBe(200);
  build = uploaded.completed.json;
  const android = fixtures("apk")[0]!;
  const apkUpload = await upload(key, "App.apk", readFixture(android));
  expect(apkUpload.completed.status, apkUpload.completed.text).toBe(200);
  apk = apkUpload.completed.json;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the enroll profile", () => {
  it("is a Profile Service .mobileconfig with Apple's fields, whose callback is on the share host", async () => {
    const { reply, profile, challenge } = await enrollProfile(`/share/${build.userKey}`);
    expect(reply.headers.get("content-type")).toBe("application/x-apple-aspen-config");
    expect(reply.headers.get("content-disposition")).toBe('attachment; filename="hangar-register-device.mobileconfig"');
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(profile).toMatchObject({
      PayloadType: "Profile Service",
      PayloadVersion: 1,
      PayloadDisplayName: "Hangar — register this device",
      PayloadOrganization: "Hangar",
      PayloadContent: { URL: `${stack().baseUrl}/devices/enroll/callback`, DeviceAttributes: ["UDID", "PRODUCT", "VERSION", "DEVICE_NAME", "SERIAL"] },
    });
    expect(profile.PayloadUUID).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
    expect(profile.PayloadIdentifier).toBe(`dev.hangar.enroll.${profile.PayloadUUID}`);
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Stored by its hash only, for an hour, for the share link's workspace and nobody's address.
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.enrollment(enrollmentHash(challenge)) }));
    expect(Item).toMatchObject({ type: "enrollment", workspaceIds: [owner.personal], email: null, returnTo: `/share/${build.userKey}` });
    expect(Item!.ttl).toBe(Math.floor(Date.parse(Item!.createdAt) / 1000) + 3600);
    expect(JSON.stringify(Item)).not.toContain(challenge);
  });

  it.each([
    ["a page of no build", "/share/nosuchkey123"],
    ["another site", "https://evil.example/share/x"],
    ["a path with a query", `/share/${"a".repeat(12)}?x=1`],
    ["the portal without a tester session", "/apps"],
    ["no path at all", ""],
  ])("refuses %s with a 400 page", async (_label, returnTo) => {
    const reply = await visit(`/devices/enroll?return=${encodeURIComponent(returnTo)}`, { headers: HTML });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.headers.get("content-type")).toContain("text/html");
    expect(reply.text).toContain("This page cannot register a device");
    if (returnTo === "/apps") expect(reply.text).toContain("Sign in to the tester portal first");
  });
});

describe("the device's signed answer", () => {
  it("records the device, answers 301 to the result page, which sets the signed device cookie", async () => {
    const udid = freshUdid();
    const { challenge, answer } = await enrollDevice(`/share/${build.userKey}`, { UDID: udid.toLowerCase(), PRODUCT: "iPhone15,2", VERSION: "22B83", DEVICE_NAME: "Ana's iPhone", SERIAL: "F2LXK0ABCD12" });
    expect(answer.status, answer.text).toBe(301);
    expect(answer.headers.get("location")).toBe(`${stack().baseUrl}/devices/enrolled/${challenge}`);

    const page = await visit(`/devices/enrolled/${challenge}`, { headers: HTML });
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain("Registered: Ana&#39;s iPhone, iPhone 14 Pro, iOS 22B83");
    expect(page.text).toContain(`href="/share/${build.userKey}"`);
    expect(page.headers.get("refresh")).toBe(`4; url=/share/${build.userKey}`);
    const cookie = page.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`))!;
    expect(cookie).toMatch(/; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/);
    const secret = await new DynamoStageSecret(db(), stack().tableName, DEVICE_COOKIE_SECRET).bytes();
    expect(parseDeviceCookie(secret, cookie.split(";")[0]!.slice(DEVICE_COOKIE.length + 1))).toEqual({ udid, product: "iPhone15,2", version: "22B83", name: "Ana's iPhone" });

    const listed = (await devicesOf(owner.personal)).items.find((d) => d.udid === udid);
    expect(listed).toEqual({
      deviceId: expect.stringMatching(/^dev_[0-9A-Za-z]{16}$/),
      udid,
      name: "Ana's iPhone",
      product: "iPhone15,2",
      model: "iPhone 14 Pro",
      osVersion: "22B83",
      serial: "F2LXK0ABCD12",
      email: null,
      registeredAt: expect.any(String),
      appleRegistration: null,
    });
  });

  it("updates the device when the same iPhone enrolls again (one item, the member's name kept)", async () => {
    const udid = freshUdid();
    await enrollDevice(`/share/${build.userKey}`, { UDID: udid, PRODUCT: "iPhone14,7", VERSION: "21A329" });
    const first = (await devicesOf(owner.personal)).items.find((d) => d.udid === udid)!;
    expect(first.name).toBe("iPhone");
    const renamed = await dash(owner.b, "PATCH", `/api/devices/${first.deviceId}`, { name: "  QA lab phone 3 " });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({ deviceId: first.deviceId, name: "QA lab phone 3" });
    const again = await enrollDevice(`/share/${build.userKey}`, { UDID: udid, PRODUCT: "iPhone14,7", VERSION: "22B83", DEVICE_NAME: "iPhone" });
    expect(again.answer.status).toBe(301);
    const items = (await deviceItems(owner.personal)).filter((i) => i.udid === udid);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ deviceId: first.deviceId, name: "QA lab phone 3", osVersion: "22B83", registeredAt: first.registeredAt });
  });

  describe("anything but a signed answer to a live profile is a 400 and stores nothing", () => {
    const cases: [string, (challenge: string, udid: string) => Buffer][] = [
      ["tampered", (challenge, udid) => {
        const bytes = signed(answerPlist({ CHALLENGE: challenge, UDID: udid, PRODUCT: "iPhone15,2", VERSION: "22B83" }));
        const at = bytes.indexOf("iPhone15,2");
        bytes[at + 6] = "7".charCodeAt(0);
        return bytes;
      }],
      ["unsigned", (challenge, udid) => answerPlist({ CHALLENGE: challenge, UDID: udid, PRODUCT: "iPhone15,2", VERSION: "22B83" })],
      ["oversized", (challenge, udid) => signed(answerPlist({ CHALLENGE: challenge, UDID: udid, PRODUCT: "iPhone15,2", VERSION: "22B83", DEVICE_NAME: "x".repeat(70 * 1024) }))],
      ["not a plist", () => signed(Buffer.from("UDID=00008030-001A35E11A88802E", "utf8"))],
      ["a plist with entities", (challenge, udid) => signed(Buffer.from(`<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY u "${udid}">]><plist version="1.0"><dict><key>CHALLENGE</key><string>${challenge}</string><key>UDID</key><string>&u;</string><key>PRODUCT</key><string>iPhone15,2</string><key>VERSION</key><string>22B83</string></dict></plist>`))],
      ["a malformed UDID", (challenge) => signed(answerPlist({ CHALLENGE: challenge, UDID: "0000-not-a-udid", PRODUCT: "iPhone15,2", VERSION: "22B83" }))],
      ["a wrong challenge", (_challenge, udid) => signed(answerPlist({ CHALLENGE: "A".repeat(43), UDID: udid, PRODUCT: "iPhone15,2", VERSION: "22B83" }))],
      ["empty", () => Buffer.alloc(0)],
    ];
    it.each(cases)("%s", async (_label, body) => {
      const { challenge } = await enrollProfile(`/share/${build.userKey}`);
      const udid = freshUdid();
      const before = await deviceItems(owner.personal);
      const reply = await visit("/devices/enroll/callback", { method: "POST", headers: PKCS7, rawBody: body(challenge, udid) });
      expect(reply.status, reply.text).toBe(400);
      expect(reply.json.error.code).toBe("invalid_request");
      expect(await deviceItems(owner.personal)).toEqual(before);
      const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.enrollment(enrollmentHash(challenge)), ConsistentRead: true }));
      expect(Item?.device).toBeUndefined();
      // Its result page has nothing to show.
      expect((await visit(`/devices/enrolled/${challenge}`, { headers: HTML })).status).toBe(404);
    });
  });

  it("refuses a second device's answer to a profile another device answered", async () => {
    const { challenge, answer } = await enrollDevice(`/share/${build.userKey}`, { UDID: freshUdid(), PRODUCT: "iPhone15,2", VERSION: "22B83" });
    expect(answer.status).toBe(301);
    const other = freshUdid();
    const second = await visit("/devices/enroll/callback", { method: "POST", headers: PKCS7, rawBody: signed(answerPlist({ CHALLENGE: challenge, UDID: other, PRODUCT: "iPhone15,2", VERSION: "22B83" })) });
    expect(second.status, second.text).toBe(400);
    expect((await deviceItems(owner.personal)).some((i) => i.udid === other)).toBe(false);
  });

  it("shows an unknown or malformed result page as a 404 page", async () => {
    for (const token of ["B".repeat(43), "short"]) {
      const reply = await visit(`/devices/enrolled/${token}`, { headers: HTML });
      expect(reply.status).toBe(404);
      expect(reply.text).toContain("No registration here");
      expect(reply.headers.getSetCookie()).toEqual([]);
    }
  });
});

describe("who the device belongs to", () => {
  const address = () => `tester-${randomBytes(4).toString("hex")}@hangar.test`;

  /** What a distribution writes for one tester: the personal install link's item (core's testers/install-link.ts makes the token). */
  async function installLink(email: string): Promise<string> {
    const secret = await new DynamoStageSecret(db(), stack().tableName, INSTALL_LINK_SECRET).bytes();
    const token = installLinkToken(secret, build.fileId, email);
    await db().send(
      new PutCommand({
        TableName: stack().tableName,
        Item: { ...keys.installLink(installLinkHash(token)), type: "installLink", email, fileId: build.fileId, projectId: key.projectId, workspaceId: owner.personal, createdAt: new Date().toISOString() },
      }),
    );
    return token;
  }

  /** A live tester session of `email`, as the tester sign-in leaves it; answers the `hangar_tester` cookie's value. */
  async function testerSession(email: string): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    const sessionId = createHash("sha256").update(token).digest("hex");
    const expiresAt = new Date(Date.now() + 86_400_000);
    await db().send(
      new PutCommand({
        TableName: stack().tableName,
        Item: { ...keys.testerSession(email, sessionId), type: "testerSession", sessionId, email, createdAt: new Date().toISOString(), expiresAt: expiresAt.toISOString(), ttl: Math.floor(expiresAt.getTime() / 1000) },
      }),
    );
    return `${Buffer.from(email, "utf8").toString("base64url")}.${token}`;
  }

  it("records the tester a personal install link was sent to", async () => {
    const email = address();
    const udid = freshUdid();
    const { answer } = await enrollDevice(`/install/${await installLink(email)}`, { UDID: udid, PRODUCT: "iPad13,18", VERSION: "22B83" });
    expect(answer.status, answer.text).toBe(301);
    expect((await devicesOf(owner.personal)).items.find((d) => d.udid === udid)).toMatchObject({ email, model: "iPad (10th generation)" });
  });

  it("records the device for a project's app page, and refuses the page once it is off", async () => {
    const on = await dash(owner.b, "PUT", `/api/projects/${key.projectId}/app-page`, { enabled: true });
    expect(on.status, on.text).toBe(200);
    const path = new URL(on.json.url as string).pathname;
    const udid = freshUdid();
    const { answer } = await enrollDevice(path, { UDID: udid, PRODUCT: "iPhone17,3", VERSION: "22B83", DEVICE_NAME: "Lab 16" });
    expect(answer.status, answer.text).toBe(301);
    expect((await devicesOf(owner.personal)).items.find((d) => d.udid === udid)).toMatchObject({ name: "Lab 16", model: "iPhone 16", email: null });
    expect((await dash(owner.b, "PUT", `/api/projects/${key.projectId}/app-page`, { enabled: false })).status).toBe(200);
    expect((await visit(`/devices/enroll?return=${encodeURIComponent(path)}`, { headers: HTML })).status).toBe(400);
  });

  it("records a signed-in tester's device in every workspace they are in a group of, from the portal", async () => {
    const email = address();
    const team = await newWorkspace(owner.b);
    for (const workspaceId of [owner.personal, team.workspaceId]) {
      const group = await dash(owner.b, "POST", `/api/workspaces/${workspaceId}/groups`, { name: `QA ${randomBytes(3).toString("hex")}` });
      expect(group.status, group.text).toBe(201);
      expect((await dash(owner.b, "POST", `/api/groups/${group.json.groupId}/testers`, { emails: [email] })).status).toBe(200);
    }
    const cookie = { Cookie: `hangar_tester=${await testerSession(email)}` };
    const udid = freshUdid();
    const { challenge } = await enrollProfile("/apps", cookie);
    const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.enrollment(enrollmentHash(challenge)) }));
    expect([...Item!.workspaceIds].sort()).toEqual([owner.personal, team.workspaceId].sort());
    const answer = await visit("/devices/enroll/callback", { method: "POST", headers: PKCS7, rawBody: signed(answerPlist({ CHALLENGE: challenge, UDID: udid, PRODUCT: "iPhone16,1", VERSION: "22B83" })) });
    expect(answer.status, answer.text).toBe(301);
    for (const workspaceId of [owner.personal, team.workspaceId]) {
      expect((await devicesOf(workspaceId)).items.find((d) => d.udid === udid)).toMatchObject({ email, model: "iPhone 15 Pro" });
    }
    // The result page goes back to the portal.
    const page = await visit(`/devices/enrolled/${challenge}`, { headers: HTML });
    expect(page.headers.get("refresh")).toBe("4; url=/apps");
  });

  it("records a device a share or app page finds missing from the profile under the signed-in tester's address, and nobody's without a live session", async () => {
    const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
    const secret = await new DynamoStageSecret(db(), stack().tableName, DEVICE_COOKIE_SECRET).bytes();
    const on = await dash(owner.b, "PUT", `/api/projects/${key.projectId}/app-page`, { enabled: true });
    expect(on.status, on.text).toBe(200);
    const appPage = new URL(on.json.url as string).pathname;
    const email = address();
    const signedInTester = `hangar_tester=${await testerSession(email)}`;
    // An iPhone the build's profile does not list opens each page, signed in to the portal or not.
    const cases = [
      { page: `/share/${build.userKey}`, tester: signedInTester, email },
      { page: appPage, tester: signedInTester, email },
      { page: `/share/${build.userKey}`, tester: "", email: null },
      { page: appPage, tester: "hangar_tester=bm9ib2R5QGhhbmdhci50ZXN0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", email: null },
    ];
    for (const c of cases) {
      const udid = freshUdid();
      const device = `${DEVICE_COOKIE}=${signDeviceCookie(secret, { udid, product: "iPhone15,2", version: "18.1", name: "Shared iPhone" })}`;
      const reply = await visit(c.page, { headers: { ...HTML, "User-Agent": IPHONE, Cookie: [device, c.tester].filter(Boolean).join("; ") } });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).toContain("the team has been told");
      expect((await devicesOf(owner.personal)).items.find((d) => d.udid === udid), c.page).toMatchObject({ email: c.email, name: "Shared iPhone" });
    }
    expect((await dash(owner.b, "PUT", `/api/projects/${key.projectId}/app-page`, { enabled: false })).status).toBe(200);
  });

  it("removes a workspace's devices with the workspace", async () => {
    const team = await newWorkspace(owner.b);
    const project = await dash(owner.b, "POST", "/api/projects", { name: `Gone ${Date.now()}`, color: "blue", workspaceId: team.workspaceId });
    const teamKey = await newDashboardKey(owner.b, project.json.projectId);
    const ipa = await upload(teamKey, "Team.ipa", readFixture(fixtures("ipa").find((f) => f.endsWith("ad-hoc-devices.ipa"))!));
    const { answer } = await enrollDevice(`/share/${ipa.completed.json.userKey}`, { UDID: freshUdid(), PRODUCT: "iPhone15,2", VERSION: "22B83" });
    expect(answer.status).toBe(301);
    expect(await deviceItems(team.workspaceId)).toHaveLength(1);
    const deleted = await dash(owner.b, "DELETE", `/api/workspaces/${team.workspaceId}`, { confirmName: team.name });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    await expect.poll(() => deviceItems(team.workspaceId), { timeout: 20_000 }).toEqual([]);
  });
});

describe("the share page's verdict records a device the profile does not list", () => {
  const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

  /** The share page on an iPhone whose signed device cookie (as the enroll result page sets it) names `udid`. */
  async function sharePage(userKey: string, udid: string) {
    const secret = await new DynamoStageSecret(db(), stack().tableName, DEVICE_COOKIE_SECRET).bytes();
    const cookie = signDeviceCookie(secret, { udid, product: "iPhone15,2", version: "18.1", name: "Lab phone" });
    const reply = await visit(`/share/${userKey}`, { headers: { ...HTML, "User-Agent": IPHONE, Cookie: `${DEVICE_COOKIE}=${cookie}` } });
    expect(reply.status, reply.text).toBe(200);
    return reply.text;
  }

  it("once for the team, keeping a member's name, and never in a workspace being deleted", async () => {
    const team = await newWorkspace(owner.b);
    const project = await dash(owner.b, "POST", "/api/projects", { name: `Verdict ${Date.now()}`, color: "blue", workspaceId: team.workspaceId });
    expect(project.status, project.text).toBe(201);
    const teamKey = await newDashboardKey(owner.b, project.json.projectId);
    const ipa = await upload(teamKey, "Team.ipa", readFixture(fixtures("ipa").find((f) => f.endsWith("ad-hoc-devices.ipa"))!));
    expect(ipa.completed.status, ipa.completed.text).toBe(200);
    const userKey = ipa.completed.json.userKey as string;

    const first = freshUdid();
    expect(await sharePage(userKey, first)).toContain("is not in this build's profile — the team has been told.");
    const [item] = await deviceItems(team.workspaceId);
    expect(await deviceItems(team.workspaceId)).toHaveLength(1);
    expect(item).toMatchObject({ udid: first, name: "Lab phone", product: "iPhone15,2", model: "iPhone 14 Pro", osVersion: "18.1", serial: null, email: null });

    // Seen before: the page still says so, and a member's name stays.
    expect((await dash(owner.b, "PATCH", `/api/devices/${item!.deviceId}`, { name: "Front desk" })).status).toBe(200);
    expect(await sharePage(userKey, first)).toContain("the team has been told.");
    expect((await deviceItems(team.workspaceId)).map((d) => [d.udid, d.name])).toEqual([[first, "Front desk"]]);

    // While the workspace is deleted (its purge ends with a Query of its partition), a device put
    // now would outlive it: nothing is written, and the page asks the tester to send the UDID.
    expect(await new DynamoWorkspaceCatalog(db(), stack().tableName).markDeleting(team.workspaceId)).toBe(true);
    const late = freshUdid();
    const page = await sharePage(userKey, late);
    expect(page).toContain("is not in this build's profile.");
    expect(page).not.toContain("the team has been told");
    expect(page).toContain("Send the team this UDID.");
    expect((await deviceItems(team.workspaceId)).map((d) => d.udid)).toEqual([first]);
  });
});

describe("a build's devices and Apple's export", () => {
  let included: string;
  let missing: string;

  beforeAll(async () => {
    const team = await newWorkspace(owner.b);
    // A device of another workspace is not this one's, whatever its UDID.
    const project = await dash(owner.b, "POST", "/api/projects", { name: `Other ${Date.now()}`, color: "blue", workspaceId: team.workspaceId });
    expect(project.status).toBe(201);
    const ok1 = await enrollDevice(`/share/${build.userKey}`, { UDID: AD_HOC_DEVICES[0]!, PRODUCT: "iPhone12,1", VERSION: "21E236", DEVICE_NAME: "In profile" });
    const ok2 = await enrollDevice(`/share/${build.userKey}`, { UDID: "00008130-0000DEADBEEF001E", PRODUCT: "iPhone99,9", VERSION: "22B83", DEVICE_NAME: "Tab\there\nand a very long name that Apple's portal would refuse beyond fifty" });
    expect([ok1.answer.status, ok2.answer.status]).toEqual([301, 301]);
    const items = (await devicesOf(owner.personal)).items;
    included = items.find((d) => d.udid === AD_HOC_DEVICES[0])!.deviceId;
    missing = items.find((d) => d.udid === "00008130-0000DEADBEEF001E")!.deviceId;
  });

  it("lists the registered devices in the profile, those missing, and the profile's UDIDs nobody registered", async () => {
    const reply = await dash(owner.b, "GET", `/api/files/${build.fileId}/devices`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.known).toBe(true);
    expect(reply.json.profileKind).toBe("ad-hoc");
    expect(reply.json.included.map((d: { deviceId: string }) => d.deviceId)).toEqual([included]);
    expect(reply.json.missing.map((d: { deviceId: string }) => d.deviceId)).toContain(missing);
    expect(reply.json.missing.every((d: { udid: string }) => !AD_HOC_DEVICES.includes(d.udid))).toBe(true);
    expect(reply.json.unregistered).toEqual([AD_HOC_DEVICES[1], AD_HOC_DEVICES[2], "00008110-000C2D4E3A01801E"]);
    const model = reply.json.missing.find((d: { deviceId: string }) => d.deviceId === missing);
    expect(model).toMatchObject({ product: "iPhone99,9", model: null });
  });

  it("says `known: false` with empty lists for an Android build", async () => {
    const reply = await dash(owner.b, "GET", `/api/files/${apk.fileId}/devices`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toEqual({ known: false, profileKind: null, included: [], missing: [], unregistered: [] });
  });

  it("exports the missing devices in Apple's tab-separated format, byte for byte", async () => {
    const reply = await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/devices/export?fileId=${build.fileId}&missing=true`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/tab-separated-values; charset=utf-8");
    expect(reply.headers.get("content-disposition")).toBe('attachment; filename="hangar-devices-missing.txt"');
    // Exactly: the header, then every registered device the profile lacks, oldest first, names made safe.
    const files = await dash(owner.b, "GET", `/api/files/${build.fileId}/devices`);
    const rows = [...(files.json.missing as { udid: string; name: string }[])].reverse().map((d) => {
      const name = d.udid === "00008130-0000DEADBEEF001E" ? "Tab here and a very long name that Apple's portal" : d.name;
      return `${d.udid}\t${name}\tios\n`;
    });
    expect(rows.length).toBeGreaterThan(1);
    expect(reply.text).toBe(`Device ID\tDevice Name\tDevice Platform\n${rows.join("")}`);
    expect(reply.text).not.toContain(AD_HOC_DEVICES[0]);
  });

  it("refuses missing=true without the build it is about", async () => {
    const reply = await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/devices/export?missing=true`);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.json.error.fields).toEqual([{ field: "missing", message: "missing=true needs fileId (the build whose profile lacks them)" }]);
  });

  it("exports every device of the workspace, oldest first", async () => {
    const reply = await dash(owner.b, "GET", `/api/workspaces/${owner.personal}/devices/export`);
    expect(reply.status, reply.text).toBe(200);
    const listed = (await devicesOf(owner.personal)).items.map((d) => d.udid).reverse();
    expect(reply.text.startsWith("Device ID\tDevice Name\tDevice Platform\n")).toBe(true);
    expect(reply.text.split("\n").slice(1, -1).map((l) => l.split("\t")[0])).toEqual(listed);
  });

  it("removes a device (204), then it is a 404 device_not_found", async () => {
    expect((await dash(owner.b, "DELETE", `/api/devices/${missing}`)).status).toBe(204);
    const again = await dash(owner.b, "DELETE", `/api/devices/${missing}`);
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe("device_not_found");
    expect((await dash(owner.b, "PATCH", `/api/devices/dev_0000000000000000`, { name: "x" })).json.error.code).toBe("device_not_found");
    expect((await devicesOf(owner.personal)).items.some((d) => d.deviceId === missing)).toBe(false);
  });

  it("answers another account's device as not found", async () => {
    const stranger = await member();
    const reply = await dash(stranger.b, "PATCH", `/api/devices/${included}`, { name: "mine now" });
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe("device_not_found");
  });

  it("refuses a rename that is empty, too long or has line breaks", async () => {
    for (const name of ["   ", "x".repeat(101), "two\nlines"]) {
      const reply = await dash(owner.b, "PATCH", `/api/devices/${included}`, { name });
      expect(reply.status, name).toBe(400);
    }
  });
});

describe("the share page's verdict and the profile it reads", () => {
  const IPHONE_UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

  /** The share page as an iPhone carrying the device cookie of `udid` sees it: the verdict's words. */
  async function verdictFor(userKey: string, udid: string): Promise<string> {
    const secret = await new DynamoStageSecret(db(), stack().tableName, DEVICE_COOKIE_SECRET).bytes();
    const cookie = signDeviceCookie(secret, { udid, product: "iPhone15,2", version: "18.1", name: "Lab phone" });
    const page = await visit(`/share/${userKey}`, { headers: { ...HTML, "User-Agent": IPHONE_UA, Cookie: `${DEVICE_COOKIE}=${cookie}` } });
    expect(page.status, page.text).toBe(200);
    return /<div class="verdict[^"]*"[^>]*>(.*?)<\/div>/s.exec(page.text)?.[1] ?? "";
  }

  it("reads the UDIDs complete copied onto the share item, and an older share item's from the file item", async () => {
    const project = await newProject(owner.b);
    const ownKey = await newDashboardKey(owner.b, project.projectId);
    const uploaded = await upload(ownKey, "Verdict.ipa", readFixture(fixtures("ipa").find((f) => f.endsWith("ad-hoc-devices.ipa"))!));
    expect(uploaded.completed.status, uploaded.completed.text).toBe(200);
    const { fileId, userKey } = uploaded.completed.json as { fileId: string; userKey: string };
    const item = async (k: Record<string, string>) => (await db().send(new GetCommand({ TableName: stack().tableName, Key: k, ConsistentRead: true }))).Item!;
    const fileItem = await item(keys.file(fileId));
    const shareItem = await item(keys.share(userKey));
    expect(shareItem.provisionedUdids).toEqual(fileItem.provisionedUdids);
    expect(shareItem.provisionedUdids).toHaveLength(4);
    expect(shareItem.workspaceId).toBe(owner.personal);

    // The page decides from the share item's copy: the file item's list is not read.
    const set = (k: Record<string, string>, udids: string[] | undefined) =>
      db().send(
        new UpdateCommand({
          TableName: stack().tableName,
          Key: k,
          ...(udids ? { UpdateExpression: "SET provisionedUdids = :u", ExpressionAttributeValues: { ":u": udids } } : { UpdateExpression: "REMOVE provisionedUdids" }),
        }),
      );
    await set(keys.file(fileId), [freshUdid()]);
    expect(await verdictFor(userKey, AD_HOC_DEVICES[0]!)).toContain("is in this build's profile");

    // A share item written before complete copied them: the file item's list decides, no migration needed.
    await set(keys.share(userKey), undefined);
    await set(keys.file(fileId), [AD_HOC_DEVICES[1]!]);
    expect(await verdictFor(userKey, AD_HOC_DEVICES[1]!)).toContain("is in this build's profile");
    const outside = await verdictFor(userKey, AD_HOC_DEVICES[0]!);
    expect(outside).toContain("is not in this build's profile");
  });
});
