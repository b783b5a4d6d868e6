import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stack } from "../support/api";
import { dashboardUser, newDashboardKey, newProject, uploadFile } from "../support/dashboard";
import { auditBothSchemes, SCREENSHOT_DIR, sessionOf, type BrowserSession } from "./support/browser";

/**
 * What changed between builds on the dashboard (issue 24 item 3), in Chromium against the local
 * stack: the file page's "Changes since <previous>", its "Compare with…" picker, a first build's
 * page, and the project's file list marking builds with danger changes. APKs made by aapt2
 * (packages/inspect/fixtures/build-release-fixtures.ts). axe-core in both schemes; screenshots at
 * 390 and 1280 px, light and dark, in .tmp/screenshots/release-safety/.
 */

const SHOTS = "release-safety";
const FIXTURES = join(import.meta.dirname, "../../packages/inspect/fixtures/apk/release");

let projectId: string;
let session: BrowserSession;
const builds: Record<string, { fileId: string }> = {};
const violations: string[] = [];

/** The changes the page lists, as `kind:severity` (severity as written on its badge). */
const listed = (page: Page) =>
  page.getByTestId("changes").locator("li").evaluateAll((items) => items.map((li) => `${li.getAttribute("data-kind")}:${li.querySelector(".badge")?.textContent}`));

beforeAll(async () => {
  const { b: owner } = await dashboardUser("Release Manager");
  ({ projectId } = await newProject(owner, "Shop"));
  const key = await newDashboardKey(owner, projectId);
  // One after the other: each build is compared with the one uploaded before it.
  for (const name of ["base", "permission-added", "min-sdk-lowered"]) builds[name] = await uploadFile(key, join(FIXTURES, `${name}.apk`), `${name}.apk`);
  session = await sessionOf(stack().baseUrl, owner);
}, 120_000);

afterAll(async () => {
  await session?.context.close();
});

describe("changes between builds on the dashboard", () => {
  it("shows what changed since the previous build, and against any build of the app the picker names", async () => {
    const { page, problems } = session;
    await page.goto(`/files/${encodeURIComponent(builds["min-sdk-lowered"]!.fileId)}`);
    await page.getByRole("heading", { name: "Changes since 2.11 (11)" }).waitFor();
    expect(await listed(page)).toEqual([
      "build-number-repeated:Danger",
      "min-os-lowered:Warning",
      "permission-removed:Info",
      "permission-removed:Info",
    ]);
    await expect.poll(() => page.getByTestId("changes").textContent()).toContain("Permission removed: android.permission.CAMERA");
    violations.push(...(await auditBothSchemes(page, SHOTS, "file-changes")));
    await page.locator("#changes-title").locator("xpath=ancestor::section").screenshot({ path: join(SCREENSHOT_DIR, SHOTS, "changes-card.png") });

    // Compare with the first build instead: the picker lists the app's other builds.
    const picker = page.getByLabel("Compare with…");
    expect(await picker.locator("option").allTextContents()).toEqual(["The previous build", expect.stringMatching(/^2\.11 \(11\) · /), expect.stringMatching(/^2\.10 \(10\) · /)]);
    await picker.selectOption(builds.base!.fileId);
    await expect.poll(() => listed(page)).toEqual(["min-os-lowered:Warning", "version-changed:Info"]);
    expect(await page.locator(".changes-against").textContent()).toMatch(/^Compared with 2\.10 \(10\) \(/);
    // Back to the previous build.
    await picker.selectOption("");
    await expect.poll(() => listed(page)).toHaveLength(4);

    // The previous build's link leads to its page; the first build has nothing to compare with.
    await page.getByRole("link", { name: "2.11 (11)" }).click();
    await page.getByRole("heading", { name: "Changes since 2.10 (10)" }).waitFor();
    expect(await listed(page)).toEqual(["permission-added:Danger", "permission-added:Warning", "version-changed:Info"]);
    await page.goto(`/files/${encodeURIComponent(builds.base!.fileId)}`);
    await page.getByTestId("changes-none").waitFor();
    expect(await page.getByTestId("changes-none").textContent()).toContain("first build of this app");
    violations.push(...(await auditBothSchemes(page, SHOTS, "file-first-build")));
    expect(problems).toEqual([]);
  });

  it("marks the builds with danger changes in the project's file list", async () => {
    const { page, problems } = session;
    await page.goto(`/projects/${encodeURIComponent(projectId)}`);
    await page.getByTestId("danger-changes").first().waitFor();
    const marked = await page
      .locator(".file-row")
      .evaluateAll((rows) => rows.map((row) => `${row.querySelector(".file-meta span")?.textContent}:${row.querySelector('[data-testid="danger-changes"]') ? "danger" : "-"}`));
    expect(marked).toEqual(["2.11 (11):danger", "2.11 (11):danger", "2.10 (10):-"]);
    expect(await page.getByTestId("danger-changes").first().textContent()).toContain("Risky changes");
    violations.push(...(await auditBothSchemes(page, SHOTS, "file-list-danger")));
    expect(problems).toEqual([]);
  });

  it("has no serious accessibility findings in either scheme", () => {
    expect(violations).toEqual([]);
  });
});
