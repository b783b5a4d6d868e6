import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoTesterSessions } from "@hangar/core/tester-access";
import { freeBasePort } from "@hangar/local";
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AD_HOC_DEVICES } from "../../packages/inspect/fixtures/ipa-fixtures";
import { fixtures } from "../support/fixtures";
import { startStackProcess, type StackProcess } from "../support/local-stack-process";
import { accountOn, type StackAccount } from "../support/stack-account";
import { auditBothSchemes, IPHONE, openSession, type BrowserSession } from "./support/browser";

/**
 * The tester portal with a share host apart from the dashboard (docs/devices.md "The portal on a
 * separate share host"), in an iPhone-sized Chromium: a stack of this file's own whose share base
 * is `http://localhost:<port>` while its public URL is `http://127.0.0.1:<port>` (two hosts to a
 * browser: neither's cookies reach the other). A signed-in tester taps Check this iPhone on the
 * portal, the device answers the profile, the result page on the share host sets the device
 * cookie there and sends the tester back to the portal with a hand-off, which the portal redeems:
 * the portal then shows the verdict instead of asking again, and the hand-off works only once.
 * axe in both schemes at 390 and 1280 px, screenshots in .tmp/screenshots/portal-share-host/.
 */

const SHOTS = "portal-share-host";
const UDID = AD_HOC_DEVICES[0]!;
const TESTER = `portal-${randomBytes(4).toString("hex")}@hangar.test`;

let stack: StackProcess;
let dataDir: string;
let doc: DynamoDBDocumentClient;
let publicBase: string;
let shareBase: string;
let owner: StackAccount;
const sessions: BrowserSession[] = [];
const violations: string[] = [];

const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000, interval: 100 });

/** presign → PUT → complete of the ad-hoc fixture (its profile lists AD_HOC_DEVICES) with a project key. */
async function uploadAdHoc(key: { clientId: string; clientSecret: string }): Promise<string> {
  const bytes = readFileSync(fixtures("ipa").find((f) => f.endsWith("ad-hoc-devices.ipa"))!);
  const declared = { fileName: "Portal.ipa", fileSize: bytes.length, fileType: "application/octet-stream" };
  const auth = { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" };
  const presigned = (await (await fetch(`${publicBase}/api/upload/api-key/presign`, { method: "POST", headers: auth, body: JSON.stringify(declared) })).json()) as { key: string; uploadUrl: string };
  expect((await fetch(presigned.uploadUrl, { method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body: bytes })).status).toBe(200);
  const completed = await fetch(`${publicBase}/api/upload/api-key/complete`, { method: "POST", headers: auth, body: JSON.stringify({ ...declared, key: presigned.key }) });
  const body = await completed.text();
  expect(completed.status, body).toBe(200);
  return (JSON.parse(body) as { fileId: string }).fileId;
}

/** A live tester session, as the sign-in link leaves it; answers the `hangar_tester` cookie's value. */
async function testerSession(email: string): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  await new DynamoTesterSessions(doc, stack.info.tableName).create({
    sessionId: createHash("sha256").update(token, "utf8").digest("hex"),
    email,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 86_400_000).toISOString(),
  });
  return `${Buffer.from(email, "utf8").toString("base64url")}.${token}`;
}

/** The device's answer to the profile service: its attributes as a plist, CMS-signed as iOS signs it. */
function deviceAnswer(fields: Record<string, string>): Buffer {
  writeFileSync(join(dataDir, "answer.plist"), plist.build(fields));
  execFileSync("openssl", ["cms", "-sign", "-in", "answer.plist", "-signer", "device.pem", "-inkey", "device.key", "-outform", "DER", "-nodetach", "-binary", "-out", "answer.p7"], { cwd: dataDir, stdio: "pipe" });
  return readFileSync(join(dataDir, "answer.p7"));
}

beforeAll(async () => {
  const port = await freeBasePort("127.0.0.1");
  publicBase = `http://127.0.0.1:${port}`;
  shareBase = `http://localhost:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), "hangar-portal-share-host-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Test iPhone", "-days", "1", "-keyout", "device.key", "-out", "device.pem"], { cwd: dataDir, stdio: "pipe" });
  stack = await startStackProcess(dataDir, { PORT: String(port), HANGAR_DYNAMODB_IN_MEMORY: "1", HANGAR_SHARE_BASE_URL: shareBase });
  expect(stack.info.baseUrl).toBe(publicBase);
  const info = stack.info;
  doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials }));
  owner = await accountOn(info, "portal-owner");
  const project = await owner.dash("POST", "/api/projects", { name: "Portal app", description: "", color: "teal", workspaceId: owner.workspaceId });
  expect(project.status, project.text).toBe(201);
  const key = await owner.dash("POST", "/api/keys", { name: "CI", projectId: project.json.projectId });
  expect(key.status, key.text).toBe(201);
  const fileId = await uploadAdHoc(key.json);
  const group = await owner.dash("POST", `/api/workspaces/${owner.workspaceId}/groups`, { name: "QA" });
  expect(group.status, group.text).toBe(201);
  expect((await owner.dash("POST", `/api/groups/${group.json.groupId}/testers`, { emails: [TESTER] })).status).toBe(200);
  const sent = await owner.dash("POST", `/api/files/${fileId}/distribute`, { groups: [group.json.groupId], notify: false });
  expect(sent.status, sent.text).toBe(202);
}, 240_000);

afterAll(async () => {
  await Promise.all(sessions.map((s) => s.context.close()));
  doc?.destroy();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("Check this iPhone from the portal, with the share host apart", () => {
  it("comes back to the portal knowing the iPhone, through a hand-off that works once", async () => {
    const session = await openSession(publicBase, IPHONE);
    sessions.push(session);
    const { page, context, problems } = session;
    await context.addCookies([{ name: "hangar_tester", value: await testerSession(TESTER), url: publicBase, httpOnly: true, sameSite: "Lax" }]);

    // The portal on the dashboard's host asks, and the enroll flow starts on that host (its tester cookie says whose device).
    await page.goto("/apps");
    const check = page.getByRole("link", { name: "Check this iPhone" });
    await check.waitFor();
    const href = (await check.getAttribute("href"))!;
    expect(href).toBe(`${publicBase}/devices/enroll?return=%2Fapps`);
    const profile = await context.request.get(href);
    expect(profile.status(), await profile.text()).toBe(200);
    const payload = (plist.parse(await profile.text()) as { PayloadContent: { Challenge: string; URL: string } }).PayloadContent;
    // iOS answers on the share host and is sent to the result page there.
    expect(payload.URL).toBe(`${shareBase}/devices/enroll/callback`);
    const posted = await context.request.post(payload.URL, {
      headers: { "Content-Type": "application/pkcs7-signature" },
      data: deviceAnswer({ CHALLENGE: payload.Challenge, UDID, PRODUCT: "iPhone15,2", VERSION: "22B83", DEVICE_NAME: "Portal iPhone" }),
      maxRedirects: 0,
    });
    expect(posted.status()).toBe(301);
    const result = posted.headers()["location"]!;
    expect(result.startsWith(`${shareBase}/devices/enrolled/`)).toBe(true);

    await page.goto(result);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("Portal iPhone");
    const back = (await page.getByRole("link", { name: "Back to the build" }).getAttribute("href"))!;
    expect(back).toMatch(new RegExp(`^${publicBase.replace(/[.]/g, "\\.")}/apps#device=v1\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`));
    // Nothing of the device in the way back: no UDID, no name.
    expect(back).not.toContain(UDID);
    expect(Buffer.from(back.split(".")[1]!, "base64url").toString("utf8")).not.toContain(UDID);
    // The share host has the device cookie now, the portal's host not yet.
    const cookieOf = async (url: string) => (await context.cookies(url)).find((c) => c.name === "hangar_ios_device");
    expect(await cookieOf(shareBase)).toBeDefined();
    expect(await cookieOf(publicBase)).toBeUndefined();

    await page.getByRole("link", { name: "Back to the build" }).click();
    await eventually(() => page.url()).toBe(`${publicBase}/apps`);
    const verdict = page.getByRole("region", { name: "Portal app" }).locator(".device-verdict");
    await eventually(() => verdict.textContent()).toContain("This iPhone (Portal iPhone, iPhone 14 Pro) is in this build’s profile.");
    expect(await page.getByRole("link", { name: "Check this iPhone" }).count()).toBe(0);
    expect(await cookieOf(publicBase)).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    violations.push(...(await auditBothSchemes(page, SHOTS, "portal-after-handoff")));

    // The same hand-off again (a reload of the old address, a copied link): refused, nothing changes.
    const handoff = back.split("#device=")[1]!;
    const again = (await page.evaluate(
      `fetch("/api/tester/device", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ handoff: ${JSON.stringify(handoff)} }) }).then(async (r) => ({ status: r.status, body: await r.json() }))`,
    )) as { status: number; body: { error: { fields: { field: string }[] } } };
    expect(again.status).toBe(400);
    expect(again.body.error.fields[0]!.field).toBe("handoff");
    expect(problems).toEqual([]);
  });

  it("refuses a hand-off from another tester's session, and one posted from another site", async () => {
    // A second enrollment of the same tester, through the HTTP flow, to get a fresh hand-off.
    const cookie = `hangar_tester=${await testerSession(TESTER)}`;
    const profile = await fetch(`${publicBase}/devices/enroll?return=%2Fapps`, { headers: { Cookie: cookie } });
    expect(profile.status).toBe(200);
    const { PayloadContent } = plist.parse(await profile.text()) as { PayloadContent: { Challenge: string; URL: string } };
    const answer = await fetch(PayloadContent.URL, {
      method: "POST",
      headers: { "Content-Type": "application/pkcs7-signature" },
      body: deviceAnswer({ CHALLENGE: PayloadContent.Challenge, UDID: AD_HOC_DEVICES[2]!, PRODUCT: "iPhone13,2", VERSION: "22B83" }),
      redirect: "manual",
    });
    expect(answer.status).toBe(301);
    const page = await fetch(answer.headers.get("location")!, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    const refresh = page.headers.get("refresh")!;
    expect(refresh).toMatch(new RegExp(`^4; url=${publicBase.replace(/[.]/g, "\\.")}/apps#device=`));
    const handoff = refresh.split("#device=")[1]!;
    const redeem = (testerCookie: string, origin = publicBase) =>
      fetch(`${publicBase}/api/tester/device`, { method: "POST", headers: { Cookie: testerCookie, Origin: origin, "Content-Type": "application/json" }, body: JSON.stringify({ handoff }) });

    // Someone else's portal: refused, and the hand-off is not spent by it.
    const other = await redeem(`hangar_tester=${await testerSession(`other-${randomBytes(3).toString("hex")}@hangar.test`)}`);
    expect(other.status).toBe(400);
    expect(other.headers.getSetCookie()).toEqual([]);
    // From the share host's origin (a page there cannot post to the portal's host).
    expect((await redeem(cookie, shareBase)).status).toBe(403);
    // A tampered one.
    const tampered = await fetch(`${publicBase}/api/tester/device`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: publicBase, "Content-Type": "application/json" },
      body: JSON.stringify({ handoff: `${handoff.slice(0, -2)}AA` }),
    });
    expect(tampered.status).toBe(400);

    const mine = await redeem(cookie);
    expect(mine.status, await mine.text()).toBe(204);
    const set = mine.headers.getSetCookie().find((c) => c.startsWith("hangar_ios_device="))!;
    expect(set).toMatch(/; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Lax$/);
    expect((await redeem(cookie)).status).toBe(400);
  });

  it("has no serious axe findings, light or dark", () => {
    expect(violations).toEqual([]);
  });
});
