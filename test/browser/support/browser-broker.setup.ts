import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL that answers the WebSocket endpoint of the run's one Chromium (launched on first ask). */
    browserBroker: string;
  }
}

/** Debian's chromium (Playwright's own browser download cannot run on these machines). */
export const CHROMIUM_PATH = process.env.HANGAR_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Flags for a headless Chromium on a machine with no network beyond loopback: without the
 * background-networking ones it keeps dialling Google's hosts and logging refusals.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/**
 * One browser per test run, shared by every browser test file (each file runs in its own
 * worker, so a module-level browser would be one per file). It is launched only when a test
 * first asks for it: integration runs without browser tests never start Chromium.
 */
export default async function setup(project: TestProject) {
  let launching: Promise<BrowserServer> | undefined;
  const server: Server = createServer((request, response) => {
    if (request.url !== "/ws-endpoint") {
      response.writeHead(404).end();
      return;
    }
    launching ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
    launching.then(
      (browser) => response.writeHead(200, { "Content-Type": "text/plain" }).end(browser.wsEndpoint()),
      (error: unknown) => response.writeHead(500, { "Content-Type": "text/plain" }).end(`Chromium did not start (${CHROMIUM_PATH}): ${String(error)}`),
    );
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  project.provide("browserBroker", `http://127.0.0.1:${(server.address() as AddressInfo).port}/ws-endpoint`);
  return async () => {
    await new Promise<void>((closed) => server.close(() => closed()));
    if (launching) await (await launching.catch(() => undefined))?.close();
  };
}
