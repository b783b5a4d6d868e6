import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dash, signedIn, uniqueEmail, type Browser } from "../support/accounts";
import { newDashboardKey, newProject, uploadIpa } from "../support/dashboard";
import { auditBothSchemes, IPHONE, openSession, type BrowserSession } from "./support/browser";
import { waitForLink } from "./support/maildev";

/**
 * The tester pages of issue 20 (item 6 and the tester side of item 5) in Chromium against the local
 * stack: a tester asks for a magic link on an iPhone-sized browser, opens it from MailDev, lands on
 * `/apps` with the build sent to them and the button an iPhone needs, reads the build's notes and
 * the team's message, and signs out; a spent link, an unknown address, a computer's two buttons,
 * the empty portal and a dead invite link are each said plainly; a group's invite link takes a new
 * tester from its preview through the mailed confirmation to the portal. axe-core in both schemes at 390
 * and 1280 px on every page (screenshots in .tmp/screenshots/tester-portal/).
 *
 * The owner's side goes through the API (groups, distribute); the whole way from a CI upload with
 * `--groups` through the build mail is test/browser/testers-journey.test.ts.
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const mailUrl = stack.mailUrl;
const SHOTS = "tester-portal";
const APP = `Portal app ${randomBytes(3).toString("hex")}`;
const NOTES = "Fixes the login crash.\nNew onboarding.";
const MESSAGE = "Please try the new onboarding before Friday.";

const sessions: BrowserSession[] = [];
const violations: string[] = [];

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, SHOTS, name)));
}

async function person(device?: Parameters<typeof openSession>[1]): Promise<BrowserSession> {
  const session = await openSession(baseUrl, device);
  sessions.push(session);
  return session;
}

async function expectPath(page: Page, pathname: string) {
  await eventually(() => new URL(page.url()).pathname).toBe(pathname);
}

/** The owner sends the build to `email` (with a message, or none), as the file page's Send to testers does. */
async function sendBuild(fileId: string, email: string, message: string | null): Promise<void> {
  const sent = await dash(owner, "POST", `/api/files/${fileId}/distribute`, { testers: [email], ...(message ? { message } : {}) });
  expect(sent.status, sent.text).toBe(202);
}

/** A tester in a group who was sent nothing yet (a group's membership makes an address a tester). */
async function addToGroup(email: string): Promise<void> {
  const group = await dash(owner, "POST", `/api/workspaces/${workspaceId}/groups`, { name: `Waiting ${randomBytes(2).toString("hex")}` });
  expect(group.status, group.text).toBe(201);
  expect((await dash(owner, "POST", `/api/groups/${group.json.groupId}/testers`, { emails: [email] })).status).toBe(200);
}

/** Asks for a magic link on the sign-in page and returns the link mailed (`exclude`: links already used). */
async function askForLink(page: Page, email: string, exclude: string[] = []): Promise<string> {
  await page.goto("/tester/sign-in");
  await expect.poll(() => heading(page).textContent()).toBe("Sign in to see your apps");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByTestId("sign-in-sent").waitFor();
  return (await waitForLink(mailUrl, email, "/tester/sign-in", { exclude })).link;
}

const testerPhone = uniqueEmail("portal-phone");
const testerDesk = uniqueEmail("portal-desk");
const testerNew = uniqueEmail("portal-new");
let projectId: string;
let fileId: string;
let owner: Browser;
let workspaceId: string;
let workspaceName: string;

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  const personal = ((await dash(owner, "GET", "/api/workspaces")).json.items as { workspaceId: string; name: string; personal: boolean }[]).find((w) => w.personal)!;
  ({ workspaceId, name: workspaceName } = personal);
  projectId = (await newProject(owner, APP)).projectId;
  const key = await newDashboardKey(owner, projectId);
  fileId = (await uploadIpa(key, "Portal.ipa", { releaseNotes: NOTES })).fileId;
  await sendBuild(fileId, testerPhone, MESSAGE);
  await sendBuild(fileId, testerDesk, null);
  await addToGroup(testerNew);
});

afterAll(async () => {
  await Promise.all(sessions.map((s) => s.context.close()));
});

describe("the tester portal", () => {
  let phone: BrowserSession;
  let usedLink: string;

  it("signs a tester in by magic link on an iPhone and lists what was sent to them, with Install", async () => {
    phone = await person(IPHONE);
    const { page } = phone;
    await page.goto("/apps");
    // Not signed in: the portal sends the tester to the sign-in form.
    await expectPath(page, "/tester/sign-in");
    await audited(page, "sign-in");

    usedLink = await askForLink(page, testerPhone);
    await expect.poll(() => page.getByTestId("sign-in-sent").textContent()).toContain(testerPhone);
    await audited(page, "sign-in-sent");
    expect(new URL(usedLink).origin).toBe(new URL(baseUrl).origin);

    await page.goto(usedLink);
    await expectPath(page, "/apps");
    await expect.poll(() => heading(page).textContent()).toBe("Your apps");
    const card = page.getByRole("region", { name: APP });
    await card.waitFor();
    // On an iPhone: Install, the over-the-air manifest of the tester's personal link; no APK, no desktop hint.
    const install = card.getByRole("link", { name: /^Install / });
    const href = (await install.getAttribute("href"))!;
    expect(href).toMatch(/^itms-services:\/\/\?action=download-manifest&url=/);
    expect(decodeURIComponent(href.split("url=")[1]!)).toMatch(/\/install\/[A-Za-z0-9_-]{43}\/manifest\.plist$/);
    expect(await page.getByText("Installing on a phone?").count()).toBe(0);
    expect(await page.getByText(testerPhone).first().isVisible()).toBe(true);
    await audited(page, "apps");

    await card.getByRole("link", { name: APP }).click();
    await expectPath(page, `/tester/apps/${projectId}`);
    await expect.poll(() => heading(page).textContent()).toBe(APP);
    const builds = page.getByTestId("tester-builds");
    await eventually(() => builds.getByRole("listitem").count()).toBe(1);
    expect(await builds.textContent()).toContain("Latest");
    expect(await builds.locator(".release-notes").allTextContents()).toEqual([MESSAGE, NOTES]);
    await audited(page, "app");
    expect(phone.problems).toEqual([]);
  });

  it("says a spent magic link cannot be used, and offers a new one", async () => {
    const { page } = phone;
    await page.goto(usedLink);
    await expect.poll(() => heading(page).textContent()).toBe("This sign-in link cannot be used");
    expect(await page.getByRole("alert").first().textContent()).toContain("invalid, expired or already used");
    expect(await page.getByRole("button", { name: "Email me a sign-in link" }).isVisible()).toBe(true);
    await audited(page, "sign-in-used-link");
  });

  it("signs out, after which /apps asks to sign in again", async () => {
    const { page } = phone;
    await page.goto("/apps");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expectPath(page, "/tester/sign-in");
    await eventually(() => page.getByText("You are signed out.").count()).toBe(1);
    await page.goto("/apps");
    await expectPath(page, "/tester/sign-in");
  });

  it("answers an unknown address exactly as a known one", async () => {
    const { page } = await person(IPHONE);
    const unknown = uniqueEmail("portal-nobody");
    await page.goto("/tester/sign-in");
    await page.getByLabel("E-mail address").fill(unknown);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    const said = (await page.getByTestId("sign-in-sent").textContent())!;
    expect(said.replace(unknown, "<address>")).toBe(
      `Check your mail.If <address> receives builds through Hangar, a sign-in link is on its way. It works once, for 15 minutes.Nothing there after a few minutes? Check your spam folder. Builds are only sent to the address a team added to its testers.Use another address`,
    );
  });

  it("offers a computer both ways, and how to get there on the phone", async () => {
    const { page, problems } = await person();
    await page.goto(await askForLink(page, testerDesk));
    await expectPath(page, "/apps");
    const card = page.getByRole("region", { name: APP });
    await card.waitFor();
    const installPage = (await card.getByRole("link", { name: /^Install .* on an iPhone or iPad$/ }).getAttribute("href"))!;
    expect(installPage).toMatch(/\/install\/[A-Za-z0-9_-]{43}$/);
    expect(await card.getByRole("link", { name: /^Download the IPA of / }).getAttribute("href")).toBe(`${installPage}/download`);
    expect(await page.getByText("Installing on a phone?").isVisible()).toBe(true);
    await audited(page, "apps-desktop");
    expect(problems).toEqual([]);
  });

  it("tells a tester with nothing sent yet how builds arrive", async () => {
    const { page } = await person(IPHONE);
    await page.goto(await askForLink(page, testerNew));
    await expectPath(page, "/apps");
    await eventually(() => page.getByRole("heading", { name: "No builds yet" }).count()).toBe(1);
    expect(await page.locator(".empty-text").textContent()).toContain(testerNew);
    await audited(page, "apps-empty");
  });

  it("joins a group through its invite link: preview, address, the mailed confirmation, then the portal", async () => {
    const groupName = `Beta ${randomBytes(2).toString("hex")}`;
    const group = await dash(owner, "POST", `/api/workspaces/${workspaceId}/groups`, { name: groupName });
    expect(group.status, group.text).toBe(201);
    const link = await dash(owner, "POST", `/api/groups/${group.json.groupId}/invite-link`, { maxMembers: 30 });
    expect(link.status, link.text).toBe(201);
    const joiner = uniqueEmail("portal-joiner");

    const { page, problems } = await person(IPHONE);
    await page.goto(new URL(link.json.url).pathname);
    await expect.poll(() => heading(page).textContent()).toBe(`Join “${groupName}”`);
    expect(await page.locator(".auth-card").textContent()).toContain(workspaceName);
    await audited(page, "join");
    await page.getByLabel("E-mail address").fill(joiner);
    await page.getByRole("button", { name: "Join the group" }).click();
    await eventually(() => page.getByText("Check your mail.").count()).toBe(1);
    await audited(page, "join-sent");

    await page.goto((await waitForLink(mailUrl, joiner, "/tester/sign-in")).link);
    await expect.poll(() => heading(page).textContent()).toBe("You're in");
    expect(await page.getByTestId("joined").textContent()).toContain(`You joined ${groupName} of ${workspaceName}.`);
    await audited(page, "joined");
    await page.getByRole("link", { name: "See your apps" }).click();
    await expectPath(page, "/apps");
    await eventually(() => page.getByRole("heading", { name: "No builds yet" }).count()).toBe(1);
    // The owner sees who joined.
    const members = await dash(owner, "GET", `/api/groups/${group.json.groupId}`);
    expect(members.json.testers).toEqual([expect.objectContaining({ email: joiner, source: "joined" })]);
    expect(problems).toEqual([]);
  });

  it("says plainly when an invite link no longer works", async () => {
    const { page } = await person(IPHONE);
    await page.goto(`/join/${randomBytes(32).toString("base64url")}`);
    await expect.poll(() => heading(page).textContent()).toBe("This invite link no longer works");
    expect(await page.getByRole("link", { name: "Sign in to your apps" }).getAttribute("href")).toBe("/tester/sign-in");
    await audited(page, "join-gone");
  });

  it("is clean under axe-core in both schemes at both widths", () => {
    expect(violations).toEqual([]);
  });
});
