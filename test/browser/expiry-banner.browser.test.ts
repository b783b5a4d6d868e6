import { sendExpiryWarnings } from "@hangar/core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, type Browser as Person } from "../support/accounts";
import { stack } from "../support/api";
import { newDashboardKey, newProject, setDisplayName, uploadFile, uploadIpa } from "../support/dashboard";
import { expiryMails, expiryRunDeps, setProfileExpiry } from "../support/expiry";
import { fixtures } from "../support/fixtures";
import { addMember, member, newWorkspace } from "../support/workspaces";
import { auditBothSchemes, sessionOf, SCHEME_WIDTHS, SCREENSHOT_DIR, type BrowserSession } from "./support/browser";

/**
 * Issue 24 item 4 in Chromium against the local stack: a team whose iOS build's profile expires in
 * 12 days and whose Android build's share link expires within a day. Every member (here a
 * developer) sees the banner on the dashboard and the projects page, each item linking to its build;
 * Dismiss hides it for the tab's session, a new session shows it again. axe in both schemes at 390
 * and 1280 px; screenshots in .tmp/screenshots/expiry/, and the warning mail the daily run sends for
 * the same build, rendered as a mail program shows its HTML.
 */
const SHOTS = "expiry";
const DAY = 24 * 60 * 60 * 1000;
const sessions: BrowserSession[] = [];
const violations: string[] = [];

let owner: { b: Person; email: string };
let developer: { b: Person; email: string };
let workspaceId: string;
let iosFile: string;
let apkFile: string;

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
const banner = (page: Page) => page.getByTestId("expiry-banner");

async function browserOf(person: Person): Promise<BrowserSession> {
  const session = await sessionOf(stack().baseUrl, person);
  sessions.push(session);
  return session;
}

beforeAll(async () => {
  const o = await member();
  owner = o;
  const team = await newWorkspace(o.b, "Orbital Labs");
  workspaceId = team.workspaceId;
  const d = await member();
  developer = d;
  await addMember(workspaceId, d.userId, "developer");
  // Past the first sign-in's profile step, as people who use the dashboard are.
  await Promise.all([setDisplayName(o.b, "Olga Owner"), setDisplayName(d.b, "Dev Eloper")]);

  const ios = await newProject(o.b, "Rocket iOS", "blue", { workspaceId, description: "" });
  const iosKey = await newDashboardKey(o.b, ios.projectId);
  iosFile = (await uploadIpa(iosKey, "Rocket.ipa")).fileId;
  await setProfileExpiry(iosFile, new Date(Date.now() + 12 * DAY - 60_000).toISOString());

  const android = await newProject(o.b, "Rocket Android", "green", { workspaceId, description: "" });
  const apkKey = await newDashboardKey(o.b, android.projectId);
  apkFile = (await uploadFile(apkKey, fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!, "Rocket.apk")).fileId;
  const link = await dash(o.b, "PATCH", `/api/files/${apkFile}/share`, { expiresAt: new Date(Date.now() + 20 * 60 * 60 * 1000).toISOString() });
  expect(link.status, link.text).toBe(200);
}, 120_000);

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
});

describe("the expiry banner", () => {
  it("shows a developer the builds about to expire on the dashboard, each linking to its build", async () => {
    const { page, problems } = await browserOf(developer.b);
    await page.goto(`/dashboard?workspace=${workspaceId}`);
    await expect.poll(() => banner(page).isVisible(), { timeout: 30_000 }).toBe(true);
    await expect(banner(page).getByRole("heading", { name: "2 builds expire soon" }).isVisible()).resolves.toBe(true);
    const items = await banner(page).getByRole("listitem").allTextContents();
    // Soonest first: the link (within a day), then the profile (12 days).
    expect(items[0]).toMatch(/^Rocket Android · Android .+ — share link expires within a day \(/);
    expect(items[1]).toMatch(/^Rocket iOS · iOS 1\.4\.2 \(142\) — profile expires in 12 days \(/);
    violations.push(...(await auditBothSchemes(page, SHOTS, "dashboard")));

    await banner(page).getByRole("link", { name: /Rocket iOS/ }).click();
    await eventually(() => new URL(page.url()).pathname).toBe(`/files/${iosFile}`);
    expect(problems).toEqual([]);
  });

  it("on the projects page too; Dismiss hides it for the session, a new session shows it again", async () => {
    const { page, problems } = await browserOf(developer.b);
    await page.goto(`/projects?workspace=${workspaceId}`);
    await expect.poll(() => banner(page).isVisible(), { timeout: 30_000 }).toBe(true);
    violations.push(...(await auditBothSchemes(page, SHOTS, "projects")));
    await banner(page).getByRole("button", { name: "Dismiss" }).click();
    await eventually(() => banner(page).count()).toBe(0);
    await page.reload();
    await page.getByRole("heading", { name: "Rocket iOS" }).waitFor();
    expect(await banner(page).count()).toBe(0);
    await page.goto(`/dashboard?workspace=${workspaceId}`);
    await page.getByRole("heading", { name: "Latest builds" }).waitFor();
    expect(await banner(page).count()).toBe(0);
    expect(problems).toEqual([]);

    const next = await browserOf(developer.b);
    await next.page.goto(`/projects?workspace=${workspaceId}`);
    await expect.poll(() => banner(next.page).isVisible(), { timeout: 30_000 }).toBe(true);
  });

  it("the warning mail of the same build, rendered", async () => {
    const run = await sendExpiryWarnings(expiryRunDeps([workspaceId]), new Date());
    expect(run).toMatchObject({ warnings: 2, mailed: 2 });
    const mails = await expiryMails(owner.email, 2);
    const profile = mails.find((m) => m.subject.startsWith("Profile expires in 12 days"))!;
    expect(profile.subject).toBe("Profile expires in 12 days: Demo App 1.4.2 (142) for iOS");
    // Developers get none.
    expect(await expiryMails(developer.email)).toEqual([]);
    const { page } = await browserOf(owner.b);
    const out = join(SCREENSHOT_DIR, SHOTS);
    mkdirSync(out, { recursive: true });
    for (const mail of [profile, mails.find((m) => m.subject.startsWith("Share link"))!]) {
      await page.setContent(mail.html);
      for (const size of Object.values(SCHEME_WIDTHS)) {
        await page.setViewportSize(size);
        await page.screenshot({ path: join(out, `mail-${mail.subject.startsWith("Profile") ? "profile" : "link"}-${size.width}.png`), fullPage: true });
      }
    }
  });

  it("has no serious or critical axe findings", () => {
    expect(violations).toEqual([]);
  });
});
