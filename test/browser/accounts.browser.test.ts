import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { auditAndCapture, openSession, type BrowserSession } from "./support/browser";
import { waitForLink } from "./support/maildev";

/**
 * The accounts journey as a person walks it in Chromium against the local stack: sign up by
 * typing into the forms, open the verification mail in MailDev, follow its link, log in,
 * complete the profile, use the dashboard, sign out, reset a forgotten password. Every page is
 * checked with axe-core (no serious or critical findings) and photographed at phone and
 * desktop width into .tmp/screenshots/accounts/.
 */

const stack = inject("stack");
const baseUrl = stack.baseUrl;
const mailUrl = (stack as { mailUrl?: string }).mailUrl;
const SHOTS = "accounts";
/** A whole journey with two axe runs and two screenshots per page; generous for a busy 2-core machine. */
const JOURNEY_TIMEOUT_MS = 600_000;

const newAddress = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = "violet kettle under 42 maple roofs";
const NEW_PASSWORD = "seven quiet lanterns over the harbour";
const CHANGED_PASSWORD = "a third password for the account page";

let violations: string[] = [];
const sessions: BrowserSession[] = [];

async function open(): Promise<BrowserSession> {
  const session = await openSession(baseUrl);
  sessions.push(session);
  return session;
}

async function audit(page: Page, name: string, axeAt?: readonly ("phone" | "desktop")[]) {
  violations.push(...(await auditAndCapture(page, SHOTS, name, axeAt)));
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const alert = (page: Page) => page.getByRole("alert");

/**
 * expect.poll with room for a busy machine: password hashing (scrypt) and sending mail make a
 * sign-up or a login take seconds when the CPU is shared, far past expect.poll's default 1 s.
 */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

/** Waits for the app to show `pathname`; if it does not, the failure says what the page said instead. */
async function expectPath(page: Page, pathname: string) {
  try {
    await eventually(() => new URL(page.url()).pathname).toBe(pathname);
  } catch (error) {
    const said = await page.getByRole("alert").allTextContents().catch(() => []);
    throw new Error(`expected ${pathname}, still on ${page.url()}; the page says: ${said.filter(Boolean).join(" | ") || "(no alert)"}`, { cause: error });
  }
}

/** Waits until the form's request has settled: its submit button is back with its own label. */
async function settled(page: Page, button: string) {
  await eventually(() => page.getByRole("button", { name: button, exact: true }).isEnabled()).toBe(true);
}

async function signUp(page: Page, email: string, password = PASSWORD) {
  await page.goto("/sign-up");
  await field(page, "E-mail address").fill(email);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expectPath(page, "/check-email");
}

async function logIn(page: Page, email: string, password: string) {
  await field(page, "E-mail address").fill(email);
  await field(page, "Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

async function followMailLink(page: Page, email: string, pathname: string, exclude: string[] = []) {
  const { link } = await waitForLink(mailUrl!, email, pathname, { exclude });
  // Links are built from the public URL: on the local stack that is the address npm start prints.
  expect(new URL(link).origin).toBe(new URL(baseUrl).origin);
  await page.goto(link);
  return link;
}

beforeAll(() => {
  if (!mailUrl) throw new Error("the local stack's info has no mailUrl: the browser tests read mail through MailDev");
});

afterAll(async () => {
  for (const s of sessions) await s.context.close().catch(() => undefined);
});

describe("accounts in the browser", () => {
  it("signs up, verifies by mail, completes the profile, uses the dashboard, signs out and resets a forgotten password", async () => {
    violations = [];
    const { page, problems } = await open();
    const email = newAddress("journey");

    // A stranger opening the root lands on the login page.
    const first = await page.goto("/");
    // The dashboard is served under a CSP without inline scripts (the console check below catches any breach).
    const csp = first?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    await expectPath(page, "/login");
    await eventually(() => heading(page).textContent()).toBe("Log in to Hangar");
    await audit(page, "01-login");

    await page.getByRole("link", { name: "Create an account" }).click();
    await expectPath(page, "/sign-up");
    // The password rules are stated before anyone types (waited for: the page is a lazy chunk).
    await page.getByText("At least 12 characters (up to 256). Common passwords are not accepted.").waitFor({ state: "visible" });
    await audit(page, "02-sign-up");

    await signUp(page, email);
    await eventually(() => page.getByText(`We sent a verification link to ${email}`).isVisible()).toBe(true);
    await audit(page, "03-check-email");

    const verifyLink = await followMailLink(page, email, "/verify-email");
    await eventually(() => heading(page).textContent()).toBe("E-mail address verified");
    await audit(page, "04-verify-email");

    // The same link a second time is spent: it says so instead of pretending.
    await page.goto(verifyLink);
    await eventually(() => heading(page).textContent()).toBe("We couldn't verify this link");
    await audit(page, "05-verify-email-used");

    await page.goto("/login");
    await logIn(page, email, PASSWORD);
    // First login without a display name: the profile comes first.
    await expectPath(page, "/profile");
    await eventually(() => heading(page).textContent()).toBe("Complete your profile");
    await audit(page, "06-profile");

    await page.getByRole("button", { name: "Continue to dashboard" }).click();
    await eventually(() => field(page, "Display name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#field-displayName-error").textContent()).toContain("Enter the name people should see.");
    await field(page, "Display name").fill("Ada Lovelace");
    await page.getByLabel("Organization (optional)").fill("Analytical Engines");
    await page.getByRole("button", { name: "Continue to dashboard" }).click();

    await expectPath(page, "/dashboard");
    await eventually(() => page.getByText("Welcome, Ada.").isVisible()).toBe(true);
    // The projects list loads after the page: wait for its empty state.
    await eventually(() => page.getByRole("heading", { name: "Create your first project" }).isVisible()).toBe(true);
    await audit(page, "07-dashboard");

    // The navigation a person uses: Projects, Security → Developer Settings, Account.
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Projects" }).click();
    await eventually(() => heading(page).textContent()).toBe("Projects");
    await audit(page, "08-projects");
    await nav.getByRole("link", { name: "Developer Settings" }).click();
    await expectPath(page, "/security/developer-settings");
    await audit(page, "09-developer-settings");
    // A second device signs in; the account page lists it and can sign it out.
    const phone = await open();
    await phone.page.goto("/login");
    await logIn(phone.page, email, PASSWORD);
    await expectPath(phone.page, "/dashboard");

    await nav.getByRole("link", { name: "Account" }).click();
    await eventually(() => heading(page).textContent()).toBe("Account");
    await eventually(() => page.getByText("1 other device is signed in.").isVisible()).toBe(true);
    expect(await page.getByText("This device").count()).toBe(1);
    await audit(page, "10-account");
    const sessionList = page.getByRole("region", { name: "Sessions" }).getByRole("listitem");
    await sessionList.filter({ hasNotText: "This device" }).getByRole("button", { name: /^Sign out/ }).click();
    await eventually(() => page.getByText("That device was signed out.").isVisible()).toBe(true);
    await eventually(() => sessionList.count()).toBe(1);
    // That device's next page load finds its session gone.
    await phone.page.goto("/account");
    await expectPath(phone.page, "/login");
    // It signs in again, and "sign out everywhere else" ends it once more.
    await logIn(phone.page, email, PASSWORD);
    await expectPath(phone.page, "/account");
    await page.reload();
    await eventually(() => page.getByText("1 other device is signed in.").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Sign out everywhere else" }).click();
    await eventually(() => page.getByText("Every other device was signed out.").isVisible()).toBe(true);
    await phone.page.reload();
    await expectPath(phone.page, "/login");
    expect(phone.problems).toEqual([]);

    // On a phone the navigation sits behind a menu button.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByRole("button", { name: "Menu" }).click();
    expect(await page.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("true");
    await audit(page, "11-menu-open", ["phone"]);
    await page.setViewportSize({ width: 360, height: 780 });
    await nav.getByRole("link", { name: "Dashboard" }).click();
    await eventually(() => heading(page).textContent()).toBe("Dashboard");
    await page.setViewportSize({ width: 1280, height: 800 });

    // Sign out, then back in: the profile is done, so straight to the dashboard.
    await nav.getByRole("link", { name: "Account" }).click();
    await page.getByRole("region", { name: "Sign out" }).getByRole("button", { name: "Sign out" }).click();
    await expectPath(page, "/login");
    await eventually(() => page.getByText("You are signed out.").isVisible()).toBe(true);
    await page.goto("/dashboard");
    await expectPath(page, "/login");
    await logIn(page, email, PASSWORD);
    await expectPath(page, "/dashboard");

    // Signed in, a fresh load of a page never shows the login form on its way (no flash of
    // logged-out content): an observer notes every heading the page ever renders.
    await page.addInitScript(`
      window.__headings = [];
      new MutationObserver(() => {
        for (const h of document.querySelectorAll("h1")) if (!window.__headings.includes(h.textContent)) window.__headings.push(h.textContent);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    await page.goto("/account");
    await eventually(() => heading(page).textContent()).toBe("Account");
    expect(await page.evaluate("window.__headings")).toEqual(["Account"]);
    await nav.getByRole("link", { name: "Dashboard" }).click();

    // Forgot password: sign out, ask for a link, follow it, choose a new password.
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expectPath(page, "/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await eventually(() => heading(page).textContent()).toBe("Reset your password");
    await audit(page, "12-forgot-password");
    await field(page, "E-mail address").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await eventually(() => page.getByText("Check your inbox").isVisible()).toBe(true);
    await audit(page, "13-forgot-password-sent");

    await followMailLink(page, email, "/reset-password");
    await eventually(() => heading(page).textContent()).toBe("Choose a new password");
    await audit(page, "14-reset-password");
    await field(page, "New password").fill("too short");
    await page.getByRole("button", { name: "Set new password" }).click();
    await eventually(() => field(page, "New password").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#field-newPassword-error").textContent()).toContain("at least 12 characters");
    await audit(page, "15-reset-password-error");
    await field(page, "New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await expectPath(page, "/login");
    await eventually(() => page.getByText("Log in with your new password.", { exact: false }).isVisible()).toBe(true);

    // The old password is gone; the new one opens the dashboard.
    await logIn(page, email, PASSWORD);
    await settled(page, "Log in");
    expect(await alert(page).textContent()).not.toBe("");
    expect(new URL(page.url()).pathname).toBe("/login");
    await field(page, "Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await expectPath(page, "/dashboard");

    // Changing the password on the account page: the wrong current one is named beside its field.
    await nav.getByRole("link", { name: "Account" }).click();
    const passwordCard = page.getByRole("region", { name: "Password" });
    await field(page, "Current password").fill(PASSWORD);
    await field(page, "New password").fill(CHANGED_PASSWORD);
    await passwordCard.getByRole("button", { name: "Change password" }).click();
    await eventually(() => field(page, "Current password").getAttribute("aria-invalid")).toBe("true");
    await audit(page, "16-account-password-error");
    await field(page, "Current password").fill(NEW_PASSWORD);
    await passwordCard.getByRole("button", { name: "Change password" }).click();
    await eventually(() => page.getByText("Password changed. Every other device was signed out.").isVisible()).toBe(true);

    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);

  it("shows why a form was refused: field errors beside their fields, a wrong password, an unverified address with a resend button", async () => {
    violations = [];
    const { page, problems } = await open();

    // Field errors (checked before sending) sit beside their fields and are linked to them.
    await page.goto("/sign-up");
    await field(page, "E-mail address").fill("not-an-address");
    await field(page, "Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    const email = field(page, "E-mail address");
    const password = field(page, "Password");
    await eventually(() => email.getAttribute("aria-invalid")).toBe("true");
    expect(await password.getAttribute("aria-invalid")).toBe("true");
    expect(await email.getAttribute("aria-describedby")).toContain("field-email-error");
    expect(await page.locator("#field-email-error").textContent()).toContain("Enter an e-mail address like name@example.com.");
    expect(await page.locator("#field-password-error").textContent()).toContain("Use at least 12 characters (this one has 5).");
    expect(await alert(page).textContent()).toContain("Please correct the fields below.");
    await audit(page, "20-sign-up-field-errors");

    // The show/hide toggle reveals what was typed.
    await page.getByRole("button", { name: "Show password" }).click();
    expect(await password.getAttribute("type")).toBe("text");
    await page.getByRole("button", { name: "Hide password" }).click();
    expect(await password.getAttribute("type")).toBe("password");

    // The server's own field errors land beside the field too: a common password is refused.
    const unverified = newAddress("unverified");
    await email.fill(unverified);
    await password.fill("password1234");
    await page.getByRole("button", { name: "Create account" }).click();
    await eventually(() => password.getAttribute("aria-invalid")).toBe("true");
    expect((await page.locator("#field-password-error").textContent())?.length).toBeGreaterThan(0);
    await audit(page, "21-sign-up-common-password");

    // An address that was never verified cannot log in, and the answer offers a new link.
    await password.fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expectPath(page, "/check-email");
    await page.goto("/login");
    await logIn(page, unverified, PASSWORD);
    await eventually(() => page.getByRole("button", { name: "Resend verification e-mail" }).isVisible()).toBe(true);
    await audit(page, "22-login-unverified");
    await page.getByRole("button", { name: "Resend verification e-mail" }).click();
    await eventually(() => page.getByText(`We sent a new verification link to ${unverified}.`).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/login");

    // A wrong password says so, without telling which of the two was wrong.
    await field(page, "Password").fill("not the password at all");
    await page.getByRole("button", { name: "Log in" }).click();
    await settled(page, "Log in");
    const refusal = (await alert(page).textContent()) ?? "";
    expect(refusal).not.toBe("");
    expect(refusal).not.toContain("verif");
    await audit(page, "23-login-wrong-password");

    // Mail links without their code explain themselves instead of failing silently.
    await page.goto("/verify-email");
    await eventually(() => heading(page).textContent()).toBe("This link is incomplete");
    await page.goto("/reset-password?token=not-a-real-token");
    await field(page, "New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set new password" }).click();
    await eventually(() => page.getByRole("link", { name: "Ask for a new reset link" }).isVisible()).toBe(true);
    await audit(page, "24-reset-password-bad-link");

    await page.goto("/no-such-page");
    await eventually(() => heading(page).textContent()).toBe("Page not found");
    await audit(page, "25-not-found");

    expect(problems).toEqual([]);
    expect(violations).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);
});
