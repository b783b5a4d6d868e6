import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browser, dash, type Browser as Person } from "../support/accounts";
import { call, stack, type Key } from "../support/api";
import { IOS_INSTALLER, newDashboardKey, newProject, setDisplayName, uploadIpa } from "../support/dashboard";
import { addMember, member, newWorkspace } from "../support/workspaces";
import { auditBothSchemes, sessionOf, type BrowserSession } from "./support/browser";
import { listMail, waitForLink } from "./support/maildev";

/**
 * Issue 20's dashboard (item 10) in Chromium against the local stack. An owner of a team
 * workspace creates a tester group, adds testers by a pasted list and by an imported CSV, makes
 * the group's invite link (someone joins through it and shows as "Joined by link"), replaces and
 * revokes it, removes a tester and renames the group; sends a
 * build to the group from the file page's dialog (keyboard only: Enter opens it, Escape closes it
 * and gives focus back), sees each recipient's mail status, and — after a tester opened the
 * personal link of their mail — who installed the build and the tester's history; publishes the
 * project's app page and makes and revokes an update token, each checked from the outside. A viewer
 * of the workspace sees the same pages without a control that changes anything. Every page is
 * checked with axe-core in both schemes at 390 and 1280 px (screenshots in .tmp/screenshots/testers/).
 */

const SHOTS = "testers";
const tag = randomUUID().slice(0, 8);
const ada = `ada-${tag}@example.com`;
const grace = `grace-${tag}@example.com`;
const lin = `lin-${tag}@example.com`;

let owner: Person;
let viewer: Person;
let workspaceId: string;
let projectId: string;
let fileId: string;
let key: Key;
let groupId: string;
const sessions: BrowserSession[] = [];
const violations: string[] = [];

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const rows = (page: Page, testId: string) => page.getByTestId(testId).locator("tbody tr");

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, SHOTS, name)));
}

async function expectPath(page: Page, pathname: string | RegExp) {
  try {
    if (typeof pathname === "string") await eventually(() => new URL(page.url()).pathname).toBe(pathname);
    else await eventually(() => new URL(page.url()).pathname).toMatch(pathname);
  } catch (error) {
    const said = await page.getByRole("alert").allTextContents().catch(() => []);
    throw new Error(`expected ${pathname}, still on ${page.url()}; the page says: ${said.filter(Boolean).join(" | ") || "(no alert)"}`, { cause: error });
  }
}

/** A browser holding `person`'s dashboard session (the account was made through the API). */
async function browserOf(person: Person): Promise<BrowserSession> {
  const session = await sessionOf(stack().baseUrl, person);
  sessions.push(session);
  return session;
}

/** The personal install link (`/install/<token>`) in the newest mail to `address`. */
async function installLinkMailedTo(address: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    for (const mail of (await listMail(stack().mailUrl!)).reverse()) {
      if (!mail.to.some((t) => t.address.toLowerCase() === address)) continue;
      const link = `${mail.text ?? ""} ${(mail.html ?? "").replaceAll("&amp;", "&")}`.match(/https?:\/\/[^\s"'<>)]+\/install\/[A-Za-z0-9_-]+/)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no mail with an install link reached ${address}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  const o = await member();
  owner = o.b;
  await setDisplayName(owner, "Quinn Owner");
  workspaceId = (await newWorkspace(owner, `Rocket ${tag}`)).workspaceId;
  ({ projectId } = await newProject(owner, `Rocket iOS ${tag}`, "indigo", { workspaceId, description: "" }));
  key = await newDashboardKey(owner, projectId);
  fileId = (await uploadIpa(key, "Rocket.ipa")).fileId;

  const v = await member();
  viewer = v.b;
  await setDisplayName(viewer, "Vic Viewer");
  await addMember(workspaceId, v.userId, "viewer");
}, 180_000);

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
});

describe("the testers dashboard", () => {
  it("builds a group: testers pasted and imported, an invite link made, replaced and revoked, a tester removed, a rename", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/testers?workspace=${workspaceId}`);
    await eventually(() => heading(page).textContent()).toBe("Testers");
    // The main navigation leads here, and says it is the current page.
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Testers" }).getAttribute("aria-current")).toBe("page");
    await page.getByRole("heading", { name: "No tester groups yet" }).waitFor();
    await audited(page, "testers-empty");

    // A name the API refuses (a comma: CI's --groups splits on it) is said beside the field, before any request.
    await page.getByLabel("Group name").fill("QA, nightly");
    await page.getByRole("button", { name: "Create group" }).click();
    await page.getByText("must not contain a comma", { exact: false }).first().waitFor();
    await page.getByLabel("Group name").fill("QA");
    await page.getByRole("button", { name: "Create group" }).click();
    await expectPath(page, /^\/testers\/groups\/grp_[0-9A-Za-z]{16}$/);
    groupId = new URL(page.url()).pathname.split("/").at(-1)!;
    await eventually(() => heading(page).textContent()).toBe("QA");
    await page.getByRole("heading", { name: "No testers in this group yet" }).waitFor();
    await audited(page, "group-empty");

    // A pasted list: commas and new lines, one duplicate in other case, one entry that is no address.
    const box = page.getByLabel("E-mail addresses");
    await box.fill(`${ada}, ${grace}\nbad@\n${ada.toUpperCase()}`);
    await page.getByRole("button", { name: "Add 3 testers" }).click();
    await page.getByText("2 testers added.").waitFor();
    await page.getByText("stayed in the box to correct: bad@", { exact: false }).waitFor();
    expect(await box.inputValue()).toBe("bad@");
    await eventually(() => rows(page, "group-testers").count()).toBe(2);

    // A CSV export read in the browser: its address joins what is in the box.
    await box.fill("");
    await page.locator("#testers-import").setInputFiles({ name: "testers.csv", mimeType: "text/csv", buffer: Buffer.from(`Name,Email,Device\nLin Wu,${lin},Pixel 8\n`) });
    await page.getByText("1 address found in testers.csv.", { exact: false }).waitFor();
    expect(await box.inputValue()).toBe(lin);
    await page.getByRole("button", { name: "Add testers" }).click();
    await page.getByText("1 tester added.").waitFor();
    await eventually(() => rows(page, "group-testers").count()).toBe(3);
    for (const address of [ada, grace, lin]) expect(await rows(page, "group-testers").filter({ hasText: address }).getByText("Added", { exact: true }).count()).toBe(1);

    // An invite link with a cap: shown with its URL, state and count.
    await page.getByRole("button", { name: "Create invite link…" }).click();
    await page.locator("#field-maxMembers").fill("10");
    await page.getByRole("button", { name: "Create link" }).click();
    await page.getByText("Invite link created.", { exact: false }).waitFor();
    const linkField = page.getByLabel("Invite link address", { exact: true });
    const first = await linkField.inputValue();
    expect(first).toMatch(/\/join\/[A-Za-z0-9_-]{20,}$/);
    expect(await page.getByTestId("invite-link-state").textContent()).toBe("Invite link open");
    expect(await page.getByTestId("invite-link-joined").textContent()).toBe("0 of 10");

    // Someone opens the link and joins (the calls the /join page and the mailed sign-in link make):
    // the group shows how they came, and the link its count.
    const joiner = `joiner-${tag}@example.com`;
    const stranger = browser();
    expect((await dash(stranger, "POST", "/api/join", { token: first.split("/join/")[1], email: joiner })).status).toBe(202);
    const magic = new URL((await waitForLink(stack().mailUrl!, joiner, "/tester/sign-in")).link).searchParams.get("token");
    expect((await dash(stranger, "POST", "/api/tester/session", { token: magic })).status).toBe(200);
    await page.reload();
    await eventually(() => page.getByTestId("invite-link-joined").textContent()).toBe("1 of 10");
    await page.getByTestId("joined-testers").getByText(joiner).waitFor();
    await eventually(() => rows(page, "group-testers").count()).toBe(4);
    expect(await rows(page, "group-testers").filter({ hasText: joiner }).getByText("Joined by link").count()).toBe(1);
    await audited(page, "group");

    // Replaced: a new URL; revoked: none.
    await page.getByRole("button", { name: "Replace link…" }).click();
    await page.getByText("The current link stops working when the new one is created.").waitFor();
    await page.getByRole("button", { name: "Replace link", exact: true }).click();
    await page.getByText("New invite link created.", { exact: false }).waitFor();
    await eventually(() => linkField.inputValue()).not.toBe(first);
    await page.getByRole("button", { name: "Revoke link…" }).click();
    await page.getByRole("group", { name: "Confirm revoking the invite link" }).getByRole("button", { name: "Revoke link" }).click();
    await page.getByText("Invite link revoked.", { exact: false }).waitFor();
    expect(await page.getByTestId("invite-link-state").textContent()).toContain("No invite link yet");

    // Removing a tester asks first.
    await page.getByRole("button", { name: `Remove ${grace}` }).click();
    const confirm = page.getByRole("group", { name: `Confirm removing ${grace}` });
    await confirm.getByText("Builds already sent stay in their portal.", { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Remove", exact: true }).click();
    await eventually(() => rows(page, "group-testers").count()).toBe(3);

    await page.getByLabel("Group name").fill("QA team");
    await page.getByRole("button", { name: "Rename group" }).click();
    await page.getByText("Group renamed.").waitFor();
    await eventually(() => heading(page).textContent()).toBe("QA team");

    // The list: the group with its count, and every tester of the workspace.
    await page.getByRole("link", { name: "All groups" }).click();
    await expectPath(page, "/testers");
    const group = page.getByTestId("groups").locator("li").filter({ hasText: "QA team" });
    await eventually(() => group.getByTestId("group-tester-count").textContent()).toBe("3");
    expect(await group.getByText("No invite link").count()).toBe(1);
    await eventually(() => rows(page, "workspace-testers").count()).toBe(3);
    await audited(page, "testers");

    await page.getByRole("link", { name: ada }).click();
    await expectPath(page, "/testers/people");
    await eventually(() => heading(page).textContent()).toBe(ada);
    await page.getByTestId("tester-groups").getByRole("link", { name: "QA team" }).waitFor();
    await page.getByRole("heading", { name: "Nothing installed yet" }).waitFor();
    await audited(page, "tester-before");

    expect(problems).toEqual([]);
  });

  it("sends the build to the group from the file page, by keyboard, with each mail's status and who installed it", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/files/${fileId}`);
    await page.getByRole("heading", { name: "Testers" }).waitFor();
    await page.getByTestId("no-distributions").waitFor();
    await page.getByTestId("no-installs").waitFor();

    // Enter opens the dialog with focus inside it, Tab never leaves it, Escape closes it and focus goes back.
    const open = page.getByRole("button", { name: "Send to testers…" });
    await open.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Send to testers" });
    await dialog.waitFor();
    // A string: the test's own types have no DOM (as in support/browser.ts).
    const focusOutside = () => page.evaluate<boolean>("document.activeElement !== null && document.activeElement !== document.body && !document.activeElement.closest('dialog')");
    expect(await focusOutside()).toBe(false);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      expect(await focusOutside(), `after ${i + 1} Tab presses`).toBe(false);
    }
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await page.evaluate<string>("document.activeElement?.textContent ?? ''")).toBe("Send to testers…");

    // Nothing chosen: said in the dialog, nothing sent.
    await page.keyboard.press("Enter");
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByText("Choose a group or enter an address.").first().waitFor();
    await dialog.getByRole("checkbox", { name: /QA team/ }).focus();
    await page.keyboard.press("Space");
    expect(await dialog.getByRole("checkbox", { name: /QA team/ }).isChecked()).toBe(true);
    await dialog.getByLabel("Other addresses").fill(`extra-${tag}@example.com`);
    await dialog.getByLabel("Message to testers").fill("Please try the new sign-in.");
    await audited(page, "distribute-dialog");
    await dialog.getByRole("button", { name: "Send", exact: true }).click();
    await dialog.getByText("Sent to 4 testers.").waitFor();
    expect(await dialog.getByTestId("distribute-result").textContent()).toContain("4 new mails are on the way.");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "hidden" });

    // Who it went to, how, and what became of each mail (the list follows the sender on its own).
    const distributions = page.getByTestId("distributions");
    await eventually(() => distributions.textContent()).toContain("“QA team”, 1 address");
    expect(await distributions.textContent()).toContain("Please try the new sign-in.");
    await eventually(() => rows(page, "recipients").count()).toBe(4);
    for (const address of [ada, lin, `joiner-${tag}@example.com`, `extra-${tag}@example.com`]) {
      await eventually(() => rows(page, "recipients").filter({ hasText: address }).textContent()).toContain("Mailed");
    }

    // Ada opens her mail's personal link on an iPhone: the page names her, the download counts for her.
    const link = await installLinkMailedTo(ada);
    const personal = await call(new URL(link).pathname, { headers: { Accept: "text/html", ...IOS_INSTALLER } });
    expect(personal.status).toBe(200);
    expect((await call(`${new URL(link).pathname}/download`, { headers: IOS_INSTALLER })).status).toBe(302);
    await page.reload();
    await eventually(() => rows(page, "file-installs").count()).toBe(1);
    const install = rows(page, "file-installs").first();
    expect(await install.textContent()).toContain(ada);
    expect(await install.textContent()).toContain("iPhone");
    expect(await install.textContent()).toContain("Personal link · 1 download");
    await audited(page, "file");

    // Her page: her group and the build she installed; the group's row shows it too.
    await page.getByTestId("file-installs").getByRole("link", { name: ada }).click();
    await expectPath(page, "/testers/people");
    await eventually(() => rows(page, "tester-installs").count()).toBe(1);
    expect(await rows(page, "tester-installs").first().textContent()).toContain(`Rocket iOS ${tag}`);
    await audited(page, "tester");
    await page.goto(`/testers/groups/${groupId}`);
    await eventually(() => rows(page, "group-testers").filter({ hasText: ada }).textContent()).toContain("iOS");
    expect(problems).toEqual([]);
  });

  it("publishes the project's app page and makes and revokes an update token, each checked from outside", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/projects/${projectId}`);
    await page.getByRole("heading", { name: "Public app page" }).waitFor();

    // Default groups: every upload of the project goes to them; the choice stays after a reload.
    await page.getByRole("checkbox", { name: /QA team/ }).check();
    await page.getByRole("button", { name: "Save default groups" }).click();
    await page.getByText("Default groups saved.").waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Default tester groups" }).waitFor();
    await eventually(() => page.getByRole("checkbox", { name: /QA team/ }).isChecked()).toBe(true);
    expect((await dash(owner, "GET", `/api/projects/${projectId}/default-groups`)).json).toEqual({ groupIds: [groupId] });

    await page.getByRole("switch", { name: "Publish the app page" }).check();
    await page.getByRole("button", { name: "Save app page" }).click();
    await page.getByText("App page saved.", { exact: false }).waitFor();
    const address = page.getByLabel("App page address", { exact: true });
    const url = await address.inputValue();
    expect(url).toMatch(/\/apps\/[A-Za-z0-9_-]+$/);
    expect((await call(new URL(url).pathname, { headers: { Accept: "text/html" } })).status).toBe(200);

    // A new address: the old one stops answering.
    await page.getByRole("button", { name: "Regenerate address…" }).click();
    await page.getByRole("button", { name: "Create new address" }).click();
    await page.getByText("New address created.", { exact: false }).waitFor();
    await eventually(() => address.inputValue()).not.toBe(url);
    expect((await call(new URL(url).pathname, { headers: { Accept: "text/html" } })).status).toBe(404);

    // An update token, shown once with the Swift and Kotlin lines that use it.
    await page.getByLabel("Token name").fill("iOS beta");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText("Copy it now: Hangar shows it only this once.").waitFor();
    const token = await page.getByLabel("Update token", { exact: true }).inputValue();
    expect(token).toMatch(/^hut_/);
    await page.getByText("Use it in your app (Swift and Kotlin)").click();
    expect(await page.locator("pre").filter({ hasText: "URLSession" }).textContent()).toContain(`Bearer ${token}`);
    expect(await page.locator("pre").filter({ hasText: "HttpURLConnection" }).textContent()).toContain(`Bearer ${token}`);
    const latest = () => call("/api/updates/latest?platform=ios&bundleId=com.example.none&version=1.0&build=1", { headers: { Authorization: `Bearer ${token}` } });
    expect([200, 204]).toContain((await latest()).status);
    await audited(page, "project");

    await page.getByRole("button", { name: "I have copied it" }).click();
    expect(await page.getByLabel("Update token", { exact: true }).count()).toBe(0);
    const tokens = page.getByTestId("update-tokens");
    await tokens.getByRole("heading", { name: "iOS beta" }).waitFor();
    await tokens.getByRole("button", { name: "Revoke iOS beta" }).click();
    await page.getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("No update tokens yet.", { exact: false }).waitFor();
    expect((await latest()).status).toBe(401);

    expect(problems).toEqual([]);
  });

  it("shows a viewer every page without a control that changes anything", async () => {
    const { page, problems } = await browserOf(viewer);
    await page.goto(`/testers?workspace=${workspaceId}`);
    await page.getByTestId("groups").getByRole("link", { name: "QA team" }).waitFor();
    expect(await page.getByRole("heading", { name: "New group" }).count()).toBe(0);
    await page.getByRole("link", { name: "QA team" }).click();
    await eventually(() => heading(page).textContent()).toBe("QA team");
    await eventually(() => rows(page, "group-testers").count()).toBe(3);
    for (const control of ["Add testers", "Create invite link…", "Rename group", "Delete group…", `Remove ${ada}`]) {
      expect(await page.getByRole("button", { name: control }).count(), control).toBe(0);
    }
    expect(await page.getByText("This group has no invite link.").count()).toBe(1);
    await audited(page, "group-viewer");

    await page.goto(`/projects/${projectId}`);
    await page.getByRole("heading", { name: "Update tokens" }).waitFor();
    await page.getByText("This project has no update tokens.").waitFor();
    await eventually(() => page.getByTestId("default-groups").textContent()).toBe("QA team");
    for (const control of ["Save default groups", "Save app page", "Create token", "Regenerate address…"]) {
      expect(await page.getByRole("button", { name: control }).count(), control).toBe(0);
    }
    // The page is public (the owner published it): a viewer sees its address to hand out.
    expect(await page.getByLabel("App page address", { exact: true }).inputValue()).toMatch(/\/apps\//);

    await page.goto(`/files/${fileId}`);
    await page.getByRole("heading", { name: "Testers" }).waitFor();
    await eventually(() => rows(page, "recipients").count()).toBe(4);
    await eventually(() => rows(page, "file-installs").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Send to testers…" }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("deletes the group only after a confirmation, and lands on the list", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/testers/groups/${groupId}`);
    await eventually(() => heading(page).textContent()).toBe("QA team");
    await page.getByRole("button", { name: "Delete group…" }).click();
    const confirm = page.getByRole("group", { name: "Confirm deleting the group" });
    await confirm.getByText("Delete “QA team”", { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Delete group…" }).click();
    await page.getByRole("group", { name: "Confirm deleting the group" }).getByRole("button", { name: "Delete group" }).click();
    await expectPath(page, "/testers");
    await page.getByRole("heading", { name: "No tester groups yet" }).waitFor();
    expect((await dash(owner, "GET", `/api/groups/${groupId}`)).status).toBe(404);
    expect(problems).toEqual([]);
  });

  it("finds no serious or critical accessibility problem on any page, in either scheme, at either width", () => {
    expect(violations).toEqual([]);
  });
});
