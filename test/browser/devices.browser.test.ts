import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoWorkspaceCatalog, keys } from "@hangar/core/dynamo";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Download, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDevice, type SeededDevice } from "../support/devices-seed";
import { startFakeAppStoreConnect, type FakeAppStoreConnect } from "../support/fake-app-store-connect";
import { fixtures } from "../support/fixtures";
import { startStackProcess, type StackProcess } from "../support/local-stack-process";
import { accountOn, type StackAccount } from "../support/stack-account";
import { auditBothSchemes, openSession, type BrowserSession } from "./support/browser";

/**
 * Issue 22 items 3 and 4 in Chromium: the dashboard's Devices page (`/testers/devices`) and a
 * build's Devices card, on a local stack of this file's own with Register with Apple on (an App
 * Store Connect key in a file, and the local fake of App Store Connect that verifies every token
 * with the key's public key). The workspace's devices are seeded in the table as enrollment leaves
 * them, two of them with UDIDs of the ad-hoc build's profile (as complete stored them on its file
 * record), so the build's page has devices in and out of its profile. An owner exports, renames,
 * registers two devices with Apple, removes one; the build's page lists included and missing and
 * exports the missing ones; an App Store build has no Devices card; a viewer reads without
 * controls; an empty workspace explains enrollment. Every page is checked with axe-core in both
 * schemes at 390 and 1280 px (screenshots in .tmp/screenshots/devices/).
 */

const SHOTS = "devices";
const ISSUER = "3f1c2a5e-7b8d-4e9f-a0b1-c2d3e4f5a6b7";
const KEY_ID = "QWERTY1234";
const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });

let fake: FakeAppStoreConnect;
let stack: StackProcess;
let dataDir: string;
let doc: DynamoDBDocumentClient;
let owner: StackAccount;
let viewer: StackAccount;
let workspaceId: string;
let devBuild: string;
let storeBuild: string;
let profileUdids: string[];
let ana: SeededDevice;
let ben: SeededDevice;
let chloe: SeededDevice;
let dan: SeededDevice;
const sessions: BrowserSession[] = [];
const violations: string[] = [];

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });
const heading = (page: Page) => page.getByRole("heading", { level: 1 });
const rows = (page: Page, testId: string) => page.getByTestId(testId).locator("tbody tr");
const row = (page: Page, name: string) => rows(page, "devices").filter({ has: page.getByRole("rowheader", { name }) });

async function audited(page: Page, name: string) {
  violations.push(...(await auditBothSchemes(page, SHOTS, name)));
}

async function browserOf(person: StackAccount): Promise<BrowserSession> {
  const session = await openSession(stack.info.baseUrl);
  sessions.push(session);
  const [name, ...value] = person.cookie.split("=");
  await session.context.addCookies([{ name: name!, value: value.join("="), url: stack.info.baseUrl }]);
  return session;
}

const text = async (download: Download) => {
  const path = join(dataDir, `download-${Date.now()}.tsv`);
  await download.saveAs(path);
  return readFileSync(path, "utf8");
};

/** presign → PUT → complete of a fixture IPA with a project key, on this file's stack. */
async function upload(key: { clientId: string; clientSecret: string }, fixture: string, fileName: string): Promise<string> {
  const bytes = readFileSync(fixture);
  const declared = { fileName, fileSize: bytes.length, fileType: "application/octet-stream" };
  const auth = { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" };
  const base = stack.info.baseUrl;
  const presigned = (await (await fetch(`${base}/api/upload/api-key/presign`, { method: "POST", headers: auth, body: JSON.stringify(declared) })).json()) as { key: string; uploadUrl: string };
  expect((await fetch(presigned.uploadUrl, { method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body: bytes })).status).toBe(200);
  const completed = await fetch(`${base}/api/upload/api-key/complete`, { method: "POST", headers: auth, body: JSON.stringify({ ...declared, key: presigned.key }) });
  const body = await completed.text();
  expect(completed.status, body).toBe(200);
  return (JSON.parse(body) as { fileId: string }).fileId;
}

beforeAll(async () => {
  fake = await startFakeAppStoreConnect({ publicKey: pair.publicKey, issuerId: ISSUER, keyId: KEY_ID });
  dataDir = mkdtempSync(join(tmpdir(), "hangar-devices-"));
  const keyFile = join(dataDir, `AuthKey_${KEY_ID}.p8`);
  writeFileSync(keyFile, pair.privateKey.export({ type: "pkcs8", format: "pem" }));
  stack = await startStackProcess(dataDir, {
    HANGAR_DYNAMODB_IN_MEMORY: "1",
    HANGAR_ASC_ENABLED: "1",
    HANGAR_ASC_ISSUER_ID: ISSUER,
    HANGAR_ASC_KEY_ID: KEY_ID,
    HANGAR_ASC_PRIVATE_KEY_FILE: keyFile,
    HANGAR_ASC_BASE_URL: fake.baseUrl,
  });
  const info = stack.info;
  doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials }));
  [owner, viewer] = await Promise.all([accountOn(info, "devices-owner"), accountOn(info, "devices-viewer")]);
  const team = await owner.dash("POST", "/api/workspaces", { name: "Rocket team" });
  expect(team.status, team.text).toBe(201);
  workspaceId = team.json.workspaceId as string;
  const viewerId = (await viewer.dash("GET", "/api/account")).json.userId as string;
  await new DynamoWorkspaceCatalog(doc, info.tableName).addMember({ workspaceId, userId: viewerId, role: "viewer", joinedAt: new Date().toISOString() });

  const project = await owner.dash("POST", "/api/projects", { name: "Rocket iOS", description: "", color: "indigo", workspaceId });
  expect(project.status, project.text).toBe(201);
  const key = await owner.dash("POST", "/api/keys", { name: "CI", projectId: project.json.projectId });
  expect(key.status, key.text).toBe(201);
  const ipa = (name: string) => fixtures("ipa").find((f) => f.endsWith(name))!;
  // An ad-hoc build whose profile lists four devices, and an App Store build.
  devBuild = await upload(key.json, ipa("ad-hoc-devices.ipa"), "Rocket-adhoc.ipa");
  storeBuild = await upload(key.json, ipa("unicode-names.ipa"), "Rocket-store.ipa");
  // What complete kept of the ad-hoc profile: its four well-formed UDIDs, uppercase.
  const stored = await doc.send(new GetCommand({ TableName: info.tableName, Key: keys.file(devBuild), ConsistentRead: true }));
  profileUdids = stored.Item!.provisionedUdids as string[];
  expect(profileUdids).toHaveLength(4);

  // Two devices in the build's profile, two not; the oldest first (the page lists newest first).
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  ana = await seedDevice(doc, info.tableName, workspaceId, { udid: profileUdids[0]!, name: "Ana’s iPhone", email: "ana@example.com", registeredAt: at(400) });
  ben = await seedDevice(doc, info.tableName, workspaceId, { udid: profileUdids[1]!, name: "Ben’s iPad", product: "iPad13,18", model: "iPad (10th generation)", osVersion: "22A3354", email: "ben@example.com", registeredAt: at(300) });
  // A hostile name: shown as text, never as markup.
  chloe = await seedDevice(doc, info.tableName, workspaceId, { name: "<img src=x onerror=alert(1)>", product: "iPhone17,1", model: null, email: "chloe@example.com", registeredAt: at(200) });
  dan = await seedDevice(doc, info.tableName, workspaceId, { name: "Dan’s iPhone SE", product: "iPhone14,6", model: "iPhone SE (3rd generation)", osVersion: "21F90", registeredAt: at(100) });
}, 300_000);

afterAll(async () => {
  for (const session of sessions) await session.context.close().catch(() => undefined);
  doc?.destroy();
  await stack?.stop();
  await fake?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("the Devices page", () => {
  it("lists the workspace's devices, exports them for Apple, renames, registers two with Apple, removes one", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/testers?workspace=${workspaceId}`);
    await eventually(() => heading(page).textContent()).toBe("Testers");
    // Reached from the Testers page.
    await page.getByRole("link", { name: "Devices" }).click();
    await eventually(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(`/testers/devices?workspace=${workspaceId}`);
    await eventually(() => heading(page).textContent()).toBe("Devices");
    await eventually(() => rows(page, "devices").count()).toBe(4);
    // Newest first, with model (or Apple's identifier when unknown), iOS, tester and Apple status.
    expect(await rows(page, "devices").getByRole("rowheader").allTextContents()).toEqual([
      `Dan’s iPhone SE${dan.udid}`,
      `<img src=x onerror=alert(1)>${chloe.udid}`,
      `Ben’s iPad${ben.udid}`,
      `Ana’s iPhone${ana.udid}`,
    ]);
    expect(await row(page, "Ben’s iPad").locator("td").allTextContents()).toEqual(expect.arrayContaining(["iPad (10th generation)", "22A3354", "ben@example.com", "Not registered"]));
    expect(await row(page, "<img src=x onerror=alert(1)>").locator("td[data-label=Model]").textContent()).toBe("iPhone17,1");
    expect(await page.locator("img[src=x]").count()).toBe(0);
    await audited(page, "devices");

    // Export all: Apple's multiple-devices file, one line per device.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-all").click()]);
    const lines = (await text(download)).trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe("Device ID\tDevice Name\tDevice Platform");
    expect(lines.slice(1).map((l) => l.split("\t")[0]).sort()).toEqual([ana.udid, ben.udid, chloe.udid, dan.udid].sort());

    // Rename: the API's rule in the form's words, then the new name everywhere.
    const chloeRow = row(page, "<img src=x onerror=alert(1)>");
    await chloeRow.getByRole("button", { name: "Rename <img src=x onerror=alert(1)>" }).click();
    const nameField = chloeRow.getByLabel("Device name");
    await nameField.fill("   ");
    await chloeRow.getByRole("button", { name: "Save name" }).click();
    await chloeRow.getByText("Enter a name for the device.").waitFor();
    await nameField.fill("QA spare iPhone 16");
    await chloeRow.getByRole("button", { name: "Save name" }).click();
    await row(page, "QA spare iPhone 16").waitFor();
    expect((await owner.dash("GET", `/api/workspaces/${workspaceId}/devices`)).json.items.map((d: { name: string }) => d.name)).toContain("QA spare iPhone 16");

    // Register with Apple: two selected; Apple (the fake) checks each token and body.
    await page.getByLabel("Select Ana’s iPhone").check();
    await page.getByLabel("Select QA spare iPhone 16").check();
    await page.getByRole("button", { name: "Register 2 selected with Apple" }).click();
    // Named in the table's order (newest first), as the person selected them.
    await page.getByTestId("apple-outcome").getByText("Registered: QA spare iPhone 16, Ana’s iPhone.").waitFor();
    expect(fake.problems).toEqual([]);
    expect([...fake.devices.keys()].sort()).toEqual([ana.udid, chloe.udid].sort());
    await eventually(() => row(page, "Ana’s iPhone").locator("td[data-label=Apple]").textContent()).toBe("Registered");
    await eventually(() => row(page, "QA spare iPhone 16").locator("td[data-label=Apple]").textContent()).toBe("Registered");
    expect(await row(page, "Dan’s iPhone SE").locator("td[data-label=Apple]").textContent()).toBe("Not registered");
    await audited(page, "devices-registered");

    // Remove, after a confirmation that says what it does not undo.
    const danRow = row(page, "Dan’s iPhone SE");
    await danRow.getByRole("button", { name: "Remove Dan’s iPhone SE" }).click();
    await danRow.getByText("Apple’s account and existing profiles keep it", { exact: false }).waitFor();
    await danRow.getByRole("button", { name: "Remove device" }).click();
    await eventually(() => rows(page, "devices").count()).toBe(3);
    expect((await owner.dash("GET", `/api/workspaces/${workspaceId}/devices`)).json.items).toHaveLength(3);
    expect(problems).toEqual([]);
  });

  it("shows a build's devices: in its profile, missing from it, and the missing ones exported for Apple", async () => {
    const { page, problems } = await browserOf(owner);
    await page.goto(`/files/${devBuild}`);
    await page.getByTestId("devices-summary").waitFor();
    // Ana and Ben are in the profile; QA spare (Chloé's) is not; Dan was removed; two profile UDIDs have no device here.
    expect(await page.getByTestId("devices-summary").textContent()).toBe(
      "2 of 3 registered devices are in this build’s ad-hoc profile. 2 UDIDs in the profile belong to no device registered here.",
    );
    expect(await rows(page, "devices-included").getByRole("rowheader").allTextContents()).toEqual(expect.arrayContaining(["Ana’s iPhone", "Ben’s iPad"]));
    expect(await rows(page, "devices-missing").getByRole("rowheader").allTextContents()).toEqual(["QA spare iPhone 16"]);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-missing").click()]);
    expect((await text(download)).trimEnd().split(/\r?\n/)).toEqual(["Device ID\tDevice Name\tDevice Platform", `${chloe.udid}\tQA spare iPhone 16\tios`]);
    await audited(page, "file-devices");

    // An App Store build installs on any device: no Devices card at all.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/files/${storeBuild}/devices`);
    await page.goto(`/files/${storeBuild}`);
    expect((await answered).status()).toBe(200);
    await page.locator("#metadata-title").waitFor();
    await page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))");
    expect(await page.locator("#devices-title").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("lets a viewer read without controls, and explains enrollment in a workspace without devices", async () => {
    const { page, problems } = await browserOf(viewer);
    await page.goto(`/testers/devices?workspace=${workspaceId}`);
    await eventually(() => rows(page, "devices").count()).toBe(3);
    expect(await page.getByRole("button", { name: /Rename|Remove|Register/ }).count()).toBe(0);
    expect(await page.getByRole("checkbox").count()).toBe(0);
    await page.getByTestId("export-all").waitFor();
    await audited(page, "devices-viewer");

    // The viewer's own personal workspace has no devices yet.
    await page.goto(`/testers/devices?workspace=${viewer.workspaceId}`);
    await page.getByRole("heading", { name: "No devices registered yet" }).waitFor();
    await page.getByText("Check this iPhone", { exact: false }).waitFor();
    await audited(page, "devices-empty");
    expect(problems).toEqual([]);
  });

  it("shows the first devices in a build's profile and the rest on request, by keyboard", async () => {
    // The profile's other two UDIDs registered too: four devices in the profile, three shown.
    await seedDevice(doc, stack.info.tableName, workspaceId, { udid: profileUdids[2]!, name: "Eve’s iPhone", email: "eve@example.com" });
    await seedDevice(doc, stack.info.tableName, workspaceId, { udid: profileUdids[3]!, name: "Finn’s iPhone", email: "finn@example.com" });
    const { page, problems } = await browserOf(owner);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/files/${devBuild}`);
    const toggle = page.getByRole("button", { name: "Show all 4 devices in the profile" });
    await toggle.waitFor();
    expect(await rows(page, "devices-included").count()).toBe(3);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await toggle.getAttribute("aria-controls")).toBe("devices-included-table");
    expect(await page.locator("#devices-included-table").getByTestId("devices-included").count()).toBe(1);
    await audited(page, "file-devices-collapsed");

    await toggle.focus();
    await page.keyboard.press("Enter");
    await eventually(() => rows(page, "devices-included").count()).toBe(4);
    const fewer = page.getByRole("button", { name: "Show fewer" });
    expect(await fewer.getAttribute("aria-expanded")).toBe("true");
    // Focus stays on the control, which now says what it does.
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Show fewer");
    expect(await rows(page, "devices-included").getByRole("rowheader").allTextContents()).toEqual(
      expect.arrayContaining(["Ana’s iPhone", "Ben’s iPad", "Eve’s iPhone", "Finn’s iPhone"]),
    );
    await audited(page, "file-devices-expanded");
    await page.keyboard.press("Space");
    await eventually(() => rows(page, "devices-included").count()).toBe(3);
    expect(problems).toEqual([]);
  });

  it("passes axe-core in both schemes at phone and desktop widths", () => {
    expect(violations).toEqual([]);
  });
});
