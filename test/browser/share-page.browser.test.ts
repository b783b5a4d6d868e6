import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import jsQR from "jsqr";
import { devices, type BrowserContext, type Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser as Person } from "../support/accounts";
import { call, complete, mediaType, presign, put, readFixture, stack } from "../support/api";
import { expireLink, newDashboardKey, newProject } from "../support/dashboard";
import { fixtures } from "../support/fixtures";
import { SCREENSHOT_DIR, seriousViolations, sharedBrowser } from "./support/browser";

/**
 * The share page as testers see it, in Chromium with the iPhone, Pixel and desktop descriptors
 * Playwright ships: the right primary action on each device, the install link decoded back to
 * the manifest, the QR code decoded back to the share URL from pixels, the password flow and the
 * pages of links that serve nothing. axe-core on every page; screenshots in .tmp/screenshots/share.
 */

const SHOTS = join(SCREENSHOT_DIR, "share");
const DEVICES = {
  iphone: devices["iPhone 14"]!,
  pixel: devices["Pixel 7"]!,
  desktop: { ...devices["Desktop Chrome"]!, viewport: { width: 1280, height: 800 } },
} as const;

let owner: Person;
let key: { clientId: string; clientSecret: string; projectId: string };
const contexts: BrowserContext[] = [];

async function uploadWith(kind: "apk" | "ipa", fixture: string, fileName: string, extra: Record<string, unknown> = {}) {
  const bytes = readFixture(fixtures(kind).find((f) => f.endsWith(fixture))!);
  const declared = { fileName, fileSize: bytes.length, fileType: mediaType(fileName) };
  const presigned = await presign(key, declared);
  expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
  const done = await complete(key, { ...declared, key: presigned.json.key, ...extra });
  expect(done.status, done.text).toBe(200);
  return done.json as { fileId: string; userKey: string; shareUrl: string; downloadUrl: string };
}

async function open(device: keyof typeof DEVICES): Promise<{ page: Page; problems: string[] }> {
  const browser = await sharedBrowser();
  const { defaultBrowserType: _ignored, ...descriptor } = DEVICES[device] as typeof DEVICES.iphone;
  const context = await browser.newContext({ ...descriptor, locale: "en-US", timezoneId: "UTC" });
  context.setDefaultTimeout(15_000);
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => {
    const text = m.text();
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
    else if (m.type() === "error" && !/status of 4\d\d/.test(text)) problems.push(text);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { page, problems };
}

async function auditShot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  expect(await seriousViolations(page), name).toEqual([]);
}

const primary = (page: Page) => page.locator(".actions a.button.primary");

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  const project = await newProject(owner);
  key = await newDashboardKey(owner, project.projectId);
});

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
});

describe("the share page on each device", () => {
  let ios: Awaited<ReturnType<typeof uploadWith>>;
  let android: Awaited<ReturnType<typeof uploadWith>>;
  beforeAll(async () => {
    ios = await uploadWith("ipa", "xml-plist.ipa", "Demo.ipa", {
      releaseNotes: "Fixes the login crash.\nNew onboarding <b>screens</b>.",
      branch: "release/2.0",
      commit: "3f2a9c1d",
      ciUrl: "https://github.com/example/app/actions/runs/1",
    });
    android = await uploadWith("apk", "aapt2-adaptive-icon.apk", "demo.apk", { releaseNotes: "Android build for QA." });
  });

  it("offers Install on an iPhone, and its itms-services link names the manifest", async () => {
    const { page, problems } = await open("iphone");
    const reply = await page.goto(ios.shareUrl);
    expect(reply!.status()).toBe(200);
    await expect.poll(() => primary(page).textContent()).toBe("Install");
    const href = (await primary(page).getAttribute("href"))!;
    expect(href.startsWith("itms-services://?action=download-manifest&url=")).toBe(true);
    const manifestUrl = decodeURIComponent(href.slice(href.indexOf("&url=") + 5));
    expect(manifestUrl).toBe(`${stack().baseUrl}/share/${ios.userKey}/manifest.plist`);
    expect((await call(new URL(manifestUrl).pathname)).status).toBe(200);
    // Notes markup is shown as text.
    await expect.poll(() => page.locator(".notes").textContent()).toContain("<b>screens</b>");
    await auditShot(page, "ios-iphone");
    expect(problems).toEqual([]);
  });

  it("offers Download APK on a Pixel", async () => {
    const { page, problems } = await open("pixel");
    await page.goto(android.shareUrl);
    expect(await primary(page).textContent()).toBe("Download APK");
    expect(await primary(page).getAttribute("href")).toBe(android.downloadUrl);
    await auditShot(page, "android-pixel");
    expect(problems).toEqual([]);
  });

  it("shows a QR code of the share URL and both actions on a desktop", async () => {
    const { page, problems } = await open("desktop");
    await page.goto(ios.shareUrl);
    const labels = await page.locator(".actions a.button").allTextContents();
    expect(labels).toEqual(["Install on iPhone or iPad", "Download IPA"]);
    const png = PNG.sync.read(await page.locator(".qr svg").screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(decoded?.data).toBe(ios.shareUrl);
    await auditShot(page, "ios-desktop");
    const phone = await open("desktop");
    await phone.page.setViewportSize({ width: 360, height: 780 });
    await phone.page.goto(android.shareUrl);
    await auditShot(phone.page, "android-360px");
    expect([...problems, ...phone.problems]).toEqual([]);
  });
});

describe("the issue's done-when: `hangar upload --notes` on the local stack, opened on a phone", () => {
  /** The real CLI as a CI job runs it: only HANGAR_* variables (no CI context), an empty home. */
  function hangar(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const home = mkdtempSync(join(tmpdir(), "hangar-cli-"));
    const env = { PATH: process.env.PATH, HOME: home, HANGAR_URL: stack().baseUrl, HANGAR_CLIENT_ID: key.clientId, HANGAR_CLIENT_SECRET: key.clientSecret, NO_COLOR: "1" };
    const bin = resolve(import.meta.dirname, "../../packages/cli/bin/hangar.js");
    return new Promise((done) =>
      execFile(process.execPath, [bin, ...args], { cwd: home, env, timeout: 120_000 }, (error, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      }),
    );
  }

  it("shows the notes and the Install action, and the CLI's installUrl is the page's", async () => {
    const ipa = fixtures("ipa").find((f) => f.endsWith("xml-plist.ipa"))!;
    const notes = "Beta 3: fixes the <login> crash & adds dark mode";
    const run = await hangar(["upload", ipa, "--notes", notes, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { shareUrl: string; qrCodeUrl: string; installUrl: string };
    expect(answer.qrCodeUrl).toBe(`${answer.shareUrl}/qr.svg`);
    const { page, problems } = await open("iphone");
    expect((await page.goto(answer.shareUrl))!.status()).toBe(200);
    expect(await page.locator(".notes").textContent()).toContain(notes);
    expect(await primary(page).textContent()).toBe("Install");
    expect(await primary(page).getAttribute("href")).toBe(answer.installUrl);
    await auditShot(page, "cli-notes-iphone");
    expect(problems).toEqual([]);
  });
});

describe("link controls as a tester meets them", () => {
  it("asks for the password, refuses a wrong one, and opens the build with the right one", async () => {
    const file = await uploadWith("ipa", "xml-plist.ipa", "Secret.ipa");
    expect((await dash(owner, "PATCH", `/api/files/${file.fileId}/share`, { password: "tulip harbour" })).status).toBe(200);
    const { page, problems } = await open("iphone");
    const first = await page.goto(file.shareUrl);
    expect(first!.status()).toBe(401);
    expect(await page.locator("h1").textContent()).toBe("This build is protected");
    expect(await page.content()).not.toContain("Demo App");
    await auditShot(page, "password-form");
    await page.getByLabel("Password").fill("wrong guess");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("not right");
    await auditShot(page, "password-wrong");
    await page.getByLabel("Password").fill("tulip harbour");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => page.locator("h1").textContent()).toBe("Demo App");
    const href = (await primary(page).getAttribute("href"))!;
    const manifestUrl = decodeURIComponent(href.slice(href.indexOf("&url=") + 5));
    expect(manifestUrl).toMatch(/manifest\.plist\?t=/);
    // The token in the URL is what iOS carries: the manifest opens without any cookie.
    expect((await fetch(manifestUrl)).status).toBe(200);
    expect(problems).toEqual([]);
  });

  type Shared = { fileId: string; userKey: string };
  const settle = (change: object) => async (file: Shared) => expect((await dash(owner, "PATCH", `/api/files/${file.fileId}/share`, change)).status).toBe(200);
  it.each([
    ["disabled", settle({ enabled: false }), "This link is turned off"],
    // A past expiry cannot be saved (400): the stored one is moved into the past, as time would.
    ["expired", (file: Shared) => expireLink(file.userKey), "This link has expired"],
    [
      "capped",
      async (file: Shared) => {
        await settle({ maxDownloads: 1 })(file);
        expect((await call(`/download/${file.userKey}`)).status).toBe(302);
      },
      "Install limit reached",
    ],
    ["removed", async (file: Shared) => expect((await dash(owner, "DELETE", `/api/files/${file.fileId}`)).status).toBe(204), "This build was removed"],
    ["replaced", async (file: Shared) => expect((await dash(owner, "POST", `/api/files/${file.fileId}/share/regenerate`)).status).toBe(200), "This link was replaced"],
  ] as const)("shows a friendly 410 page for a %s link", async (name, act, heading) => {
    const file = await uploadWith("apk", "aapt2-adaptive-icon.apk", `${name}.apk`);
    await act(file);
    const { page, problems } = await open("pixel");
    const reply = await page.goto(file.shareUrl);
    expect(reply!.status()).toBe(410);
    expect(await page.locator("h1").textContent()).toBe(heading);
    await auditShot(page, `gone-${name}`);
    expect(problems).toEqual([]);
  });
});
