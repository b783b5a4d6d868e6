import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dash, signedIn, uniqueEmail, type Browser } from "../support/accounts";
import { IOS_INSTALLER, ipaPath, newDashboardKey, newProject } from "../support/dashboard";
import { auditBothSchemes, IPHONE, openSession, type BrowserSession } from "./support/browser";
import { listMail, waitForLink, type CaughtMail } from "./support/maildev";

/**
 * Issue 20's browser journey on the local stack: the owner makes a group "QA" with two testers and
 * uploads a build from CI with the CLI's `--groups qa`; tester A opens the build mail (real SMTP,
 * MailDev) in an iPhone-sized Chromium with an iPhone's user agent, taps Install (their personal
 * link) and lands on the build's install page, whose install starts count for them; then signs in to
 * the tester portal by magic link and finds the build on `/apps`; the owner's file page lists tester
 * A's install. axe-core in both schemes at 390 and 1280 px on each tester page (screenshots in
 * .tmp/screenshots/testers-journey/).
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const mailUrl = stack.mailUrl;
const SHOTS = "testers-journey";
const JOURNEY_TIMEOUT_MS = 600_000;
const REPO_ROOT = resolve(import.meta.dirname, "../..");
const CLI = join(REPO_ROOT, "packages/cli/bin/hangar.js");
const INSTALL_LINK = /\/install\/[A-Za-z0-9_-]{43}$/;

const sessions: BrowserSession[] = [];
const violations: string[] = [];
let cliHome: string;

const heading = (page: Page) => page.getByRole("heading", { level: 1 });
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

/** Runs the CLI as a CI job would: only the HANGAR_* variables, in an empty directory and home. */
function hangar(args: string[], clientId: string, clientSecret: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        cwd: cliHome,
        timeout: 180_000,
        env: { PATH: process.env.PATH, HOME: cliHome, HANGAR_URL: baseUrl, HANGAR_CLIENT_ID: clientId, HANGAR_CLIENT_SECRET: clientSecret, NO_COLOR: "1" },
      },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

/** The build mail to `address` about `appName`, once it arrived (the sender works through a queue). */
async function buildMailTo(address: string, appName: string): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await eventually(async () => {
    found = (await listMail(mailUrl)).find((m) => m.to.some((t) => t.address.toLowerCase() === address) && (m.text ?? "").includes(appName) && INSTALL_LINK.test(installLinkIn(m) ?? ""));
    return found !== undefined;
  }).toBe(true);
  return found!;
}

const installLinkIn = (mail: CaughtMail) => [...`${mail.text ?? ""}\n${mail.html ?? ""}`.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]).find((l) => INSTALL_LINK.test(l));

beforeAll(() => {
  cliHome = mkdtempSync(join(tmpdir(), "hangar-cli-"));
});

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
  rmSync(cliHome, { recursive: true, force: true });
});

describe("testers journey", () => {
  it(
    "takes a CI build to a group's testers by mail, to one tester's iPhone and portal, and back to the owner as an install",
    async () => {
      const tag = randomUUID().slice(0, 8);
      const testerA = uniqueEmail(`tester-a-${tag}`);
      const testerB = uniqueEmail(`tester-b-${tag}`);

      // The owner (API calls for the setup): a project with a CI key, and the group "QA" with two testers.
      const { b: owner } = await signedIn();
      expect((await dash(owner, "PUT", "/api/account/profile", { displayName: "Olga Owner" })).status).toBe(200);
      const { projectId } = await newProject(owner, `Journey ${tag}`);
      const key = await newDashboardKey(owner, projectId);
      const workspaces = await dash(owner, "GET", "/api/workspaces");
      const workspaceId = (workspaces.json.items as { workspaceId: string; personal: boolean }[]).find((w) => w.personal)!.workspaceId;
      const group = await dash(owner, "POST", `/api/workspaces/${workspaceId}/groups`, { name: "QA" });
      expect(group.status, group.text).toBe(201);
      const added = await dash(owner, "POST", `/api/groups/${group.json.groupId}/testers`, { emails: [testerA, testerB] });
      expect(added.status, added.text).toBe(200);
      expect([...added.json.added].sort()).toEqual([testerA, testerB].sort());

      // CI uploads and sends the build to the group by name, as a pipeline would.
      const upload = await hangar(["upload", ipaPath(), "--groups", "qa", "--message", `Smoke test ${tag}`], key.clientId, key.clientSecret);
      expect(upload.code, `${upload.stdout}\n${upload.stderr}`).toBe(0);
      // The project's one build.
      const files = await dash(owner, "GET", `/api/projects/${projectId}/files`);
      expect(files.json.items).toHaveLength(1);
      const file = (files.json.items as { fileId: string; appName: string | null }[])[0]!;
      const appName = file.appName!;

      // Each tester of the group gets the build mail; tester A opens it on an iPhone and taps Install.
      const mailB = await buildMailTo(testerB, appName);
      expect(mailB.text).toContain(`Smoke test ${tag}`);
      const mailA = await buildMailTo(testerA, appName);
      const phone = await openSession(baseUrl, IPHONE);
      sessions.push(phone);
      const { page } = phone;
      await page.goto(await linkInMail(phone, mailA, `Install ${appName}`));
      await eventually(() => INSTALL_LINK.test(new URL(page.url()).pathname)).toBe(true);
      expect(page.url()).toBe(installLinkIn(mailA));
      // The build's install page for this tester: Install first on an iPhone, the manifest of their own link.
      await eventually(() => heading(page).textContent()).toContain(appName);
      const install = page.locator(".actions a.button.primary");
      const href = (await install.getAttribute("href"))!;
      expect(href).toMatch(/^itms-services:\/\/\?action=download-manifest&url=/);
      const manifest = decodeURIComponent(href.split("url=")[1]!);
      expect(manifest).toBe(`${page.url()}/manifest.plist`);
      await audited(page, "install-page");
      // What the tap does on a real iPhone: iOS's installer asks for the manifest (an install start).
      const asked = await page.request.get(manifest, { headers: IOS_INSTALLER });
      expect(asked.status()).toBe(200);

      // Then the portal, from the mail's link: sign in by magic link, land on /apps with the build.
      await page.goto(await linkInMail(phone, mailA, "See every build sent to you"));
      await expectPath(page, "/tester/sign-in");
      await audited(page, "sign-in");
      await page.getByLabel("E-mail address").fill(testerA);
      await page.getByRole("button", { name: "Email me a sign-in link" }).click();
      await page.getByTestId("sign-in-sent").waitFor();
      const { link } = await waitForLink(mailUrl, testerA, "/tester/sign-in");
      await page.goto(link);
      await expectPath(page, "/apps");
      const card = page.getByRole("region", { name: `Journey ${tag}` });
      await card.waitFor();
      expect(await card.textContent()).toContain(appName);
      const portalInstall = (await card.getByRole("link", { name: /^Install / }).getAttribute("href"))!;
      expect(decodeURIComponent(portalInstall.split("url=")[1]!)).toMatch(/\/install\/[A-Za-z0-9_-]{43}\/manifest\.plist$/);
      await audited(page, "apps");
      await card.getByRole("link", { name: `Journey ${tag}` }).click();
      await expectPath(page, `/tester/apps/${projectId}`);
      await eventually(() => page.getByTestId("tester-builds").textContent()).toContain(`Smoke test ${tag}`);
      await audited(page, "app");
      expect(phone.problems).toEqual([]);

      // The owner's file page lists tester A's install, through the personal link.
      const installs = await dash(owner, "GET", `/api/files/${file.fileId}/installs`);
      expect(installs.status, installs.text).toBe(200);
      expect(installs.json.items).toEqual([expect.objectContaining({ email: testerA, installStarts: 1, via: "link" })]);
      const ownerSession = await openSession(baseUrl);
      sessions.push(ownerSession);
      await signInAs(ownerSession, owner);
      await ownerSession.page.goto(`/files/${file.fileId}`);
      const rows = ownerSession.page.getByTestId("file-installs").locator("tbody tr");
      await eventually(() => rows.count()).toBe(1);
      expect(await rows.first().textContent()).toContain(testerA);
      await audited(ownerSession.page, "owner-file");

      expect(violations).toEqual([]);
    },
    JOURNEY_TIMEOUT_MS,
  );
});

/**
 * The address of the link named `name` in the mail's HTML part, as the tester's mail app shows it
 * (its own tab of the phone's browser, whose loads are no site's problems); the site page follows it.
 */
async function linkInMail(session: BrowserSession, mail: CaughtMail, name: string): Promise<string> {
  const app = await session.context.newPage();
  try {
    await app.setContent(mail.html!);
    return (await app.getByRole("link", { name }).getAttribute("href"))!;
  } finally {
    await app.close();
  }
}

/** The owner's dashboard session in a browser: the API session's cookie, as the other browser tests do. */
async function signInAs(session: BrowserSession, b: Browser) {
  const [name, ...value] = b.cookie!.split("=");
  await session.context.addCookies([{ name: name!, value: value.join("="), url: baseUrl }]);
}
