import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DEVICE_COOKIE, DEVICE_COOKIE_SECRET, signDeviceCookie, type DeviceClaim } from "@hangar/core/devices";
import { DynamoStageSecret, keys } from "@hangar/core/dynamo";
import type { TesterApps } from "@hangar/core/tester-access-schema";
import type { Page } from "playwright-core";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dash, signedIn, uniqueEmail, type Browser } from "../support/accounts";
import { db, readFixture, upload } from "../support/api";
import { newDashboardKey, newProject, uploadIpa } from "../support/dashboard";
import { fixtures } from "../support/fixtures";
import { auditBothSchemes, IPHONE, openSession, type BrowserSession } from "./support/browser";
import { waitForLink } from "./support/maildev";

/**
 * "Will it install on this iPhone?" (issue 22 items 2 and 5, docs/devices.md "The verdict") in an
 * iPhone-sized Chromium against the local stack: the share page, the personal install page, the app
 * page and the tester portal for a device that is in the build's profile, one that is not (recorded
 * for the team, the UDID to copy) and one Hangar does not know yet ("Check this iPhone"); a hostile
 * device name stays text; the install help is there, collapsed. axe in both schemes at 390 and
 * 1280 px, screenshots in .tmp/screenshots/device-verdict/.
 *
 * The device cookie is signed here with the stage's `device-cookie` secret, read from DynamoDB
 * Local as the functions read it (the enroll flow that sets it in real use has its own tests).
 * The profile's UDIDs are written on the file item and the share item as complete stores them
 * (`provisionedUdids`): the fixture IPAs' profiles list short placeholder UDIDs, not real ones.
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const SHOTS = "device-verdict";
const APP = `Verdict app ${randomBytes(3).toString("hex")}`;
const IN = "00008110-001A35E11A88802E";
/** The profile's other device, registered in the journey through the real enroll flow. */
const JOURNEY = "0123456789ABCDEF0123456789ABCDEF01234567";
const OUT = "00008030-000C1D2E3F405162";
const OUT_TESTER = "00008120-0011223344556677";
/** An Android phone's Chrome at a Pixel's size. */
const PIXEL = {
  viewport: { width: 412, height: 915 },
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  isMobile: true,
  hasTouch: true,
} as const;
const HOSTILE = `<img src=x onerror="alert(1)">Anna's "iPhone" & co`;

const sessions: BrowserSession[] = [];
const violations: string[] = [];
let owner: Browser;
let workspaceId: string;
let projectId: string;
let build: { fileId: string; userKey: string; shareUrl: string };
let apk: { shareUrl: string };

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, SHOTS, name)));
}

/** An iPhone's browser; with `claim`, it carries the device cookie the enroll flow would have set. */
async function iphone(claim?: DeviceClaim): Promise<BrowserSession> {
  const session = await openSession(baseUrl, IPHONE);
  sessions.push(session);
  if (claim) {
    const secret = await new DynamoStageSecret(db(), stack.tableName, DEVICE_COOKIE_SECRET).bytes();
    await session.context.addCookies([{ name: DEVICE_COOKIE, value: signDeviceCookie(secret, claim), url: baseUrl, httpOnly: true, sameSite: "Lax" }]);
  }
  return session;
}

const deviceItem = async (udid: string) => (await db().send(new GetCommand({ TableName: stack.tableName, Key: keys.device(workspaceId, udid) }))).Item;
const verdictBox = (page: Page) => page.locator(".verdict");

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  const personal = ((await dash(owner, "GET", "/api/workspaces")).json.items as { workspaceId: string; personal: boolean }[]).find((w) => w.personal)!;
  workspaceId = personal.workspaceId;
  projectId = (await newProject(owner, APP)).projectId;
  const key = await newDashboardKey(owner, projectId);
  build = await uploadIpa(key, "Verdict.ipa");
  const { completed } = await upload(key, "verdict.apk", readFixture(fixtures("apk").find((f) => f.endsWith("aapt2-literal.apk"))!));
  expect(completed.status, completed.text).toBe(200);
  apk = completed.json as { shareUrl: string };
  // On the file item and its copy on the share item, as complete writes them (the share page reads the copy).
  for (const Key of [keys.file(build.fileId), keys.share(build.userKey)]) {
    await db().send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key,
        UpdateExpression: "SET provisionedUdids = :udids",
        ExpressionAttributeValues: { ":udids": [IN, JOURNEY] },
      }),
    );
  }
});

afterAll(async () => {
  await Promise.all(sessions.map((s) => s.context.close()));
});

describe("the share page's verdict on an iPhone", () => {
  it("offers Check this iPhone to a device Hangar does not know, beside Install, with the Developer Mode help", async () => {
    const { page, problems } = await iphone();
    await page.goto(build.shareUrl);
    expect(await page.locator(".actions a.button.primary").textContent()).toBe("Install");
    const check = page.getByRole("link", { name: "Check this iPhone" });
    expect(await check.getAttribute("href")).toBe(`/devices/enroll?return=${encodeURIComponent(`/share/${build.userKey}`)}`);
    const help = page.getByRole("region", { name: "Help with installing" });
    const developerMode = help.locator("details", { hasText: "Developer Mode" });
    // Collapsed until asked for.
    expect(await developerMode.getAttribute("open")).toBeNull();
    await developerMode.locator("summary").click();
    expect(await developerMode.textContent()).toContain("Settings → Privacy & Security → Developer Mode");
    expect(await help.getByText("Untrusted Enterprise Developer").count()).toBe(0);
    await audited(page, "share-unknown");
    expect(problems).toEqual([]);
  });

  it("says a device in the profile can install it, naming the device and its model", async () => {
    const { page, problems } = await iphone({ udid: IN, product: "iPhone15,2", version: "18.1", name: "QA iPhone" });
    await page.goto(build.shareUrl);
    expect(await verdictBox(page).textContent()).toBe("This iPhone (QA iPhone, iPhone 14 Pro) is in this build's profile. It can install this build.");
    expect(await page.getByRole("link", { name: "Check this iPhone" }).count()).toBe(0);
    expect(await deviceItem(IN)).toBeUndefined();
    await audited(page, "share-in-profile");
    expect(problems).toEqual([]);
  });

  it("says a device outside the profile will not install it, shows its UDID to copy, and records it for the team once", async () => {
    const { page, problems, context } = await iphone({ udid: OUT, product: "iPad13,18", version: "17.5", name: HOSTILE });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(baseUrl).origin });
    await page.goto(build.shareUrl);
    const box = verdictBox(page);
    expect(await box.locator("strong").textContent()).toBe(`This iPad (${HOSTILE}, iPad (10th generation)) is not in this build's profile — the team has been told.`);
    // The hostile name is text: no image element was made from it.
    expect(await page.locator("main img[src=x]").count()).toBe(0);
    expect(await box.locator("code").textContent()).toBe(OUT);
    // Install stays: the tester may know better (a new build on its way).
    expect(await page.locator(".actions a.button.primary").textContent()).toBe("Install");
    // The verdict comes before the button, so it is read before tapping.
    expect(await page.locator(".verdict.no ~ .actions").count()).toBe(1);
    await box.getByRole("button", { name: "Copy UDID" }).click();
    await expect.poll(() => box.getByRole("status").textContent()).toBe("Copied.");
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(OUT);
    await audited(page, "share-not-in-profile");
    expect(problems).toEqual([]);

    const recorded = await deviceItem(OUT);
    expect(recorded).toMatchObject({
      type: "device",
      workspaceId,
      udid: OUT,
      name: HOSTILE,
      product: "iPad13,18",
      model: "iPad (10th generation)",
      osVersion: "17.5",
      serial: null,
      email: null,
      appleRegistration: null,
      gsi1sk: "DEVICE",
    });
    expect(recorded!.deviceId).toMatch(/^dev_[0-9A-Za-z]{16}$/);
    expect(recorded!.gsi1pk).toBe(`DEVICE#${recorded!.deviceId}`);
    // A second visit changes nothing: one item, the first one.
    await page.reload();
    expect(await verdictBox(page).locator("strong").textContent()).toContain("the team has been told");
    const items = await db().send(
      new QueryCommand({ TableName: stack.tableName, KeyConditionExpression: "pk = :pk AND begins_with(sk, :d)", ExpressionAttributeValues: { ":pk": `WORKSPACE#${workspaceId}`, ":d": "DEVICE#" } }),
    );
    expect(items.Items!.map((i) => i.udid)).toEqual([OUT]);
    expect((await deviceItem(OUT))!.deviceId).toBe(recorded!.deviceId);
    // The team sees it in its devices list (the dashboard's Devices page reads this route).
    const listed = await dash(owner, "GET", `/api/workspaces/${workspaceId}/devices`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.json.items).toEqual([
      expect.objectContaining({ deviceId: recorded!.deviceId, udid: OUT, name: HOSTILE, model: "iPad (10th generation)", osVersion: "17.5", email: null }),
    ]);
  });

  it("shows the same verdict on the app page", async () => {
    const on = await dash(owner, "PUT", `/api/projects/${projectId}/app-page`, { enabled: true });
    expect(on.status, on.text).toBe(200);
    const { page, problems } = await iphone({ udid: IN, product: "iPhone15,2", version: "18.1", name: "QA iPhone" });
    await page.goto(on.json.url);
    expect(await verdictBox(page).textContent()).toBe("This iPhone (QA iPhone, iPhone 14 Pro) is in this build's profile. It can install this build.");
    expect(await page.getByRole("heading", { name: "Help with installing" }).count()).toBe(1);
    await audited(page, "app-page-in-profile");

    const unknown = await iphone();
    await unknown.page.goto(on.json.url);
    const slug = new URL(on.json.url).pathname;
    expect(await unknown.page.getByRole("link", { name: "Check this iPhone" }).getAttribute("href")).toBe(`/devices/enroll?return=${encodeURIComponent(slug)}`);
    expect(problems).toEqual([]);
  });
});

describe("the install help on Android", () => {
  it("explains allowing the browser to install unknown apps, collapsed, and no verdict", async () => {
    const session = await openSession(baseUrl, PIXEL);
    sessions.push(session);
    const { page, problems } = session;
    await page.goto(apk.shareUrl);
    expect(await page.locator(".actions a.button.primary").textContent()).toBe("Download APK");
    const help = page.getByRole("region", { name: "Help with installing" });
    expect(await help.locator("summary").allTextContents()).toEqual(["Android blocks the install"]);
    await help.locator("summary").click();
    expect(await help.textContent()).toContain("Settings → Apps → your browser → Install unknown apps");
    expect(await verdictBox(page).count()).toBe(0);
    await audited(page, "share-android-help");
    expect(problems).toEqual([]);
  });
});

describe("the whole way on an iPhone", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "hangar-verdict-"));
    // The device's identity certificate, as throwaway as a test device's.
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Test iPhone", "-days", "1", "-keyout", "device.key", "-out", "device.pem"], { cwd: dir, stdio: "pipe" });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The device's answer to the profile service: its attributes as a plist, CMS-signed as iOS signs it. */
  function deviceAnswer(fields: Record<string, string>): Buffer {
    writeFileSync(join(dir, "answer.plist"), plist.build(fields));
    execFileSync("openssl", ["cms", "-sign", "-in", "answer.plist", "-signer", "device.pem", "-inkey", "device.key", "-outform", "DER", "-nodetach", "-binary", "-out", "answer.p7"], { cwd: dir, stdio: "pipe" });
    return readFileSync(join(dir, "answer.p7"));
  }

  it("registers the iPhone from the share page's Check this iPhone and comes back to the verdict", async () => {
    const { page, context, problems } = await iphone();
    await page.goto(build.shareUrl);
    const href = (await page.getByRole("link", { name: "Check this iPhone" }).getAttribute("href"))!;
    // What Safari downloads and Settings installs: the profile service's .mobileconfig.
    const profile = await context.request.get(new URL(href, build.shareUrl).toString());
    expect(profile.status()).toBe(200);
    const payload = (plist.parse(await profile.text()) as { PayloadContent: { Challenge: string; URL: string } }).PayloadContent;
    // What iOS posts back: answered with a 301 to the result page.
    const posted = await context.request.post(payload.URL, {
      headers: { "Content-Type": "application/pkcs7-signature" },
      data: deviceAnswer({ CHALLENGE: payload.Challenge, UDID: JOURNEY, PRODUCT: "iPhone14,7", VERSION: "18.2", DEVICE_NAME: "Journey iPhone" }),
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(301);
    await page.goto(posted.headers()["location"]!);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Journey iPhone");
    await page.getByRole("link", { name: "Back to the build" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/share/${build.userKey}`);
    expect(await verdictBox(page).textContent()).toBe("This iPhone (Journey iPhone, iPhone 14) is in this build's profile. It can install this build.");
    expect(problems).toEqual([]);
  });
});

describe("the tester's pages", () => {
  const tester = uniqueEmail("verdict-tester");

  beforeAll(async () => {
    const sent = await dash(owner, "POST", `/api/files/${build.fileId}/distribute`, { testers: [tester] });
    expect(sent.status, sent.text).toBe(202);
  });

  async function signIn(session: BrowserSession) {
    const { page } = session;
    await page.goto("/tester/sign-in");
    await page.getByLabel("E-mail address").fill(tester);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByTestId("sign-in-sent").waitFor();
    const { link } = await waitForLink(stack.mailUrl, tester, "/tester/sign-in", { exclude: usedLinks });
    usedLinks.push(link);
    await page.goto(link);
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe("/apps");
  }
  const usedLinks: string[] = [];

  it("the portal offers Check this iPhone once for an unknown device", async () => {
    const session = await iphone();
    await signIn(session);
    const { page } = session;
    const check = page.getByRole("link", { name: "Check this iPhone" });
    await check.waitFor();
    expect(await check.getAttribute("href")).toBe(`${stack.baseUrl}/devices/enroll?return=${encodeURIComponent("/apps")}`);
    expect(await check.count()).toBe(1);
    await audited(page, "portal-unknown");
    expect(session.problems).toEqual([]);
  });

  it("the portal and the personal install page say a device outside the profile will not install, and record it under the tester's address", async () => {
    const session = await iphone({ udid: OUT_TESTER, product: "iPhone17,1", version: "26.1", name: "Tester phone" });
    await signIn(session);
    const { page } = session;
    const card = page.getByRole("region", { name: APP });
    const verdict = card.locator(".device-verdict");
    await verdict.waitFor();
    expect(await verdict.locator("strong").textContent()).toBe("This iPhone (Tester phone, iPhone 16 Pro) is not in this build’s profile — the team has been told.");
    expect(await verdict.locator("code").textContent()).toBe(OUT_TESTER);
    expect(await page.getByRole("link", { name: "Check this iPhone" }).count()).toBe(0);
    await audited(page, "portal-not-in-profile");
    expect(await deviceItem(OUT_TESTER)).toMatchObject({ email: tester, udid: OUT_TESTER, model: "iPhone 16 Pro", osVersion: "26.1" });

    const apps = (await page.evaluate(`fetch("/api/tester/apps").then((r) => r.json())`)) as TesterApps;
    expect(apps.enrollUrl).toBe(`${stack.baseUrl}/devices/enroll?return=%2Fapps`);
    expect(apps.items[0]!.latest.ios!.device).toEqual({
      verdict: "not-in-profile",
      device: { name: "Tester phone", model: "iPhone 16 Pro", product: "iPhone17,1", osVersion: "26.1", udid: OUT_TESTER },
      told: true,
    });

    await card.getByRole("link", { name: APP }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/tester/apps/${projectId}`);
    await page.getByTestId("tester-builds").locator(".device-verdict").waitFor();
    await audited(page, "portal-app-not-in-profile");

    // The personal install page the portal links to says the same.
    const installUrl = apps.items[0]!.latest.ios!.installUrl;
    await page.goto(installUrl);
    expect(await verdictBox(page).locator("strong").textContent()).toBe("This iPhone (Tester phone, iPhone 16 Pro) is not in this build's profile — the team has been told.");
    expect(await page.getByText(`Sent to ${tester}`).count()).toBe(1);
    await audited(page, "install-not-in-profile");
    expect(session.problems).toEqual([]);
  });
});

describe("accessibility", () => {
  it("has no serious axe findings on any page above, light or dark", () => {
    expect(violations).toEqual([]);
  });
});
