import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, type Browser as Person } from "../support/accounts";
import { call, stack } from "../support/api";
import { dashboardUser, IOS_INSTALLER, newDashboardKey, newProject, uploadIpa } from "../support/dashboard";
import type { Key } from "../support/api";
import { auditAndCapture, sessionOf, type BrowserSession } from "./support/browser";

/**
 * The share link's owner controls on the dashboard's file page (issue 11 items 5 and 6), in
 * Chromium against the local stack: turn the link off and on, protect it with a password, cap its
 * downloads, see an API field error beside its field, and regenerate it — each checked from the
 * tester's side by asking the share URL itself. axe-core on the file page; screenshots at phone
 * and desktop width in .tmp/screenshots/dashboard/.
 */

const HTML = { Accept: "text/html" };
const SHOTS = "dashboard";

let owner: Person;
let file: { fileId: string; userKey: string; shareUrl: string };
let projectId: string;
let key: Key;
let session: BrowserSession;
const violations: string[] = [];

const shareStatus = async (url: string) => (await call(new URL(url).pathname, { headers: HTML })).status;
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const state = (page: Page) => page.getByTestId("share-state").textContent();

async function save(page: Page) {
  await page.getByRole("button", { name: "Save link settings" }).click();
  await page.getByText("Link settings saved.").waitFor();
}

beforeAll(async () => {
  // The dashboard asks for a display name first (the profile step); this test is about the file page.
  ({ b: owner } = await dashboardUser("Share Owner"));
  ({ projectId } = await newProject(owner));
  key = await newDashboardKey(owner, projectId);
  file = await uploadIpa(key, "Controls.ipa");
  session = await sessionOf(stack().baseUrl, owner);
}, 120_000);

afterAll(async () => {
  await session?.context.close();
});

describe("share link controls on the file page", () => {
  it("disables, protects, caps and regenerates the link, and the share URL follows", async () => {
    const { page, problems } = session;
    await page.goto(`/files/${encodeURIComponent(file.fileId)}`);
    await page.getByRole("heading", { name: "Sharing" }).waitFor();
    expect(await state(page)).toBe("Active");
    expect(await field(page, "Share link").inputValue()).toBe(file.shareUrl);
    expect(await page.getByTestId("share-downloads").textContent()).toBe("0");
    expect(await page.getByTestId("share-installs").textContent()).toBe("0");
    expect(await shareStatus(file.shareUrl)).toBe(200);

    // Off: testers get the friendly 410 page.
    const toggle = page.getByRole("switch", { name: "Link enabled" });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await save(page);
    await eventually(() => state(page)).toBe("Disabled");
    expect(await shareStatus(file.shareUrl)).toBe(410);

    // On again, with a password: the share page asks for it and shows nothing of the build.
    await page.getByRole("switch", { name: "Link enabled" }).check();
    await field(page, "Password (optional)").fill("open sesame");
    await save(page);
    await eventually(() => state(page)).toBe("Active");
    expect(await page.getByText("Protected", { exact: true }).isVisible()).toBe(true);
    // The password is never shown back: the field is empty and now offers a new one.
    expect(await field(page, "New password (optional)").inputValue()).toBe("");
    violations.push(...(await auditAndCapture(page, SHOTS, "file-share-protected")));
    const tester = await session.context.newPage();
    await tester.goto(file.shareUrl);
    expect(await tester.getByText("This build is protected").first().isVisible()).toBe(true);
    expect(await tester.getByLabel(/password/i).first().isVisible()).toBe(true);
    await tester.close();

    // An API field error lands beside its field: an expiry beyond five years.
    await field(page, "Expires (optional)").fill("2045-01-01T12:00");
    await page.getByRole("button", { name: "Save link settings" }).click();
    const expiryError = page.locator("#field-expiresAt-error");
    await expiryError.waitFor();
    expect(await expiryError.textContent()).toContain("within five years");
    expect(await field(page, "Expires (optional)").getAttribute("aria-invalid")).toBe("true");

    // A client-side check for the cap; then a valid cap, no expiry and no password.
    await page.getByRole("button", { name: "Clear expiry" }).click();
    await field(page, "Download limit (optional)").fill("0");
    await page.getByRole("button", { name: "Save link settings" }).click();
    await page.locator("#field-maxDownloads-error").waitFor();
    await field(page, "Download limit (optional)").fill("5");
    await page.getByLabel("Remove the password").check();
    await save(page);
    expect(await page.getByTestId("share-downloads").textContent()).toBe("0 of 5");
    expect(await page.getByText("Protected", { exact: true }).count()).toBe(0);
    expect(await shareStatus(file.shareUrl)).toBe(200);

    violations.push(...(await auditAndCapture(page, SHOTS, "file-share-controls")));

    // Regenerate: a confirm that says the old link dies, then the new link on the page.
    await page.getByRole("button", { name: "Regenerate link…" }).click();
    const confirm = page.getByRole("group", { name: "Confirm new link" });
    expect(await confirm.textContent()).toContain("stops working");
    await confirm.getByRole("button", { name: "Create new link" }).click();
    await page.getByText("New link created.").waitFor();
    const newUrl = await field(page, "Share link").inputValue();
    expect(newUrl).not.toBe(file.shareUrl);
    expect(new URL(newUrl).pathname).toMatch(/^\/share\/[^/]+$/);
    expect(await shareStatus(file.shareUrl)).toBe(410);
    expect(await shareStatus(newUrl)).toBe(200);
    // The download link follows the new key too.
    expect(await field(page, "Download link").inputValue()).toContain(new URL(newUrl).pathname.split("/").pop()!);
    // A reload shows the same link: the page shows what the server has.
    await page.reload();
    await page.getByRole("heading", { name: "Sharing" }).waitFor();
    expect(await field(page, "Share link").inputValue()).toBe(newUrl);
    expect(await page.getByTestId("share-downloads").textContent()).toBe("0 of 5");

    violations.push(...(await auditAndCapture(page, SHOTS, "file-share-regenerated")));
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  it("shows each build's counts and link state on the project's file list, and today's counts in the file page's chart", async () => {
    const { page, problems } = session;
    const counted = await uploadIpa(key, "Counted.ipa");
    const off = await uploadIpa(key, "Off.ipa");
    // Three downloads and two iOS install requests by testers; a chat unfurler and a HEAD count nothing.
    for (let i = 0; i < 3; i++) expect((await call(`/download/${counted.userKey}`)).status).toBe(302);
    for (let i = 0; i < 2; i++) expect((await call(`/share/${counted.userKey}/manifest.plist`, { headers: IOS_INSTALLER })).status).toBe(200);
    // The manifest opened with curl is not an install request.
    expect((await call(`/share/${counted.userKey}/manifest.plist`, { headers: { "User-Agent": "curl/8.5.0" } })).status).toBe(200);
    await call(`/download/${counted.userKey}`, { headers: { "User-Agent": "Mozilla/5.0 (compatible; Discordbot/2.0)" } });
    await call(`/download/${counted.userKey}`, { method: "HEAD" });
    expect((await dash(owner, "PATCH", `/api/files/${off.fileId}/share`, { enabled: false })).status).toBe(200);

    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    const countedRow = page.locator(".file-row", { has: page.locator(`a[href="/files/${counted.fileId}"]`) });
    const offRow = page.locator(".file-row", { has: page.locator(`a[href="/files/${off.fileId}"]`) });
    await countedRow.waitFor();
    expect(await countedRow.getByTestId("file-counts").textContent()).toBe("3 downloads · 2 iOS install requests");
    expect(await countedRow.getByText("Link off").count()).toBe(0);
    expect(await offRow.getByText("Link off", { exact: true }).isVisible()).toBe(true);
    expect(await offRow.getByTestId("file-counts").textContent()).toBe("0 downloads · 0 iOS install requests");
    violations.push(...(await auditAndCapture(page, SHOTS, "project-file-counts")));

    await countedRow.locator(`a[href="/files/${counted.fileId}"]`).click();
    await page.getByRole("heading", { name: "Sharing" }).waitFor();
    expect(await page.getByTestId("share-downloads").textContent()).toBe("3");
    expect(await page.getByTestId("share-installs").textContent()).toBe("2");
    const today = new Date().toISOString().slice(0, 10);
    const bars = page.getByTestId("share-chart").locator("g[data-day]");
    expect(await bars.count()).toBe(30);
    const todayBar = page.getByTestId("share-chart").locator(`g[data-day="${today}"]`);
    expect(await todayBar.getAttribute("data-downloads")).toBe("3");
    expect(await todayBar.getAttribute("data-installs")).toBe("2");
    // Both series are drawn today (side by side), and screen readers get the same numbers as a table.
    expect(await todayBar.locator("rect").count()).toBe(2);
    const tableRow = page.getByRole("table", { name: /Downloads and iOS install requests per day/ }).getByRole("row", { name: new RegExp(today) });
    expect((await tableRow.allTextContents()).join(" ")).toMatch(new RegExp(`${today}\\s*3\\s*2`));
    violations.push(...(await auditAndCapture(page, SHOTS, "file-share-chart")));
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  it("shows the release notes and CI context CI sent, as text, on the file page", async () => {
    const { page, problems } = session;
    const notes = `Fixes the login crash.\nNew: dark mode <script>alert("x")</script> & <b>bold</b>`;
    const built = await uploadIpa(key, "Notes.ipa", {
      releaseNotes: notes,
      branch: "feature/<i>dark</i>",
      commit: "0123456789abcdef0123456789abcdef01234567",
      ciUrl: "https://ci.example.test/runs/42?a=1&b=2",
    });
    await page.goto(`/files/${encodeURIComponent(built.fileId)}`);
    await page.getByRole("heading", { name: "Release notes" }).waitFor();
    // The notes are the very text sent, line break included; no markup in them became an element.
    expect(await page.getByTestId("release-notes").innerText()).toBe(notes);
    const card = page.locator("section[aria-labelledby='release-notes-title']");
    expect(await card.locator("script, b, i").count()).toBe(0);
    expect(await card.getByText("feature/<i>dark</i>", { exact: true }).isVisible()).toBe(true);
    expect(await card.getByText("0123456789abcdef0123456789abcdef01234567", { exact: true }).isVisible()).toBe(true);
    const run = card.getByRole("link", { name: "Open the CI run" });
    expect(await run.getAttribute("href")).toBe("https://ci.example.test/runs/42?a=1&b=2");
    expect(await run.getAttribute("rel")).toBe("noopener noreferrer");
    violations.push(...(await auditAndCapture(page, SHOTS, "file-release-notes")));

    // A build uploaded without any: no card at all.
    const plain = await uploadIpa(key, "Plain.ipa");
    await page.goto(`/files/${encodeURIComponent(plain.fileId)}`);
    await page.getByRole("heading", { name: "Sharing" }).waitFor();
    expect(await page.getByRole("heading", { name: "Release notes" }).count()).toBe(0);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  }, 180_000);

  it("keeps a phone's file page short: the chart, the link settings, the install history and all metadata open on request, by keyboard", async () => {
    const phone = await sessionOf(stack().baseUrl, owner, { viewport: { width: 390, height: 844 } });
    try {
      const { page, problems } = phone;
      await page.goto(`/files/${encodeURIComponent(file.fileId)}`);
      await page.getByRole("heading", { name: "Sharing" }).waitFor();
      const disclosure = (summary: string | RegExp) => page.locator("details").filter({ has: page.locator("summary", { hasText: summary }) });
      const isOpen = (summary: string | RegExp) => disclosure(summary).evaluate((d) => d.hasAttribute("open"));
      // On a phone each starts closed: only its summary shows, nothing of what it holds.
      for (const summary of ["Per day, last 30 days (UTC)", "Link settings", "Installs", /^\d+ fields$/]) {
        expect(await isOpen(summary), String(summary)).toBe(false);
      }
      expect(await page.getByTestId("share-chart").isVisible()).toBe(false);
      expect(await field(page, "Password (optional)").isVisible()).toBe(false);
      expect(await page.getByTestId("metadata").isVisible()).toBe(false);
      expect(await page.getByRole("heading", { name: "All metadata" }).isVisible()).toBe(true);
      violations.push(...(await auditAndCapture(page, SHOTS, "file-phone-closed", ["phone"])));

      // Enter on the focused summary opens the link settings; Space opens all metadata.
      await disclosure("Link settings").locator("summary").focus();
      await page.keyboard.press("Enter");
      await eventually(() => field(page, "Password (optional)").isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: "Save link settings" }).isVisible()).toBe(true);
      await disclosure(/^\d+ fields$/).locator("summary").focus();
      await page.keyboard.press("Space");
      await eventually(() => page.getByTestId("metadata").isVisible()).toBe(true);
      expect(await page.getByTestId("metadata").textContent()).toContain("Minimum OS");
      // Focus stays on the control.
      expect(await page.evaluate("document.activeElement?.tagName")).toBe("SUMMARY");
      await page.getByText("Per day, last 30 days (UTC)").click();
      await eventually(() => page.getByTestId("share-chart").isVisible()).toBe(true);
      violations.push(...(await auditAndCapture(page, SHOTS, "file-phone-opened", ["phone"])));
      expect(violations).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await phone.context.close();
    }
  }, 180_000);
});
