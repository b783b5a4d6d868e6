import { afterAll, describe, expect, inject, it } from "vitest";
import { PASSWORD, browser, dash, signedIn } from "../support/accounts";
import { openSession, type BrowserSession } from "./support/browser";

/**
 * `?next=` after logging in (L3): only a same-origin path is followed. `/%09/evil.example` arrives
 * as "/<TAB>/evil.example", which a URL parser reads as `//evil.example`: the login must land on
 * the dashboard instead, never on another host or a blank page.
 */
const baseUrl = inject("stack").baseUrl;
let session: BrowserSession | undefined;
afterAll(async () => {
  await session?.context.close();
});

describe("the login page's next parameter", () => {
  it.each(["/%09/evil.example", "/%5Cevil.example", "//evil.example", "/%0a/evil.example"])("falls back to the dashboard for next=%s", async (next) => {
    const { b, email } = await signedIn(browser());
    expect((await dash(b, "PUT", "/api/account/profile", { displayName: "Next Tester" })).status).toBe(200);
    session ??= await openSession(baseUrl);
    const { page } = session;
    await session.context.clearCookies();
    await page.goto(`/login?next=${next}`);
    await page.getByLabel("E-mail address", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000, interval: 100 }).toBe("/dashboard");
    expect(new URL(page.url()).origin).toBe(baseUrl);
  });

  it("follows a same-origin path", async () => {
    const { b, email } = await signedIn(browser());
    expect((await dash(b, "PUT", "/api/account/profile", { displayName: "Next Tester" })).status).toBe(200);
    session ??= await openSession(baseUrl);
    const { page } = session;
    await session.context.clearCookies();
    await page.goto("/login?next=%2Faccount");
    await page.getByLabel("E-mail address", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000, interval: 100 }).toBe("/account");
  });
});
