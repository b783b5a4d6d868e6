import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PASSWORD, browser, verifiedAccount } from "../support/accounts";
import { SCREENSHOT_DIR, openSession, seriousViolations, type BrowserSession } from "./support/browser";

/**
 * The new-key panel's CI command (issue 17, item 8): complete with this instance's address, the
 * secret masked until revealed, Copy copying the real command; and the copied command, run as
 * written in a shell (its `app.apk` replaced by a fixture's path), uploads to the local stack,
 * fetching the CLI from it with no registry. axe-clean; screenshots at 390 and 1280 px in
 * .tmp/screenshots/ci-snippet/.
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const REPO_ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-string-refs.apk");
const SHOTS = join(SCREENSHOT_DIR, "ci-snippet");
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
const MASK = "•".repeat(12);

let session: BrowserSession | undefined;
let work: string;

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

/** axe at both widths, and a full-page screenshot at each. */
async function auditAndShoot(page: Page, name: string): Promise<string[]> {
  mkdirSync(SHOTS, { recursive: true });
  const found: string[] = [];
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
    for (const v of await seriousViolations(page)) found.push(`[${name} @ ${label}] ${v}`);
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(SHOTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.desktop);
  return found;
}

/** A shell line as a person pastes it into a terminal: bash, an empty home, its own npm cache, no registry. */
function runInShell(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(work, "home-"));
  return new Promise((done) => {
    execFile(
      "bash",
      ["-c", command],
      {
        cwd: home,
        timeout: 180_000,
        env: { PATH: process.env.PATH, HOME: home, npm_config_cache: join(home, ".npm"), npm_config_registry: "http://127.0.0.1:9/", npm_config_update_notifier: "false" },
      },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "hangar-ci-snippet-"));
});

afterAll(async () => {
  await session?.context.close().catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
});

describe("the new key's CI command", () => {
  it("is complete, masks the secret until revealed, copies the real command, and runs as copied", async () => {
    const email = await verifiedAccount(browser(), `ci-${randomUUID().slice(0, 8)}@example.com`);
    session = await openSession(baseUrl);
    const { page, context, problems } = session;
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });

    await page.goto("/login");
    await field(page, "E-mail address").fill(email);
    await field(page, "Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await eventually(() => new URL(page.url()).pathname).toBe("/profile");
    await field(page, "Display name").fill("Ada CI");
    await page.getByRole("button", { name: "Continue to dashboard" }).click();
    await eventually(() => new URL(page.url()).pathname).toBe("/dashboard");

    await page.goto("/projects/new");
    await field(page, "Project name").fill("Snippet App");
    await page.getByRole("group", { name: "Color" }).getByRole("radio", { name: "Teal" }).check();
    await page.getByRole("button", { name: "Create project" }).click();
    await eventually(() => page.getByText("Project “Snippet App” created.").isVisible()).toBe(true);

    await page.goto("/security/developer-settings");
    await field(page, "Key name").fill("Terminal");
    await field(page, "Project").selectOption({ label: "Snippet App" });
    await page.getByRole("button", { name: "Create key" }).click();
    await eventually(() => page.getByRole("heading", { name: "Upload from CI" }).isVisible()).toBe(true);
    const clientId = await field(page, "Client ID").inputValue();
    const clientSecret = await field(page, "Client secret").inputValue();
    const snippet = page.locator("#ci-snippet");

    // Masked on screen: the whole command with this instance's address, the secret as dots.
    const masked = (await snippet.textContent())!;
    expect(masked).toBe(`HANGAR_URL=${baseUrl} HANGAR_CLIENT_ID=${clientId} HANGAR_CLIENT_SECRET=${MASK} npx --yes ${baseUrl}/cli/hangar-cli.tgz upload app.apk`);
    expect(masked).not.toContain(clientSecret);
    const reveal = page.getByRole("button", { name: "Reveal secret in the CI command" });
    expect(await reveal.getAttribute("aria-pressed")).toBe("false");
    const violations = await auditAndShoot(page, "01-masked");

    // Copy copies the real command, even while the screen shows dots.
    await page.getByRole("button", { name: "Copy CI command" }).click();
    await eventually(() => page.getByRole("status").filter({ hasText: "CI command copied" }).count()).toBe(1);
    const copied = (await page.evaluate("navigator.clipboard.readText()")) as string;
    expect(copied).toBe(masked.replace(MASK, clientSecret));

    // Reveal shows exactly what was copied; Hide masks it again.
    await reveal.click();
    await eventually(() => snippet.textContent()).toBe(copied);
    expect(await page.getByRole("button", { name: "Hide secret in the CI command" }).getAttribute("aria-pressed")).toBe("true");
    violations.push(...(await auditAndShoot(page, "02-revealed")));
    await page.getByRole("button", { name: "Hide secret in the CI command" }).click();
    await eventually(() => snippet.textContent()).toBe(masked);

    expect(violations).toEqual([]);
    expect(problems).toEqual([]);

    // The copied line, pasted into a shell with the build's path for app.apk: it uploads.
    expect(copied.endsWith(" upload app.apk")).toBe(true);
    const run = await runInShell(`${copied.slice(0, -"app.apk".length)}'${FIXTURE}'`);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`Share: +${baseUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/share/\\S+`));
    expect(run.stdout + run.stderr).not.toContain(clientSecret);
  });
});
