import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dash, uniqueEmail } from "../support/accounts";
import { stack } from "../support/api";
import { newDashboardKey, uploadIpa } from "../support/dashboard";
import { seedGroup } from "../support/tester-groups-seed";
import { member, newWorkspace } from "../support/workspaces";
import { SCREENSHOT_DIR, VIEWPORTS, seriousViolations, sharedBrowser } from "./support/browser";

/*
 * The build mail as a mail client shows it (issue 20 item 4): a real distribution on the local
 * stack, the HTML part MailDev caught, rendered in Chromium at phone and desktop widths.
 * Screenshots in .tmp/screenshots/build-mail (git-ignored).
 */
const SHOTS = join(SCREENSHOT_DIR, "build-mail");

describe("the build mail in a browser", () => {
  it("renders the icon, name, version, message, notes, the Install button and the unsubscribe link, without serious axe findings", async () => {
    const { b } = await member();
    const { workspaceId } = await newWorkspace(b, "Mobile QA");
    const project = await dash(b, "POST", "/api/projects", { name: "Mail look", description: "", color: "blue", workspaceId });
    const key = await newDashboardKey(b, project.json.projectId as string);
    const tester = uniqueEmail("looks");
    await seedGroup(workspaceId, "QA", [tester]);
    const { fileId } = await uploadIpa(key, "App.ipa", { releaseNotes: "• Faster start\n• Fixed the login crash" });
    const sent = await dash(b, "POST", `/api/files/${fileId}/distribute`, { groups: ["QA"], message: "Please check sign-in with a new account <today>." });
    expect(sent.status, sent.text).toBe(202);

    let html = "";
    for (let waited = 0; !html && waited < 30_000; waited += 200) {
      const all = (await (await fetch(`${stack().mailUrl}/api/email`)).json()) as { to: { address: string }[]; subject: string; html: string }[];
      html = all.find((m) => m.subject.startsWith("New build:") && m.to.some((t) => t.address === tester))?.html ?? "";
      if (!html) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(html).not.toBe("");

    mkdirSync(SHOTS, { recursive: true });
    const browser = await sharedBrowser();
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.setContent(html, { waitUntil: "load" });
      const install = page.getByRole("link", { name: /^Install / });
      await expect(install.isVisible()).resolves.toBe(true);
      expect(await install.getAttribute("href")).toMatch(new RegExp(`^${stack().baseUrl}/install/[A-Za-z0-9_-]{43}$`));
      expect(await page.getByRole("link", { name: /Unsubscribe from mails about/ }).getAttribute("href")).toMatch(/\/unsubscribe\//);
      expect(await page.getByRole("link", { name: "See every build sent to you" }).getAttribute("href")).toBe(`${stack().baseUrl}/apps`);
      await expect(page.getByText("Please check sign-in with a new account <today>.").isVisible()).resolves.toBe(true);
      await expect(page.getByText("Fixed the login crash").isVisible()).resolves.toBe(true);
      // The icon loads from the share page's stable address (when the build has one).
      const icon = page.locator("img");
      if ((await icon.count()) > 0) expect(await icon.first().evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `build-mail-${name}.png`), fullPage: true });
      if (name === "desktop") expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
