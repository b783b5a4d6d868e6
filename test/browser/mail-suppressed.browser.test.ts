import { DynamoMailSuppressions } from "@hangar/core/dynamo";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dash, signedIn, PASSWORD } from "../support/accounts";
import { db } from "../support/api";
import { auditAndCapture, openSession, type BrowserSession } from "./support/browser";

/**
 * The account page of an address SES reported as bouncing (the suppression item as
 * mail/ses-events.handler.ts writes it, test/mail-suppression.test.ts): the page says since when
 * no mail goes there and what to do, passes axe at phone and desktop width, and is photographed
 * into .tmp/screenshots/mail-suppressed/.
 */
const stack = inject("stack");
let session: BrowserSession | undefined;

afterAll(async () => {
  await session?.context.close().catch(() => undefined);
});

describe("a bounced address on the account page", () => {
  it("says mail to it bounced on the date and that nothing more is sent, with the way out", async () => {
    const { b, email } = await signedIn();
    expect((await dash(b, "PUT", "/api/account/profile", { displayName: "Ada Bounce" })).status).toBe(200);
    await new DynamoMailSuppressions(db(), stack.tableName).record(email, "bounce", "2026-11-20T08:15:30.000Z");

    session = await openSession(stack.baseUrl);
    const { page, problems } = session;
    await page.goto("/login");
    await page.getByLabel("E-mail address", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).not.toBe("/login");
    await page.goto("/account");
    const notice = page.getByRole("status").filter({ hasText: "We stopped sending mail to this address" });
    await expect.poll(() => notice.isVisible(), { timeout: 30_000 }).toBe(true);
    const text = (await notice.textContent()) ?? "";
    expect(text).toMatch(/Mail to this address bounced on .*2026.*: we stopped sending/);
    expect(text).toContain("ask whoever runs this Hangar to lift the block");
    expect(await auditAndCapture(page, "mail-suppressed", "account", ["phone", "desktop"])).toEqual([]);
    expect(problems).toEqual([]);
  }, 300_000);
});
