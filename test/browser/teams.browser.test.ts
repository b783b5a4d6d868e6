import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dash, signedIn } from "../support/accounts";
import { auditBothSchemes, openSession, type BrowserSession } from "./support/browser";
import { waitForLink } from "./support/maildev";

/**
 * Issue 19's journey in Chromium against the local stack: an owner signs up, creates a team
 * workspace and a project in it, and invites a developer and a viewer by mail (MailDev). The
 * developer opens the mail's link signed out, creates an account from it (sign-up, the
 * verification mail, sign-in and the profile form all lead back to the invitation), accepts,
 * sees the project, creates a key and uploads with the CLI. The owner sees the upload and the
 * audit entries; the viewer, who already had an account, accepts signed in and is offered no
 * control that changes anything. The switcher, members, audit log and accept pages are checked
 * with axe-core in both schemes at 390 and 1280 px (screenshots in .tmp/screenshots/teams/).
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const mailUrl = (stack as { mailUrl?: string }).mailUrl;
const SHOTS = "teams";
const JOURNEY_TIMEOUT_MS = 600_000;
const REPO_ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(REPO_ROOT, "packages/cli/bin/hangar.js");
const FIXTURE = join(REPO_ROOT, "packages/inspect/fixtures/apk/aapt2-string-refs.apk");
const PASSWORD = "violet kettle under 42 maple roofs";
const TEAM = "Rocket Team";
const PROJECT = "Rocket Android";

const sessions: BrowserSession[] = [];
const violations: string[] = [];
let cliHome: string;

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, SHOTS, name)));
}

async function expectPath(page: Page, pathname: string) {
  try {
    await eventually(() => new URL(page.url()).pathname).toBe(pathname);
  } catch (error) {
    const said = await page.getByRole("alert").allTextContents().catch(() => []);
    throw new Error(`expected ${pathname}, still on ${page.url()}; the page says: ${said.filter(Boolean).join(" | ") || "(no alert)"}`, { cause: error });
  }
}

async function person(): Promise<BrowserSession> {
  const session = await openSession(baseUrl);
  sessions.push(session);
  return session;
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
  for (const session of sessions) await session.context.close().catch(() => undefined);
  rmSync(cliHome, { recursive: true, force: true });
});

describe("teams in the browser", () => {
  it("takes a team from invitation to upload, with every role's controls and the audit log", async () => {
    const tag = randomUUID().slice(0, 8);
    const ownerEmail = `owner-${tag}@example.com`;
    const developerEmail = `developer-${tag}@example.com`;

    // The owner signs up and verifies by mail, as in the accounts journey.
    const owner = await person();
    const o = owner.page;
    await o.goto("/sign-up");
    await field(o, "E-mail address").fill(ownerEmail);
    await field(o, "Password").fill(PASSWORD);
    await o.getByRole("button", { name: "Create account" }).click();
    await expectPath(o, "/check-email");
    await o.goto((await waitForLink(mailUrl!, ownerEmail, "/verify-email")).link);
    await eventually(() => heading(o).textContent()).toBe("E-mail address verified");
    await o.getByRole("link", { name: "Log in" }).click();
    await field(o, "E-mail address").fill(ownerEmail);
    await field(o, "Password").fill(PASSWORD);
    await o.getByRole("button", { name: "Log in" }).click();
    await expectPath(o, "/profile");
    await field(o, "Display name").fill("Grace Hopper");
    await o.getByRole("button", { name: "Continue to dashboard" }).click();
    await expectPath(o, "/dashboard");

    // Sign-up made a personal workspace; the switcher shows it, and the owner makes a team one.
    const switcher = field(o, "Workspace");
    await eventually(() => switcher.locator("option:checked").textContent()).toContain("(personal)");
    await o.getByRole("link", { name: "New workspace" }).click();
    await expectPath(o, "/workspaces/new");
    await field(o, "Workspace name").fill(TEAM);
    await o.getByRole("button", { name: "Create workspace" }).click();
    // A new workspace opens on its members page, to invite the team; the address names it.
    await expectPath(o, "/settings/members");
    const workspaceId = new URL(o.url()).searchParams.get("workspace");
    expect(workspaceId).toMatch(/^ws_[0-9A-Za-z]{16}$/);
    await eventually(() => switcher.locator("option:checked").textContent()).toBe(TEAM);
    expect(await o.getByTestId("workspace-role").textContent()).toContain("Owner");

    // A project in the team workspace.
    await nav(o).getByRole("link", { name: "Projects" }).click();
    await expectPath(o, "/projects");
    expect(new URL(o.url()).searchParams.get("workspace")).toBe(workspaceId);
    await o.getByRole("link", { name: "Create a project" }).click();
    await expectPath(o, "/projects/new");
    await field(o, "Project name").fill(PROJECT);
    await o.getByRole("group", { name: "Color" }).getByRole("radio", { name: "Teal" }).check();
    await o.getByRole("button", { name: "Create project" }).click();
    await eventually(() => o.getByText(`Project “${PROJECT}” created.`).isVisible()).toBe(true);
    // A reload keeps the workspace (it is in the address), and the project is in it, not in the personal one.
    await nav(o).getByRole("link", { name: "Projects" }).click();
    await o.reload();
    await eventually(() => o.getByRole("link", { name: PROJECT }).isVisible()).toBe(true);
    await eventually(() => switcher.locator("option:checked").textContent()).toBe(TEAM);
    await switcher.selectOption({ label: `${await switcher.locator("option").first().textContent()}` });
    await eventually(() => o.getByRole("heading", { name: "Create your first project" }).isVisible()).toBe(true);
    expect(await o.getByRole("link", { name: PROJECT }).count()).toBe(0);
    await switcher.selectOption({ label: TEAM });
    await eventually(() => o.getByRole("link", { name: PROJECT }).isVisible()).toBe(true);

    // The switcher, on a phone with the menu open and on a desktop.
    await o.setViewportSize({ width: 390, height: 844 });
    await o.getByRole("button", { name: "Menu" }).click();
    await eventually(() => switcher.isVisible()).toBe(true);
    await audited(o, "01-switcher");

    // Invite a developer and a viewer by mail.
    await o.goto(`/settings/members?workspace=${workspaceId}`);
    await eventually(() => o.getByTestId("members").getByText(ownerEmail).isVisible()).toBe(true);
    await field(o, "E-mail address").fill(developerEmail);
    await field(o, "Role").selectOption({ label: "Developer" });
    await o.getByRole("button", { name: "Send invitation" }).click();
    await eventually(() => o.getByText(`Invitation sent to ${developerEmail}.`).isVisible()).toBe(true);
    const { b: viewerApi, email: viewerEmail } = await signedIn();
    expect((await dash(viewerApi, "PUT", "/api/account/profile", { displayName: "Ada Viewer" })).status).toBe(200);
    await field(o, "E-mail address").fill(viewerEmail);
    await field(o, "Role").selectOption({ label: "Viewer" });
    await o.getByRole("button", { name: "Send invitation" }).click();
    await eventually(() => o.getByText(`Invitation sent to ${viewerEmail}.`).isVisible()).toBe(true);
    const pending = o.getByTestId("invitations");
    await eventually(() => pending.getByRole("listitem").count()).toBe(2);
    // Inviting a member again is refused in words that say why.
    await field(o, "E-mail address").fill(ownerEmail);
    await o.getByRole("button", { name: "Send invitation" }).click();
    await eventually(() => o.getByRole("alert").filter({ hasText: "already a member" }).count()).toBe(1);
    await audited(o, "02-members-owner");

    // The viewer's link opened in the owner's browser: the page says it is meant for another account.
    const viewerLink = (await waitForLink(mailUrl!, viewerEmail, "/invitations/accept")).link;
    await o.goto(viewerLink);
    await eventually(() => o.getByText("This invitation is for another account.").isVisible()).toBe(true);
    expect(await o.getByRole("button", { name: "Accept invitation" }).count()).toBe(0);
    await audited(o, "03-accept-other-account");

    // The developer opens the mail's link signed out and creates an account from it.
    const developer = await person();
    const d = developer.page;
    const invitationLink = (await waitForLink(mailUrl!, developerEmail, "/invitations/accept")).link;
    await d.goto(invitationLink);
    await eventually(() => heading(d).textContent()).toBe(`Join “${TEAM}”`);
    expect(await d.getByText("Grace Hopper", { exact: true }).isVisible()).toBe(true);
    await audited(d, "04-accept-signed-out");
    await d.getByRole("link", { name: "Create account" }).click();
    await expectPath(d, "/sign-up");
    expect(await field(d, "E-mail address").inputValue()).toBe(developerEmail);
    await field(d, "Password").fill(PASSWORD);
    await d.getByRole("button", { name: "Create account" }).click();
    await expectPath(d, "/check-email");
    // The verification mail's link opens (as a mail client would) in the same browser.
    await d.goto((await waitForLink(mailUrl!, developerEmail, "/verify-email")).link);
    await eventually(() => heading(d).textContent()).toBe("E-mail address verified");
    await d.getByRole("link", { name: "Log in" }).click();
    await expectPath(d, "/login");
    await field(d, "E-mail address").fill(developerEmail);
    await field(d, "Password").fill(PASSWORD);
    await d.getByRole("button", { name: "Log in" }).click();
    await expectPath(d, "/profile");
    await field(d, "Display name").fill("Alan Developer");
    await d.getByRole("button", { name: "Continue to dashboard" }).click();
    // …and is back on the invitation, now signed in with the invited address.
    await expectPath(d, "/invitations/accept");
    await d.getByRole("button", { name: "Accept invitation" }).click();
    await expectPath(d, "/dashboard");
    expect(new URL(d.url()).searchParams.get("workspace")).toBe(workspaceId);
    await eventually(() => d.getByRole("link", { name: PROJECT }).isVisible()).toBe(true);
    expect(await d.getByTestId("workspace-role").textContent()).toContain("Developer");
    // A developer creates no projects and manages no members.
    expect(await d.getByRole("link", { name: "New project" }).count()).toBe(0);
    expect(await nav(d).getByRole("link", { name: "Audit log" }).count()).toBe(0);

    // The developer creates a key for the team's project and uploads with the CLI.
    await nav(d).getByRole("link", { name: "Developer Settings" }).click();
    await expectPath(d, "/security/developer-settings");
    await field(d, "Key name").fill("Team CI");
    await field(d, "Project").selectOption({ label: PROJECT });
    await d.getByRole("button", { name: "Create key" }).click();
    await eventually(() => d.getByText("Copy the client secret now. It will not be shown again.").isVisible()).toBe(true);
    const clientId = await field(d, "Client ID").inputValue();
    const clientSecret = await field(d, "Client secret").inputValue();
    await d.getByRole("button", { name: "I have copied the secret" }).click();
    const uploaded = await hangarUpload(clientId, clientSecret);
    expect(uploaded.code, `${uploaded.stdout}\n${uploaded.stderr}`).toBe(0);

    // The owner sees the build in the project, and the key with who created it.
    await o.goto(`/projects?workspace=${workspaceId}`);
    await o.getByRole("link", { name: PROJECT }).click();
    await eventually(() => heading(o).textContent()).toBe(PROJECT);
    await eventually(() => o.getByTestId("builds-list").locator(".file-row").count()).toBe(1);
    expect(await o.getByTestId("builds-list").getByText("by key Team CI").isVisible()).toBe(true);
    await nav(o).getByRole("link", { name: "Developer Settings" }).click();
    const keyRow = o.getByRole("listitem").filter({ hasText: "Team CI" });
    await eventually(() => keyRow.getByText(developerEmail).isVisible()).toBe(true);

    // …and the audit log: the invitations, the acceptance and the developer's key, newest first.
    await nav(o).getByRole("link", { name: "Audit log" }).click();
    await expectPath(o, "/settings/audit");
    const entries = o.getByTestId("audit-entries").getByRole("listitem");
    await eventually(() => entries.filter({ hasText: "Key created" }).count()).toBe(1);
    const keyEntry = entries.filter({ hasText: "Key created" });
    expect(await keyEntry.getByText(developerEmail).isVisible()).toBe(true);
    expect(await keyEntry.getByText("Team CI").isVisible()).toBe(true);
    expect(await entries.filter({ hasText: "Invitation created" }).count()).toBe(2);
    expect(await entries.filter({ hasText: "Invitation accepted" }).count()).toBeGreaterThanOrEqual(1);
    expect(await entries.first().textContent()).toContain("Key created");
    // Filtered by action, then by who.
    await field(o, "What").selectOption({ label: "Invitation created" });
    await eventually(() => entries.count()).toBe(2);
    await field(o, "What").selectOption({ label: "Every action" });
    await field(o, "Who").selectOption({ label: `Alan Developer (${developerEmail})` });
    await eventually(() => entries.filter({ hasText: "Invitation accepted" }).count()).toBe(1);
    expect(await entries.filter({ hasText: "Key created" }).count()).toBe(1);
    expect(await entries.filter({ hasNotText: developerEmail }).count()).toBe(0);
    await field(o, "Who").selectOption({ label: "Everyone" });
    await eventually(() => entries.filter({ hasText: "Invitation created" }).count()).toBe(2);
    await audited(o, "05-audit-log");

    // The viewer had an account: signed in with the invited address, the link offers "Accept".
    const viewer = await person();
    const v = viewer.page;
    const [name, ...value] = viewerApi.cookie!.split("=");
    await viewer.context.addCookies([{ name: name!, value: value.join("="), url: baseUrl }]);
    await v.goto(viewerLink);
    await eventually(() => heading(v).textContent()).toBe(`Join “${TEAM}”`);
    await audited(v, "06-accept-signed-in");
    await v.getByRole("button", { name: "Accept invitation" }).click();
    await expectPath(v, "/dashboard");
    await eventually(() => v.getByRole("link", { name: PROJECT }).isVisible()).toBe(true);
    expect(await v.getByTestId("workspace-role").textContent()).toContain("Viewer");

    // A viewer sees the team's work and is offered nothing that changes it.
    expect(await v.getByRole("link", { name: "New project" }).count()).toBe(0);
    await v.getByRole("link", { name: PROJECT }).click();
    await eventually(() => heading(v).textContent()).toBe(PROJECT);
    await eventually(() => v.getByTestId("builds-list").locator(".file-row").count()).toBe(1);
    for (const control of ["Edit project", "Delete project…"]) expect(await v.getByRole("button", { name: control }).count(), control).toBe(0);
    expect(await v.getByRole("heading", { name: "Upload a build" }).count()).toBe(0);
    expect(await v.locator("input[type=file]").count()).toBe(0);
    await v.getByTestId("builds-list").locator("a.file-name").first().click();
    await eventually(() => v.getByRole("heading", { name: "All metadata" }).isVisible()).toBe(true);
    for (const control of ["Delete build…", "Regenerate link…", "Save link settings"]) expect(await v.getByRole("button", { name: control }).count(), control).toBe(0);
    expect(await field(v, "Share link").inputValue()).toMatch(/\/share\//);
    await nav(v).getByRole("link", { name: "Developer Settings" }).click();
    await eventually(() => v.getByRole("listitem").filter({ hasText: "Team CI" }).isVisible()).toBe(true);
    expect(await v.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await v.getByRole("button", { name: /^(Regenerate|Revoke)/ }).count()).toBe(0);
    expect(await nav(v).getByRole("link", { name: "Audit log" }).count()).toBe(0);
    await nav(v).getByRole("link", { name: "Members" }).click();
    await eventually(() => v.getByTestId("members").getByRole("listitem").count()).toBe(3);
    expect(await v.getByRole("button", { name: "Send invitation" }).count()).toBe(0);
    expect(await v.getByRole("button", { name: /^(Remove|Change role)/ }).count()).toBe(0);
    expect(await v.getByRole("heading", { name: "Pending invitations" }).count()).toBe(0);
    expect(await v.getByRole("button", { name: "Leave workspace…" }).isVisible()).toBe(true);
    await audited(v, "07-members-viewer");

    // The owner sees everyone with their roles, and the invitations are no longer pending.
    await o.goto(`/settings/members?workspace=${workspaceId}`);
    const members = o.getByTestId("members").getByRole("listitem");
    await eventually(() => members.count()).toBe(3);
    const badge = (email: string) => members.filter({ hasText: email }).locator(".badge").first();
    expect(await badge(developerEmail).textContent()).toBe("Developer");
    expect(await badge(viewerEmail).textContent()).toBe("Viewer");
    await eventually(() => o.getByRole("heading", { name: "No pending invitations" }).isVisible()).toBe(true);
    // …and changes a role: the viewer becomes a developer.
    await field(o, "Role of Ada Viewer").selectOption({ label: "Developer" });
    await o.getByRole("button", { name: "Change role of Ada Viewer" }).click();
    await eventually(() => badge(viewerEmail).textContent()).toBe("Developer");

    expect(violations, violations.join("\n")).toEqual([]);
    for (const session of sessions) expect(session.problems).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);
});
