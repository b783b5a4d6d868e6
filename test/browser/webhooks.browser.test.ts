import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dash, type Browser as Person } from "../support/accounts";
import { stack } from "../support/api";
import { addMember, member, newWorkspace } from "../support/workspaces";
import { auditBothSchemes, openSession, type BrowserSession } from "./support/browser";
import { waitForLink } from "./support/maildev";

/**
 * Settings → Webhooks (issue 21 item 7) in Chromium against the local stack, with receivers on
 * 127.0.0.1 (the test stack allows loopback receivers). An owner adds an endpoint, copies the
 * secret shown once and verifies a test event with it (the `standardwebhooks` package), reads the
 * delivery log and redelivers, rotates the secret (both verify during the overlap), changes the
 * branch filter, and deletes an endpoint. An endpoint the service turned off after failing
 * deliveries is explained on the page the "turned off" mail links to, and turned on again there.
 * A developer reads the same page without a control that changes anything. Every state is checked
 * with axe-core in both schemes at 390 and 1280 px (screenshots in .tmp/screenshots/webhooks/).
 */

const SHOTS = "webhooks";
// Each state is checked with axe eight times (two schemes, two widths, and the screenshots): on a
// loaded machine a journey of several states takes minutes, not the default two.
const JOURNEY_TIMEOUT_MS = 480_000;
const tag = randomUUID().slice(0, 8);

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  status: number;
}

const servers: Server[] = [];
const sessions: BrowserSession[] = [];
const violations: string[] = [];

async function receiver(status = 200): Promise<Receiver> {
  const r: Receiver = { url: "", received: [], status };
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      r.received.push({ headers: req.headers, body });
      res.writeHead(r.status, { "content-type": "text/plain" }).end(r.status < 300 ? "ok, thanks" : "<html>upstream unavailable</html>");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  servers.push(server);
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return r;
}

const verify = (secret: string, got: Received) =>
  new Webhook(secret).verify(got.body, {
    "webhook-id": String(got.headers["webhook-id"]),
    "webhook-timestamp": String(got.headers["webhook-timestamp"]),
    "webhook-signature": String(got.headers["webhook-signature"]),
  }) as { type: string; data: Record<string, unknown> };

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const endpoint = (page: Page, name: string) => page.getByRole("article", { name });

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, SHOTS, name)));
}

/** A browser holding `person`'s dashboard session (the account was made through the API). */
async function browserOf(person: Person): Promise<BrowserSession> {
  const session = await openSession(stack().baseUrl);
  sessions.push(session);
  const [name, ...value] = person.cookie!.split("=");
  await session.context.addCookies([{ name: name!, value: value.join("="), url: stack().baseUrl }]);
  return session;
}

let owner: Awaited<ReturnType<typeof member>>;
let developer: Awaited<ReturnType<typeof member>>;
let workspaceId: string;
let failing: Receiver;
let failingId: string;

beforeAll(async () => {
  owner = await member();
  expect((await dash(owner.b, "PUT", "/api/account/profile", { displayName: "Quinn Owner" })).status).toBe(200);
  workspaceId = (await newWorkspace(owner.b, `Hooks ${tag}`)).workspaceId;
  expect((await dash(owner.b, "POST", "/api/projects", { name: `Rocket ${tag}`, color: "indigo", workspaceId })).status).toBe(201);
  developer = await member();
  expect((await dash(developer.b, "PUT", "/api/account/profile", { displayName: "Dev Reader" })).status).toBe(200);
  await addMember(workspaceId, developer.userId, "developer");
  // A receiver that answers 503 to everything: five test events of three attempts each turn its
  // endpoint off (the test stack retries after 1 s, 1 s) and mail the owner.
  failing = await receiver(503);
  const made = await dash(owner.b, "POST", `/api/workspaces/${workspaceId}/webhooks`, { type: "slack", url: failing.url, events: ["build.completed"], description: "#mobile-releases" });
  expect(made.status, made.text).toBe(201);
  failingId = made.json.webhookId as string;
  for (let i = 0; i < 5; i++) expect((await dash(owner.b, "POST", `/api/webhooks/${failingId}/test`, {})).status).toBe(202);
}, 120_000);

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
});

describe("Settings → Webhooks", () => {
  it("the owner adds an endpoint, verifies a test event with the secret shown once, reads the log, redelivers, rotates, edits and deletes", async () => {
    const hook = await receiver();
    const { page, problems } = await browserOf(owner.b);
    await page.goto(`/settings/webhooks?workspace=${workspaceId}`);
    await eventually(() => heading(page).textContent()).toBe("Webhooks");
    // The settings navigation leads here, beside Members and the audit log.
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).getAttribute("aria-current")).toBe("page");

    // A form the API would refuse is said beside its fields, before any request.
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("checkbox", { name: /build\.completed/ }).uncheck();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByText("Enter the URL Hangar should POST to.").first().waitFor();
    await page.getByText("Choose at least one event.").first().waitFor();
    await audited(page, "add-errors");

    await page.getByLabel("URL", { exact: true }).fill(hook.url);
    await page.getByLabel("Description (optional)").fill("Deploy bot");
    await page.getByRole("checkbox", { name: /build\.completed/ }).check();
    await page.getByRole("checkbox", { name: /build\.distributed/ }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByRole("heading", { name: "Endpoint “Deploy bot” added" }).waitFor();
    const secret = await page.getByRole("textbox", { name: "Signing secret", exact: true }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    await audited(page, "secret-once");
    await page.getByRole("button", { name: "I have copied the secret" }).click();
    await eventually(() => page.getByRole("textbox", { name: "Signing secret", exact: true }).count()).toBe(0);
    // The secret is gone from the page for good: no answer carries it again.
    expect(await page.content()).not.toContain(secret);

    // A test event of the event picked, verified with the secret the page showed.
    const row = endpoint(page, "Deploy bot");
    await row.getByLabel("Test event", { exact: true }).selectOption("build.distributed");
    await row.getByRole("button", { name: "Send test event" }).click();
    await eventually(() => hook.received.length).toBe(1);
    expect(verify(secret, hook.received[0]!).type).toBe("build.distributed");
    const deliveryId = String(hook.received[0]!.headers["webhook-id"]);
    await row.getByText("Test build.distributed event sent.", { exact: false }).waitFor();
    const log = row.getByTestId(/^deliveries-/);
    await log.getByText("Delivered").waitFor();
    await log.getByText("Test", { exact: true }).waitFor();
    await log.getByText(deliveryId, { exact: true }).waitFor();
    await log.locator("summary").first().click();
    await log.getByRole("cell", { name: "200" }).waitFor();
    await log.getByText("ok, thanks").waitFor();
    await audited(page, "delivery-log");

    // Redeliver: one more attempt with the same webhook-id.
    await log.getByRole("button", { name: /^Redeliver/ }).click();
    await eventually(() => hook.received.length).toBe(2);
    expect(hook.received[1]!.headers["webhook-id"]).toBe(deliveryId);
    await row.getByText("Redelivery queued", { exact: false }).waitFor();
    await eventually(() => log.getByRole("row").count()).toBeGreaterThanOrEqual(3);

    // Rotate: a new secret shown once; the old one keeps signing beside it for 24 hours.
    await row.getByRole("button", { name: /^Rotate secret/ }).click();
    await row.getByText("keeps signing beside it for 24 hours", { exact: false }).waitFor();
    await row.getByRole("button", { name: "Rotate secret", exact: true }).click();
    await page.getByRole("heading", { name: "New signing secret for “Deploy bot”" }).waitFor();
    await page.getByText("The previous secret keeps signing beside this one until", { exact: false }).waitFor();
    const rotated = await page.getByRole("textbox", { name: "Signing secret", exact: true }).inputValue();
    expect(rotated).not.toBe(secret);
    await audited(page, "rotated");
    await page.getByRole("button", { name: "I have copied the secret" }).click();
    await row.getByRole("button", { name: "Send test event" }).click();
    await eventually(() => hook.received.length).toBe(3);
    expect(verify(rotated, hook.received[2]!).type).toBe("build.completed");
    expect(verify(secret, hook.received[2]!).type).toBe("build.completed");
    await row.getByText("Previous secret").waitFor();

    // Edit: a branch filter; the list says it.
    await row.getByRole("button", { name: /^Edit/ }).click();
    await row.getByLabel("Branch filter (optional)").fill("release/*");
    await row.getByRole("button", { name: "Save changes" }).click();
    await row.getByText("release/*", { exact: true }).waitFor();
    const stored = await dash(owner.b, "GET", `/api/workspaces/${workspaceId}/webhooks`);
    expect(stored.json.items.find((h: { description: string }) => h.description === "Deploy bot")).toMatchObject({ branchFilter: "release/*", events: ["build.completed", "build.distributed"] });

    // Delete, after a confirmation.
    await row.getByRole("button", { name: /^Delete/ }).click();
    await page.getByRole("group", { name: "Confirm deleting Deploy bot" }).getByRole("button", { name: "Delete endpoint" }).click();
    await eventually(() => endpoint(page, "Deploy bot").count()).toBe(0);
    expect(problems).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);

  it("the turned-off mail lands on the page, which says why and what to do; turning it on works there", async () => {
    const mailUrl = stack().mailUrl!;
    // The service turned the failing endpoint off and mailed its owner a link to this page.
    const { link } = await waitForLink(mailUrl, owner.email, "/settings/webhooks", { timeoutMs: 60_000 });
    expect(new URL(link).searchParams.get("workspace")).toBe(workspaceId);
    const { page, problems } = await browserOf(owner.b);
    await page.goto(link);
    await eventually(() => heading(page).textContent()).toBe("Webhooks");
    const row = endpoint(page, "#mobile-releases");
    await row.getByText("Turned off: failing").waitFor();
    await row.getByText("Hangar turned this endpoint off after", { exact: false }).waitFor();
    // A Slack URL is the channel's secret: the page shows its host only.
    expect(await row.textContent()).not.toContain("/hooks");
    await row.getByRole("button", { name: /^Show delivery log/ }).click();
    await row.getByTestId(`deliveries-${failingId}`).getByText("Failed").first().waitFor();
    await row.getByTestId(`deliveries-${failingId}`).locator("summary").first().click();
    await row.locator("details[open]").getByText("upstream unavailable", { exact: false }).first().waitFor();
    await audited(page, "turned-off");

    await row.getByRole("button", { name: /^Turn on/ }).click();
    await row.getByText("On", { exact: true }).waitFor();
    await eventually(() => row.getByText("Hangar turned this endpoint off after", { exact: false }).count()).toBe(0);
    expect((await dash(owner.b, "GET", `/api/webhooks/${failingId}`)).json).toMatchObject({ enabled: true, disabledReason: null, failureStreak: 0 });
    // Off again, by hand this time: the page says so, without the failing story.
    failing.status = 200;
    await row.getByRole("button", { name: /^Turn off/ }).click();
    await row.getByText("A member turned it off.", { exact: false }).waitFor();
    expect(problems).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);

  it("a developer reads the endpoints and their logs, with no control that changes anything", async () => {
    const { page, problems } = await browserOf(developer.b);
    await page.goto(`/settings/webhooks?workspace=${workspaceId}`);
    await eventually(() => heading(page).textContent()).toBe("Webhooks");
    await page.getByText("You can see this workspace's webhooks and their delivery logs.").waitFor();
    const row = endpoint(page, "#mobile-releases");
    await row.waitFor();
    await row.getByRole("button", { name: /^Show delivery log/ }).click();
    await row.getByTestId(`deliveries-${failingId}`).getByText("Failed").first().waitFor();
    for (const name of [/^Add endpoint/, /^Edit/, /^Turn (on|off)/, /^Rotate secret/, /^Delete/, /^Redeliver/, /^Send test event/]) {
      expect(await page.getByRole("button", { name }).count(), String(name)).toBe(0);
    }
    await audited(page, "developer");
    expect(problems).toEqual([]);
  }, JOURNEY_TIMEOUT_MS);

  it("has no serious accessibility violations in either scheme", () => {
    expect(violations).toEqual([]);
  });
});
