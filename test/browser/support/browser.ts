import AxeBuilder from "@axe-core/playwright";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { inject } from "vitest";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
/** Git-ignored (.tmp/): reviewers look here after a run. */
export const SCREENSHOT_DIR = join(REPO_ROOT, ".tmp", "screenshots");

export const VIEWPORTS = {
  phone: { width: 360, height: 780 },
  desktop: { width: 1280, height: 800 },
} as const;

let connected: Promise<Browser> | undefined;

/** The run's one Chromium (see browser-broker.setup.ts), connected once per test file. */
export function sharedBrowser(): Promise<Browser> {
  connected ??= (async () => {
    const answer = await fetch(inject("browserBroker"));
    const text = await answer.text();
    if (!answer.ok) throw new Error(text);
    return chromium.connect(text);
  })();
  return connected;
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and CSP violations seen so far (a strict CSP must hold on every page). */
  problems: string[];
}

/**
 * The integration stack reads the client's address from this header (test/setup/global-setup.ts),
 * so each browser is its own client for the per-address limits, as people on different networks are.
 */
const CLIENT_IP_HEADER = "x-hangar-test-client-ip";
let clients = 0;

/** An iPhone's Safari as a tester's phone shows it (the tester pages and the install page choose their buttons by it). */
export const IPHONE = {
  viewport: { width: 390, height: 844 },
  userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  isMobile: true,
  hasTouch: true,
} as const;

/** A fresh context (its own cookies and client address): one person in one browser; `device` a phone's size and user agent. */
export async function openSession(baseUrl: string, device: { viewport: { width: number; height: number }; userAgent?: string; isMobile?: boolean; hasTouch?: boolean } = { viewport: VIEWPORTS.desktop }): Promise<BrowserSession> {
  const browser = await sharedBrowser();
  clients += 1;
  const clientIp = `198.51.100.${(process.pid + clients) % 250 + 1}`;
  const context = await browser.newContext({
    baseURL: baseUrl,
    ...device,
    locale: "en-US",
    timezoneId: "UTC",
    extraHTTPHeaders: { [CLIENT_IP_HEADER]: clientIp },
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    // 4xx answers the page expects (wrong password, 401 from GET /api/account) are logged by Chromium as failed loads.
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
    else if (message.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) problems.push(text);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/**
 * A fresh browser holding `person`'s dashboard session: the account was made through the API, and
 * the browser gets the same cookie its sign-in set.
 */
export async function sessionOf(baseUrl: string, person: { cookie?: string }, device?: Parameters<typeof openSession>[1]): Promise<BrowserSession> {
  const session = await openSession(baseUrl, device);
  const [name, ...value] = person.cookie!.split("=");
  await session.context.addCookies([{ name: name!, value: value.join("="), url: baseUrl }]);
  return session;
}

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

type ViewportName = keyof typeof VIEWPORTS;

/**
 * Saves a full-page screenshot at phone and desktop width (`<dir>/<name>-phone.png`,
 * `-desktop.png`) and checks the page with axe-core at the widths in `axeAt` (desktop by default:
 * colours and names are the same at both; a page whose phone layout shows other elements, such
 * as the open menu, asks for phone). Returns the violations found.
 */
export async function auditAndCapture(page: Page, dir: string, name: string, axeAt: readonly ViewportName[] = ["desktop"]): Promise<string[]> {
  const out = join(SCREENSHOT_DIR, dir);
  mkdirSync(out, { recursive: true });
  const found: string[] = [];
  for (const label of Object.keys(VIEWPORTS) as ViewportName[]) {
    await page.setViewportSize(VIEWPORTS[label]);
    // Let layout settle (fonts, the sticky bar) before measuring contrast and taking the picture.
    await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
    if (axeAt.includes(label)) for (const v of await seriousViolations(page)) found.push(`[${name} @ ${label}] ${v}`);
    // From the top, so sticky parts (the sidebar) sit where a person first sees them.
    await page.evaluate("window.scrollTo(0, 0)");
    await page.screenshot({ path: join(out, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  return found;
}

/** The dashboard's two widths for scheme audits: a common phone and a desktop. */
export const SCHEME_WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;

/**
 * axe-core in the light and the dark scheme at both widths, and a full-page screenshot of each
 * (`<dir>/<name>-<scheme>-<width>.png`). Returns the violations found, each named by where.
 */
export async function auditBothSchemes(page: Page, dir: string, name: string): Promise<string[]> {
  const out = join(SCREENSHOT_DIR, dir);
  mkdirSync(out, { recursive: true });
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    // Reduced motion turns the buttons' 120 ms colour transitions off: axe measures the settled
    // colours of the new scheme, not a frame half way between two (on a loaded machine two
    // animation frames can come before the transition ends).
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: "reduce" });
    for (const [label, size] of Object.entries(SCHEME_WIDTHS)) {
      await page.setViewportSize(size);
      await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
      for (const v of await seriousViolations(page)) found.push(`[${name} ${scheme} @ ${label}] ${v}`);
      await page.evaluate("window.scrollTo(0, 0)");
      await page.screenshot({ path: join(out, `${name}-${scheme}-${size.width}.png`), fullPage: true });
    }
  }
  await page.emulateMedia({ colorScheme: "light", reducedMotion: "no-preference" });
  await page.setViewportSize(SCHEME_WIDTHS.desktop);
  return found;
}
