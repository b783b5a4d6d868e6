import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, PASSWORD, type Browser as Person } from "../support/accounts";
import { call, readFixture, stack, upload, type Key } from "../support/api";
import { dashboardUser, IOS_INSTALLER, newDashboardKey, newProject, uploadFile } from "../support/dashboard";
import { fixtures } from "../support/fixtures";
import { auditBothSchemes, sessionOf, type BrowserSession } from "./support/browser";

/**
 * The dashboard's finishing touches (issue 17 items 9 and 10), in Chromium against the local
 * stack: an ended session said on the login page and the form given back after sign-in; expiry
 * presets and a past expiry refused; rejected uploads apart from the builds with matching counts;
 * builds testers cannot install said on the list and the file page; and every changed page
 * axe-clean in the light and the dark scheme, with screenshots at 390 and 1280 px in both
 * (.tmp/screenshots/dashboard-ux/).
 */


let owner: Person;
let email: string;
let key: Key;
let projectId: string;
let session: BrowserSession;
const violations: string[] = [];
/** The violations the audits of one test found, named in the failure; the list starts empty for the next test. */
function expectNoViolations() {
  const found = violations.splice(0);
  expect(found, found.join("\n")).toEqual([]);
}
let installable: { fileId: string; userKey: string; shareUrl: string };
let appStore: { fileId: string; userKey: string; shareUrl: string };

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

const uploaded = (kind: "apk" | "ipa", fixture: string, name: string) => uploadFile(key, fixtures(kind).find((f) => f.endsWith(fixture))!, name);

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, "dashboard-ux", name)));
}

beforeAll(async () => {
  ({ b: owner, email } = await dashboardUser("Dana Night"));
  ({ projectId } = await newProject(owner, "Night Shift"));
  key = await newDashboardKey(owner, projectId);
  // xml-plist.ipa is signed for development with devices until 2036-03; unicode-names.ipa for the App Store.
  installable = await uploaded("ipa", "xml-plist.ipa", "Demo.ipa");
  appStore = await uploaded("ipa", "unicode-names.ipa", "Rocket.ipa");
  // One download and one iOS install request, so the chart has bars in both colours.
  expect((await call(`/download/${installable.userKey}`)).status).toBe(302);
  expect((await call(`/share/${installable.userKey}/manifest.plist`, { headers: IOS_INSTALLER })).status).toBe(200);
  const rejected = await upload(key, "not-a-package.apk", new Uint8Array(randomBytes(2048)));
  expect(rejected.completed.status).toBe(422);

  session = await sessionOf(stack().baseUrl, owner);
}, 120_000);

afterAll(async () => {
  await session?.context.close();
});

describe("the dashboard", () => {
  it("lists rejected uploads apart from the builds, and the build count matches the rows", async () => {
    const { page } = session;
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.getByTestId("builds-list").waitFor();
    expect(await page.getByTestId("project-build-count").textContent()).toBe("2");
    expect(await page.getByTestId("builds-count").textContent()).toBe("2 builds");
    expect(await page.getByTestId("builds-list").locator(".file-row").count()).toBe(2);
    expect(await page.getByTestId("rejected-count").textContent()).toBe("1 upload");
    const rejectedRows = page.getByTestId("rejected-list").locator(".file-row");
    expect(await rejectedRows.count()).toBe(1);
    expect(await rejectedRows.first().getByText("Rejected", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByTestId("builds-list").getByText("Rejected", { exact: true }).count()).toBe(0);

    // The App Store build says, in its row, that testers cannot install it; the other does not.
    const row = (fileId: string) => page.locator(".file-row", { has: page.locator(`a[href="/files/${fileId}"]`) });
    expect(await row(appStore.fileId).getByTestId("not-installable").textContent()).toContain("App Store");
    expect(await row(installable.fileId).getByTestId("not-installable").count()).toBe(0);
    expect(await row(installable.fileId).getByTestId("file-counts").textContent()).toBe("1 download · 1 iOS install request");
    await audited(page, "project");

    await page.goto("/dashboard");
    await page.getByRole("heading", { name: "Latest builds" }).waitFor();
    await page.getByRole("heading", { name: "Recently rejected uploads" }).waitFor();
    await audited(page, "home");
    expectNoViolations();
  }, 180_000);

  it("says on the file page why testers cannot install a build, and sizes as the CLI and share page do", async () => {
    const { page } = session;
    await page.goto(`/files/${encodeURIComponent(appStore.fileId)}`);
    const warning = page.getByTestId("install-warning");
    await warning.waitFor();
    expect(await warning.textContent()).toContain("Testers cannot install this build from its link.");
    expect(await warning.textContent()).toContain("App Store");
    const bytes = readFixture(fixtures("ipa").find((f) => f.endsWith("unicode-names.ipa"))!).length;
    // The decimal rule of packages/inspect/src/format/format-bytes.ts (kB, one decimal).
    expect(await page.getByText(`Rocket.ipa · ${(bytes / 1000).toFixed(1)} kB`).isVisible()).toBe(true);
    await audited(page, "file-not-installable");

    await page.goto(`/files/${encodeURIComponent(installable.fileId)}`);
    await page.getByRole("heading", { name: "Sharing" }).waitFor();
    expect(await page.getByTestId("install-warning").count()).toBe(0);
    expect(await page.getByRole("term").filter({ hasText: "iOS install requests" }).isVisible()).toBe(true);
    expect(await page.getByTestId("share-installs").textContent()).toBe("1");
    await audited(page, "file");
    expectNoViolations();
  }, 180_000);

  it("sets the link's expiry from a preset, and refuses a past one before asking the server", async () => {
    const { page } = session;
    await page.goto(`/files/${encodeURIComponent(installable.fileId)}`);
    await page.getByRole("heading", { name: "Sharing" }).waitFor();
    const presets = page.getByRole("group", { name: "Expire in" });
    expect(await presets.getByRole("button").allTextContents()).toEqual(["1 day", "7 days", "30 days"]);

    const before = Date.now();
    await presets.getByRole("button", { name: "7 days" }).click();
    const local = await field(page, "Expires (optional)").inputValue();
    // The browser runs in UTC (openSession), so the datetime-local value reads as UTC.
    const chosen = Date.parse(`${local}:00Z`);
    expect(chosen).toBeGreaterThan(before + 7 * 86_400_000 - 120_000);
    expect(chosen).toBeLessThan(Date.now() + 7 * 86_400_000 + 60_000);
    await page.getByRole("button", { name: "Save link settings" }).click();
    await page.getByText("Link settings saved.").waitFor();
    const saved = (await dash(owner, "GET", `/api/files/${installable.fileId}`)).json.share.expiresAt as string;
    expect(Date.parse(saved)).toBe(chosen);

    // A past expiry: said beside the field, and nothing is sent (the saved expiry stays).
    let patches = 0;
    page.on("request", (r) => {
      if (r.method() === "PATCH") patches += 1;
    });
    await field(page, "Expires (optional)").fill("2020-01-01T10:00");
    await page.getByRole("button", { name: "Save link settings" }).click();
    const error = page.locator("#field-expiresAt-error");
    await error.waitFor();
    expect(await error.textContent()).toContain("Choose a time in the future");
    expect(await field(page, "Expires (optional)").getAttribute("aria-invalid")).toBe("true");
    expect(patches).toBe(0);
    expect((await dash(owner, "GET", `/api/files/${installable.fileId}`)).json.share.expiresAt).toBe(saved);
    await audited(page, "file-expiry-refused");
    expectNoViolations();
  }, 180_000);

  it("says an ended session ended, and after sign-in returns to the page with the form as it was", async () => {
    const { page } = session;
    await page.goto("/projects/new");
    await field(page, "Project name").fill("Drafted before expiry");
    await field(page, "Description (optional)").fill("Typed while the session ran out");
    await page.getByText("Teal", { exact: true }).click();

    // The session ends on the server (as it does when it expires); the browser still holds the cookie.
    const [name, ...value] = (await session.context.cookies()).map((c) => `${c.name}=${c.value}`)[0]!.split("=");
    const ended = await dash({ ip: "203.0.113.77", cookie: `${name}=${value.join("=")}` }, "DELETE", "/api/session");
    expect(ended.status, ended.text).toBe(204);

    await page.getByRole("button", { name: "Create project" }).click();
    await eventually(() => new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/projects/new");
    // The login page is a chunk of its own, loaded on first use: wait for it to show.
    await page.getByText("Your session ended — sign in again").waitFor({ state: "visible" });
    await audited(page, "login-session-ended");

    await field(page, "E-mail address").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await eventually(() => new URL(page.url()).pathname).toBe("/projects/new");
    await eventually(() => field(page, "Project name").inputValue()).toBe("Drafted before expiry");
    expect(await field(page, "Description (optional)").inputValue()).toBe("Typed while the session ran out");
    expect(await page.getByRole("radio", { name: "Teal" }).isChecked()).toBe(true);
    // Restored once: the draft is gone from the tab's storage, and a reload starts empty.
    expect(await page.evaluate('Object.keys(sessionStorage).filter((k) => k.startsWith("hangar:draft:"))')).toEqual([]);
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByText("Project “Drafted before expiry” created.").waitFor();
    await page.goto("/projects/new");
    await field(page, "Project name").waitFor();
    expect(await field(page, "Project name").inputValue()).toBe("");
    expectNoViolations();
    expect(session.problems).toEqual([]);
  }, 180_000);
});

describe("the other main pages in both schemes", () => {
  it("projects, developer settings, key usage and account are axe-clean light and dark", async () => {
    const { page } = session;
    for (const [name, path, ready] of [
      ["projects", "/projects", "Night Shift"],
      ["developer-settings", "/security/developer-settings", "Developer Settings"],
      ["key-usage", `/security/developer-settings/keys/${encodeURIComponent(key.clientId)}`, "Requests per day"],
      ["account", "/account", "Account"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { name: ready }).first().waitFor();
      await page.waitForLoadState("networkidle");
      await audited(page, name);
    }
    expectNoViolations();
  }, 240_000);
});

describe("the share page", () => {
  it("is readable and axe-clean in the dark scheme too, the QR code on its white ground", async () => {
    const { page } = session;
    for (const [name, file] of [
      ["share", installable],
      ["share-not-installable", appStore],
    ] as const) {
      await page.goto(file.shareUrl);
      await page.locator("h1").waitFor();
      await audited(page, name);
    }
    // A protected link's password page, with its field, in both schemes.
    const locked = await uploaded("ipa", "xml-plist.ipa", "Locked.ipa");
    // The session test above ended the owner's API session (it was the browser's): a new one.
    expect((await dash(owner, "POST", "/api/session", { email, password: PASSWORD })).status).toBe(200);
    expect((await dash(owner, "PATCH", `/api/files/${locked.fileId}/share`, { password: "night owl" })).status).toBe(200);
    await page.goto(locked.shareUrl);
    await page.getByLabel("Password").waitFor();
    await audited(page, "share-password");

    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(installable.shareUrl);
    expect(await page.evaluate("getComputedStyle(document.body).backgroundColor")).toBe("rgb(13, 17, 23)");
    expect(await page.locator(".qr svg path").first().getAttribute("fill")).toBe("#ffffff");
    await page.emulateMedia({ colorScheme: "light" });
    expectNoViolations();
  }, 180_000);
});
