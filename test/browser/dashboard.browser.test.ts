import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { auditAndCapture, openSession, type BrowserSession } from "./support/browser";
import { waitForLink } from "./support/maildev";

/**
 * The spec's dashboard journey in Chromium against the local stack (section 5 step 3): sign up
 * and verify, create a project with a color, Security → Developer Settings → Create New Key,
 * copy the client ID and secret from the page, upload with the CLI using them, see the build in
 * the project with its icon and metadata, regenerate the key and see the CLI refused with the
 * old secret, and see the usage chart count the requests. axe-core on every page; screenshots
 * at phone and desktop width in .tmp/screenshots/dashboard/.
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const mailUrl = (stack as { mailUrl?: string }).mailUrl;
const SHOTS = "dashboard";
const JOURNEY_TIMEOUT_MS = 600_000;
const REPO_ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(REPO_ROOT, "packages/cli/bin/hangar.js");
const FIXTURE = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-string-refs.apk");
const PASSWORD = "violet kettle under 42 maple roofs";

let violations: string[] = [];
let session: BrowserSession | undefined;
let cliHome: string;

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

async function audit(page: Page, name: string) {
  violations.push(...(await auditAndCapture(page, SHOTS, name)));
}

async function expectPath(page: Page, pathname: string) {
  try {
    await eventually(() => new URL(page.url()).pathname).toBe(pathname);
  } catch (error) {
    const said = await page.getByRole("alert").allTextContents().catch(() => []);
    throw new Error(`expected ${pathname}, still on ${page.url()}; the page says: ${said.filter(Boolean).join(" | ") || "(no alert)"}`, { cause: error });
  }
}

/** Runs the CLI as a CI job would: only the HANGAR_* variables, in an empty directory and home. */
function hangarUpload(clientId: string, clientSecret: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, "upload", FIXTURE],
      {
        cwd: cliHome,
        timeout: 180_000,
        env: { PATH: process.env.PATH, HOME: cliHome, HANGAR_URL: baseUrl, HANGAR_CLIENT_ID: clientId, HANGAR_CLIENT_SECRET: clientSecret, NO_COLOR: "1" },
      },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => {
  if (!mailUrl) throw new Error("the local stack's info has no mailUrl: the browser tests read mail through MailDev");
  cliHome = mkdtempSync(join(tmpdir(), "hangar-cli-"));
});

afterAll(async () => {
  await session?.context.close().catch(() => undefined);
  rmSync(cliHome, { recursive: true, force: true });
});

describe("the dashboard in the browser", () => {
  it("creates a project and a key, uploads with the CLI, sees the build, regenerates the key and counts the usage", async () => {
    violations = [];
    session = await openSession(baseUrl);
    const { page, problems } = session;
    const email = `dash-${randomUUID().slice(0, 8)}@example.com`;

    // Sign up and verify by mail, as in the accounts journey.
    await page.goto("/sign-up");
    await field(page, "E-mail address").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expectPath(page, "/check-email");
    const { link } = await waitForLink(mailUrl!, email, "/verify-email");
    await page.goto(link);
    await eventually(() => heading(page).textContent()).toBe("E-mail address verified");
    await page.goto("/login");
    await field(page, "E-mail address").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expectPath(page, "/profile");
    await field(page, "Display name").fill("Grace Hopper");
    await page.getByRole("button", { name: "Continue to dashboard" }).click();
    await expectPath(page, "/dashboard");

    // An empty account is told what to do first.
    await eventually(() => page.getByRole("heading", { name: "Create your first project" }).isVisible()).toBe(true);
    await audit(page, "01-dashboard-empty");

    // With no project, the key form says so and links to project creation.
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Developer Settings" }).click();
    await expectPath(page, "/security/developer-settings");
    await eventually(() => page.getByText("A key needs a project.").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Create a project" }).click();
    await expectPath(page, "/projects/new");

    // The form checks its fields beside them before sending anything.
    await page.getByRole("button", { name: "Create project" }).click();
    await eventually(() => field(page, "Project name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#field-color-error").textContent()).toContain("Choose a color.");
    await audit(page, "02-new-project-errors");

    const projectName = "Rocket Android";
    await field(page, "Project name").fill(projectName);
    await page.getByLabel("Description (optional)").fill("Nightly builds of the Android app.");
    // The palette is a radio group of named swatches: a person picks "Teal" by its name.
    await page.getByRole("group", { name: "Color" }).getByRole("radio", { name: "Teal" }).check();
    await page.getByRole("button", { name: "Create project" }).click();
    await eventually(() => page.getByText(`Project “${projectName}” created.`).isVisible()).toBe(true);

    // The projects list shows it with its color, description and no uploads yet.
    await nav.getByRole("link", { name: "Projects" }).click();
    await expectPath(page, "/projects");
    const card = page.getByRole("listitem").filter({ hasText: projectName });
    await eventually(() => card.getByText("No uploads yet").isVisible()).toBe(true);
    expect(await card.locator(".project-badge").getAttribute("class")).toContain("color-teal");
    expect(await card.getByText("0 builds").isVisible()).toBe(true);
    await audit(page, "03-projects");

    // Security → Developer Settings → Create New Key.
    await nav.getByRole("link", { name: "Developer Settings" }).click();
    await expectPath(page, "/security/developer-settings");
    await field(page, "Key name").fill("GitHub Actions");
    await field(page, "Project").selectOption({ label: projectName });
    await page.getByRole("button", { name: "Create key" }).click();
    await eventually(() => page.getByText("Copy the client secret now. It will not be shown again.").isVisible()).toBe(true);
    const clientId = await field(page, "Client ID").inputValue();
    const clientSecret = await field(page, "Client secret").inputValue();
    expect(clientId).toMatch(/\S{8,}/);
    expect(clientSecret).toMatch(/\S{16,}/);
    expect(await page.getByRole("button", { name: "Copy Client secret" }).isVisible()).toBe(true);
    await audit(page, "04-key-created");

    // The secret is shown once: after "I have copied" it is nowhere on the page.
    await page.getByRole("button", { name: "I have copied the secret" }).click();
    await eventually(() => page.getByLabel("Client secret", { exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain(clientSecret);
    const keyRow = page.getByRole("listitem").filter({ hasText: "GitHub Actions" });
    await eventually(() => keyRow.getByText(clientId).isVisible()).toBe(true);
    expect(await keyRow.getByText("Active").isVisible()).toBe(true);
    expect(await keyRow.getByText("Never").isVisible()).toBe(true);

    // CI uploads with the copied key.
    const upload = await hangarUpload(clientId, clientSecret);
    expect(upload.code, `${upload.stdout}\n${upload.stderr}`).toBe(0);

    // The build appears in the project with its icon, name, version, platform and key.
    await nav.getByRole("link", { name: "Projects" }).click();
    await page.getByRole("link", { name: projectName }).click();
    await eventually(() => heading(page).textContent()).toBe(projectName);
    const row = page.locator(".file-row").first();
    await eventually(() => row.isVisible()).toBe(true);
    expect(await row.getByText("Completed").isVisible()).toBe(true);
    expect(await row.getByText("Android").isVisible()).toBe(true);
    expect(await row.getByText("by key GitHub Actions").isVisible()).toBe(true);
    // The API gives the build's icon (extracted from the APK) as an address in the object store.
    const iconUrl = await row.locator("[data-icon-url]").getAttribute("data-icon-url");
    expect(iconUrl).toMatch(/^https?:\/\//);
    const iconAnswer = await fetch(iconUrl!);
    expect(iconAnswer.status).toBe(200);
    expect([...new Uint8Array(await iconAnswer.arrayBuffer()).slice(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    // …and the page shows it: the dashboard's CSP allows the store's origin for images.
    const icon = row.locator("img.app-icon");
    await eventually(() => icon.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
    await audit(page, "05-project-files");

    // The file page: all metadata and the share and download links with copy buttons.
    await row.locator("a.file-name").click();
    await eventually(() => page.getByRole("heading", { name: "All metadata" }).isVisible()).toBe(true);
    expect(await page.getByText("Uploaded with key").isVisible()).toBe(true);
    const shareUrl = await field(page, "Share link").inputValue();
    expect(new URL(shareUrl).pathname).toMatch(/^\/share\//);
    expect(await page.getByRole("button", { name: "Copy Share link" }).isVisible()).toBe(true);
    expect(await field(page, "Download link").inputValue()).toMatch(/\/download\//);
    await audit(page, "06-file");

    // The dashboard home lists the project and the latest build.
    await nav.getByRole("link", { name: "Dashboard" }).click();
    await eventually(() => page.getByRole("heading", { name: "Latest builds" }).isVisible()).toBe(true);
    await eventually(() => page.locator(".file-row").count()).toBeGreaterThan(0);
    expect(await page.getByText("1 build", { exact: true }).isVisible()).toBe(true);
    await audit(page, "07-dashboard");

    // Regenerate: confirm, the new secret is shown once, the old one is refused at once.
    await nav.getByRole("link", { name: "Developer Settings" }).click();
    await keyRow.getByRole("button", { name: /^Regenerate/ }).click();
    await page.getByRole("button", { name: "Regenerate secret" }).click();
    await eventually(() => page.getByText("Copy the client secret now. It will not be shown again.").isVisible()).toBe(true);
    expect(await field(page, "Client ID").inputValue()).toBe(clientId);
    const newSecret = await field(page, "Client secret").inputValue();
    expect(newSecret).not.toBe(clientSecret);
    const refused = await hangarUpload(clientId, clientSecret);
    expect(refused.code, `${refused.stdout}\n${refused.stderr}`).toBe(3);
    await page.getByRole("button", { name: "I have copied the secret" }).click();

    // Usage: the chart and its table count the accepted requests (presign + complete) and the upload.
    await page.reload();
    await keyRow.getByRole("link", { name: /^Usage/ }).click();
    await eventually(() => page.getByRole("heading", { name: "Requests per day" }).isVisible()).toBe(true);
    const stat = (label: string) => page.locator(".stat").filter({ hasText: label }).locator("dd");
    expect(Number(await stat("Requests accepted").textContent())).toBeGreaterThanOrEqual(2);
    expect(await stat("Uploads completed").textContent()).toBe("1");
    const today = new Date().toISOString().slice(0, 10);
    const todayRow = page.locator("table tbody tr").filter({ has: page.locator("th", { hasText: today }) });
    expect(Number(await todayRow.locator("td").first().textContent())).toBeGreaterThanOrEqual(2);
    const bar = page.locator(`[data-day="${today}"] rect.chart-accepted`);
    expect(Number(await bar.getAttribute("height"))).toBeGreaterThan(0);
    await audit(page, "08-usage");

    // Revoke, after a confirm: the key shows as revoked.
    await nav.getByRole("link", { name: "Developer Settings" }).click();
    await keyRow.getByRole("button", { name: /^Revoke/ }).click();
    await page.getByRole("button", { name: "Revoke key" }).click();
    await eventually(() => keyRow.getByText("Revoked").isVisible()).toBe(true);
    await audit(page, "09-developer-settings");

    // Delete the project: the typed name must match, then it is gone from the list.
    await nav.getByRole("link", { name: "Projects" }).click();
    await page.getByRole("link", { name: projectName }).click();
    await eventually(() => heading(page).textContent()).toBe(projectName);
    await page.getByRole("button", { name: "Delete project…" }).click();
    const confirmField = field(page, `Type “${projectName}” to confirm`);
    await confirmField.fill("Rocket");
    await page.getByRole("button", { name: "Delete this project" }).click();
    await eventually(() => confirmField.getAttribute("aria-invalid")).toBe("true");
    await audit(page, "10-delete-project");
    await confirmField.fill(projectName);
    await page.getByRole("button", { name: "Delete this project" }).click();
    await expectPath(page, "/projects");
    await eventually(() => page.getByRole("heading", { name: "Create your first project" }).isVisible()).toBe(true);

    // Delete the account: a wrong password is refused beside the field; the right one signs out.
    await nav.getByRole("link", { name: "Account" }).click();
    await page.getByRole("button", { name: "Delete account…" }).click();
    await field(page, "Your password").fill("not the password at all");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await eventually(() => page.getByRole("alert").filter({ hasText: /\S/ }).count()).toBeGreaterThan(0);
    await audit(page, "11-delete-account");
    await field(page, "Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expectPath(page, "/login");
    // The address is free again: signing in with it fails.
    await field(page, "E-mail address").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await eventually(() => page.getByRole("alert").filter({ hasText: /\S/ }).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe("/login");

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);
});
