import { devices, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser as Person } from "../support/accounts";
import { readFixture, upload } from "../support/api";
import { newDashboardKey, newProject, uploadIpa } from "../support/dashboard";
import { fixtures } from "../support/fixtures";
import { auditBothSchemes, sharedBrowser } from "./support/browser";

/**
 * Issue 20: a project's public app page (docs/testers.md, "The app page and the update check") as
 * testers see it in Chromium: on an iPhone (Install first) and a desktop (QR code), its password
 * form and its 404 page. axe-core in the light and the dark scheme at 390 and 1280 px, screenshots
 * in .tmp/screenshots/apps; no CSP report.
 */

let owner: Person;
let projectId: string;
let url: string;
const contexts: BrowserContext[] = [];

async function open(device: "iphone" | "desktop"): Promise<{ page: Page; problems: string[] }> {
  const browser = await sharedBrowser();
  const { defaultBrowserType: _ignored, ...descriptor } = (device === "iphone" ? devices["iPhone 14"] : devices["Desktop Chrome"])!;
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

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  ({ projectId } = await newProject(owner, "Field Notes"));
  const key = await newDashboardKey(owner, projectId);
  for (let i = 0; i < 3; i++) await uploadIpa(key, `FieldNotes-${i}.ipa`);
  const apk = fixtures("apk").find((f) => f.endsWith("aapt2-literal.apk"))!;
  const { completed } = await upload(key, "field-notes.apk", readFixture(apk), { releaseNotes: "Offline sync.\nA darker dark mode." });
  expect(completed.status, completed.text).toBe(200);
  await uploadIpa(key, "FieldNotes.ipa", { releaseNotes: "Fixes the crash on sign-in.\nNew: export to PDF." });
  const on = await dash(owner, "PUT", `/api/projects/${projectId}/app-page`, { enabled: true });
  expect(on.status, on.text).toBe(200);
  url = on.json.url;
});

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
});

describe("the app page in Chromium", () => {
  it("on an iPhone: Install first for the latest iOS build, the Android build beside it, earlier builds below; axe-clean light and dark", async () => {
    const { page, problems } = await open("iphone");
    const reply = await page.goto(url);
    expect(reply?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Field Notes");
    const ios = page.locator("section", { has: page.getByRole("heading", { name: /for iPhone and iPad/ }) });
    await expect(ios.locator(".actions a.button.primary").textContent()).resolves.toBe("Install");
    expect(await ios.locator(".actions a.button.primary").getAttribute("href")).toMatch(/^itms-services:\/\/\?action=download-manifest&url=/);
    await expect(page.getByRole("heading", { name: "Earlier builds" }).isVisible()).resolves.toBe(true);
    expect(await page.locator(".builds li").count()).toBe(3);
    expect(await auditBothSchemes(page, "apps", "app-page-iphone")).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("on a desktop: both platforms, the QR code to open it on a phone; axe-clean light and dark", async () => {
    const { page, problems } = await open("desktop");
    await page.goto(url);
    await expect(page.getByRole("img", { name: "QR code of this page's address" }).isVisible()).resolves.toBe(true);
    const android = page.locator("section", { has: page.getByRole("heading", { name: /for Android/ }) });
    await expect(android.locator(".actions a.button.primary").textContent()).resolves.toBe("Download APK");
    expect(await auditBothSchemes(page, "apps", "app-page-desktop")).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("its password form and its 404 page are axe-clean too", async () => {
    expect((await dash(owner, "PUT", `/api/projects/${projectId}/app-page`, { enabled: true, password: "field notes" })).status).toBe(200);
    const { page, problems } = await open("iphone");
    expect((await page.goto(url))?.status()).toBe(401);
    expect(await auditBothSchemes(page, "apps", "app-page-password")).toEqual([]);
    await page.getByLabel("Password").fill("field notes");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(url);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Field Notes");
    expect((await page.goto(`${new URL(url).origin}/apps/field-notes-AAAAAAAAAAAA`))?.status()).toBe(404);
    expect(await auditBothSchemes(page, "apps", "app-page-not-found")).toEqual([]);
    expect(problems).toEqual([]);
  });
});
