import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, type Browser as Person } from "../support/accounts";
import { stack } from "../support/api";
import { newDashboardKey, newProject, setDisplayName, uploadFile, uploadIpa } from "../support/dashboard";
import { fixtures } from "../support/fixtures";
import { addMember, member, newWorkspace } from "../support/workspaces";
import { auditBothSchemes, sessionOf, type BrowserSession } from "./support/browser";

/**
 * Issue 24 item 5 in Chromium against the local stack: an owner sets a project's retention policy
 * on the project page, previews what it would remove, pins a build on its page (the preview then
 * leaves it out), and sees the project's storage on the project list and page; a viewer reads the
 * same without a control that changes anything. axe-core in both schemes at 390 and 1280 px,
 * screenshots in .tmp/screenshots/retention/.
 */

const SHOTS = "retention";
let owner: Person;
let viewer: Person;
let workspaceId: string;
let projectId: string;
const builds: { fileId: string; size: number }[] = [];
const sessions: BrowserSession[] = [];
const violations: string[] = [];

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
const previewRows = (page: Page) => page.getByTestId("retention-preview").locator("tbody tr");

async function browserOf(person: Person): Promise<BrowserSession> {
  const session = await sessionOf(stack().baseUrl, person);
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  const o = await member();
  owner = o.b;
  await setDisplayName(owner, "Rae Release");
  ({ workspaceId } = await newWorkspace(owner, "Release team"));
  const v = await member();
  viewer = v.b;
  await setDisplayName(viewer, "Vic Viewer");
  await addMember(workspaceId, v.userId, "viewer");
  ({ projectId } = await newProject(owner, "Field Notes", "green", { workspaceId, description: "The field app" }));
  const key = await newDashboardKey(owner, projectId);
  for (let i = 1; i <= 4; i++) builds.push(await uploadIpa(key, `FieldNotes-${i}.ipa`, { branch: "main" }));
  await uploadFile(key, fixtures("apk").find((f) => f.endsWith("aapt2-literal.apk"))!, "field-notes.apk");
}, 180_000);

afterAll(async () => {
  await Promise.all(sessions.map((s) => s.context.close()));
  expect(violations).toEqual([]);
});

describe("retention in the dashboard", () => {
  it("an owner sets a policy, previews it, pins a build, and sees the storage", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/projects/${projectId}`);
    const card = page.locator("section", { has: page.getByRole("heading", { name: "Retention", level: 2 }) });
    await eventually(() => card.getByTestId("retention-policy").textContent()).toBe("Off: builds are kept until someone deletes them.");
    await expect(page.getByTestId("project-storage").textContent()).resolves.toMatch(/^\d+(\.\d+)? (B|kB|KB|MB)$/);

    // A number out of bounds is refused before anything is sent, in the error summary.
    await card.getByLabel("Builds to keep").fill("0");
    await card.getByRole("button", { name: "Save policy" }).click();
    await eventually(() => page.getByRole("alert").first().textContent()).toContain("Enter a number from 1 to 1,000.");

    await card.getByLabel("Builds to keep").fill("2");
    await card.getByLabel("Maximum age in days").fill("90");
    await card.getByRole("button", { name: "Save policy" }).click();
    await eventually(() => card.getByTestId("retention-policy").textContent()).toBe("Keep the 2 newest builds of each platform and branch, and remove builds older than 90 days.");
    // The preview opens after saving: the two oldest iOS builds of main; the APK is its platform's newest.
    await eventually(() => previewRows(page).count()).toBe(2);
    await expect(previewRows(page).nth(0).textContent()).resolves.toContain("Beyond the newest to keep");
    violations.push(...(await auditBothSchemes(page, SHOTS, "project-retention")));

    // Pin the oldest on its page: the preview then leaves it out.
    await page.goto(`/files/${builds[0]!.fileId}`);
    const pin = page.locator("section", { has: page.getByRole("heading", { name: "Retention", level: 2 }) });
    await eventually(() => pin.getByTestId("pin-state").textContent()).toBe("Not pinned");
    await pin.getByRole("button", { name: "Pin build" }).click();
    await eventually(() => pin.getByTestId("pin-state").textContent()).toBe("Pinned");
    await eventually(() => pin.getByRole("button", { name: "Unpin build" }).isVisible()).toBe(true);
    expect((await dash(owner, "GET", `/api/files/${builds[0]!.fileId}`)).json.pinned).toBe(true);
    violations.push(...(await auditBothSchemes(page, SHOTS, "file-pinned")));

    await page.goto(`/projects/${projectId}`);
    await page.getByRole("button", { name: "Preview what would be removed" }).click();
    await eventually(() => previewRows(page).count()).toBe(1);
    await expect(previewRows(page).first().getByRole("link").getAttribute("href")).resolves.toBe(`/files/${builds[1]!.fileId}`);

    // The project list shows each project's storage.
    await page.goto(`/projects?workspace=${workspaceId}`);
    await eventually(() => page.getByTestId("project-card-storage").first().textContent()).toMatch(/^\d+(\.\d+)? (B|kB|MB) stored$/);
    violations.push(...(await auditBothSchemes(page, SHOTS, "projects-storage")));

    // Off again.
    await page.goto(`/projects/${projectId}`);
    await page.getByRole("button", { name: "Turn retention off" }).click();
    await eventually(() => page.getByTestId("retention-policy").textContent()).toBe("Off: builds are kept until someone deletes them.");
    expect((await dash(owner, "GET", `/api/projects/${projectId}`)).json.retention).toBeNull();
    expect(problems).toEqual([]);
  });

  it("a viewer reads the policy, the preview and the pin, with no control that changes them", async () => {
    expect((await dash(owner, "PATCH", `/api/projects/${projectId}`, { retention: { keepLatest: 3 } })).status).toBe(200);
    const { page, problems } = await browserOf(viewer);
    await page.goto(`/projects/${projectId}`);
    await eventually(() => page.getByTestId("retention-policy").textContent()).toBe("Keep the 3 newest builds of each platform and branch.");
    await expect(page.getByRole("button", { name: "Save policy" }).count()).resolves.toBe(0);
    await expect(page.getByRole("button", { name: "Turn retention off" }).count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Preview what would be removed" }).click();
    // Four iOS builds of main, three kept, the oldest pinned: nothing goes.
    await eventually(() => page.getByTestId("retention-preview").getByText("Nothing to remove").isVisible()).toBe(true);
    violations.push(...(await auditBothSchemes(page, SHOTS, "project-retention-viewer")));

    await page.goto(`/files/${builds[0]!.fileId}`);
    await eventually(() => page.getByTestId("pin-state").textContent()).toBe("Pinned");
    await expect(page.getByRole("button", { name: /pin build/i }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it("the preview follows the numbers an owner types, before they are saved", async () => {
    // Saved: keep 3 (the viewer's test above); the oldest iOS build is pinned.
    const { page, problems } = await browserOf(owner);
    await page.goto(`/projects/${projectId}`);
    const card = page.locator("section", { has: page.getByRole("heading", { name: "Retention", level: 2 }) });
    await eventually(() => card.getByTestId("retention-policy").textContent()).toBe("Keep the 3 newest builds of each platform and branch.");
    await card.getByRole("button", { name: "Preview what would be removed" }).click();
    const preview = page.getByTestId("retention-preview");
    await eventually(() => preview.getByText("Nothing to remove").isVisible()).toBe(true);
    await expect(preview.getByRole("heading", { level: 3 }).first().textContent()).resolves.toBe("What the policy would remove now");

    // Typing 1: the two iOS builds between the pinned one and the newest would go; nothing is saved.
    await card.getByLabel("Builds to keep").fill("1");
    await eventually(() => previewRows(page).count()).toBe(2);
    await expect(preview.getByRole("heading", { level: 3 }).first().textContent()).resolves.toBe("What these numbers would remove now (not saved)");
    await expect(previewRows(page).nth(0).getByRole("link").getAttribute("href")).resolves.toBe(`/files/${builds[1]!.fileId}`);
    await expect(previewRows(page).nth(1).getByRole("link").getAttribute("href")).resolves.toBe(`/files/${builds[2]!.fileId}`);
    violations.push(...(await auditBothSchemes(page, SHOTS, "project-retention-candidate")));
    expect((await dash(owner, "GET", `/api/projects/${projectId}`)).json.retention).toEqual({ keepLatest: 3, maxAgeDays: null });
    await expect(card.getByTestId("retention-policy").textContent()).resolves.toBe("Keep the 3 newest builds of each platform and branch.");

    // A number the policy cannot hold asks for one it can; back to the saved numbers, the saved preview.
    await card.getByLabel("Builds to keep").fill("0");
    await eventually(() => preview.getByText("Enter whole numbers in the ranges above to see what they would remove.").isVisible()).toBe(true);
    await card.getByLabel("Builds to keep").fill("3");
    await eventually(() => preview.getByRole("heading", { level: 3 }).first().textContent()).toBe("What the policy would remove now");
    await eventually(() => preview.getByText("Nothing to remove").isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });
});
