import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import plist from "plist";
import { beforeAll, describe, expect, it } from "vitest";
import { dash, signedIn, type Browser } from "./support/accounts";
import { call, db, readFixture, stack, upload, type Key } from "./support/api";
import { IOS_INSTALLER, newDashboardKey, newProject, uploadIpa } from "./support/dashboard";
import { fixtures } from "./support/fixtures";

/*
 * Issue 20, item 7: one stable page per app (docs/testers.md, "The app page and the update check").
 * The owner publishes the project's page; testers open it on a phone, a desktop or a link preview;
 * turning it off or giving it a new address kills the old one; a password works as on share links;
 * an old share page points at the newer build of the same app.
 */

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const PIXEL = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const APK = () => fixtures("apk").find((f) => f.endsWith("aapt2-literal.apk"))!;

let owner: Browser;
let key: Key;
let projectId: string;
let workspaceId: string;
let oldIpa: { fileId: string; userKey: string };
let newIpa: { fileId: string; userKey: string };
let apk: { fileId: string; userKey: string };
const earlier: { fileId: string; userKey: string }[] = [];

const visitor = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
const page = (path: string, ua = DESKTOP, extra: Record<string, string> = {}) =>
  call(path, { headers: { Accept: "text/html", "User-Agent": ua, "X-Hangar-Test-Client-Ip": visitor(), ...extra } });
const settings = (body?: unknown) => dash(owner, body === undefined ? "GET" : "PUT", `/api/projects/${projectId}/app-page`, body);
const pathOf = (url: string) => new URL(url).pathname;

/** Sets what extraction found for a build's number, on its file record and its share item (metadata is stored as JSON), as a new build would carry. */
async function setBuildNumber(build: { fileId: string; userKey: string }, buildNumber: string): Promise<void> {
  for (const Key of [{ pk: `FILE#${build.fileId}`, sk: "FILE" }, { pk: `SHARE#${build.userKey}`, sk: "SHARE" }]) {
    const item = (await db().send(new GetCommand({ TableName: stack().tableName, Key, ConsistentRead: true }))).Item!;
    const metadata = { ...JSON.parse(item.metadata as string), buildNumber };
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key,
        UpdateExpression: "SET metadata = :m",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeValues: { ":m": JSON.stringify(metadata) },
      }),
    );
  }
}

beforeAll(async () => {
  ({ b: owner } = await signedIn());
  const project = await newProject(owner, `Demo Beta ${Math.random().toString(36).slice(2, 6)}`);
  projectId = project.projectId;
  workspaceId = (project as unknown as { workspaceId: string }).workspaceId;
  key = await newDashboardKey(owner, projectId);
  for (let i = 0; i < 3; i++) earlier.push(await uploadIpa(key, `Old-${i}.ipa`));
  oldIpa = await uploadIpa(key, "App-141.ipa", { releaseNotes: "The old build" });
  await setBuildNumber(oldIpa, "141");
  const { completed } = await upload(key, "app-release.apk", readFixture(APK()), { releaseNotes: "Android notes <b>bold</b>" });
  expect(completed.status, completed.text).toBe(200);
  apk = completed.json;
  newIpa = await uploadIpa(key, "App-142.ipa", { releaseNotes: "Fixes the login crash\nand the dark mode" });
});

describe("the app page's settings", () => {
  it("is off until published; publishing gives a readable, unguessable address on the share host and logs it", async () => {
    expect((await settings()).json).toEqual({ enabled: false, url: null, passwordProtected: false });
    const on = await settings({ enabled: true });
    expect(on.status, on.text).toBe(200);
    expect(on.json).toMatchObject({ enabled: true, passwordProtected: false });
    // A readable prefix from the project's name, then 12 base62 characters (≈ 71 bits).
    expect(on.json.url).toMatch(new RegExp(`^${stack().baseUrl}/apps/demo-beta-[a-z0-9]+-[A-Za-z0-9]{12}$`));
    expect((await settings()).json).toEqual(on.json);
    const audit = await dash(owner, "GET", `/api/workspaces/${workspaceId}/audit?action=project.app_page_update`);
    expect(audit.status, audit.text).toBe(200);
    expect(audit.json.items[0]).toMatchObject({ action: "project.app_page_update", target: { type: "project", id: projectId }, details: { enabled: true, created: true } });
    expect(JSON.stringify(audit.json)).not.toContain(pathOf(on.json.url).split("/").pop());
  });

  it("refuses bad bodies with 400 and other people's projects with 404", async () => {
    for (const body of [{}, { enabled: "yes" }, { enabled: true, password: "abc" }, { enabled: true, extra: 1 }, { enabled: true, regenerate: "no" }]) {
      const reply = await settings(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    const { b: stranger } = await signedIn();
    for (const method of ["GET", "PUT"]) {
      const reply = await dash(stranger, method, `/api/projects/${projectId}/app-page`, method === "PUT" ? { enabled: false } : undefined);
      expect(reply.status, method).toBe(404);
      expect(reply.json.error.code).toBe("project_not_found");
    }
  });
});

describe("the page", () => {
  let url: string;
  beforeAll(async () => {
    url = (await settings({ enabled: true })).json.url;
  });

  it("shows the latest build per platform with its notes, and the earlier builds below, on a desktop", async () => {
    const reply = await page(pathOf(url));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(reply.headers.get("x-robots-tag")).toContain("noindex");
    const html = reply.text;
    expect(html).toContain("Demo App for iPhone and iPad");
    expect(html).toContain("for Android");
    expect(html).toContain("Fixes the login crash\nand the dark mode");
    // Escaped, never markup.
    expect(html).toContain("Android notes &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("Earlier builds");
    // The latest iOS build's buttons name its own files under the page; the earlier ones each have theirs.
    const base = `${stack().baseUrl}/apps/${pathOf(url).split("/").pop()}`;
    expect(html).toContain(`href="${base}/files/${newIpa.fileId}/download"`);
    expect(html).toContain(`href="${base}/files/${apk.fileId}/download"`);
    for (const b of [oldIpa, ...earlier]) expect(html).toContain(`${base}/files/${b.fileId}/`);
    expect(html).toContain("1.4.2 (141)");
    // A desktop gets the page's QR code.
    expect(html).toMatch(/<svg role="img" aria-label="QR code of this page/);
  });

  it("offers Install (the manifest) on an iPhone and the APK on Android", async () => {
    const iphone = await page(pathOf(url), IPHONE);
    const install = /href="(itms-services:[^"]+)"/.exec(iphone.text)?.[1];
    expect(install).toBeDefined();
    const manifestUrl = new URL(decodeURIComponent(install!.replace(/&amp;/g, "&").split("url=")[1]!));
    expect(manifestUrl.pathname).toBe(`${pathOf(url)}/files/${newIpa.fileId}/manifest.plist`);
    const manifest = await call(manifestUrl.pathname, { headers: IOS_INSTALLER });
    expect(manifest.status, manifest.text).toBe(200);
    const parsed = plist.parse(manifest.text) as { items: { assets: { kind: string; url: string }[] }[] };
    const pkg = parsed.items[0]!.assets.find((a) => a.kind === "software-package")!;
    expect(new URL(pkg.url).pathname).toBe(`${pathOf(url)}/files/${newIpa.fileId}/download`);
    const android = await page(pathOf(url), PIXEL);
    expect(android.text).toMatch(new RegExp(`class="button primary" href="[^"]+/files/${apk.fileId}/download" download>Download APK<`));
  });

  it("downloads a build of the project (counted on the build, even with its share link off) and nothing else", async () => {
    const off = await dash(owner, "PATCH", `/api/files/${apk.fileId}/share`, { enabled: false, maxDownloads: 1 });
    expect(off.status, off.text).toBe(200);
    for (let i = 0; i < 2; i++) {
      const reply = await call(`${pathOf(url)}/files/${apk.fileId}/download`, { headers: { "X-Hangar-Test-Client-Ip": visitor() } });
      expect(reply.status, reply.text).toBe(302);
    }
    const after = (await dash(owner, "GET", `/api/files/${apk.fileId}`)).json;
    // Both counted on the build, past its link's cap of 1 and its switch.
    expect(after.share).toMatchObject({ downloads: 2, enabled: false, maxDownloads: 1 });
    expect((await dash(owner, "PATCH", `/api/files/${apk.fileId}/share`, { enabled: true, maxDownloads: null })).status).toBe(200);
    // A build of another project, a made-up id: 404, never the package.
    const other = await uploadIpa(await newDashboardKey(owner, (await newProject(owner)).projectId));
    for (const fileId of [other.fileId, "fil_doesnotexist", "x".repeat(80)]) {
      for (const leaf of ["download", "manifest.plist", "icon.png"]) {
        const reply = await call(`${pathOf(url)}/files/${fileId}/${leaf}`);
        expect(reply.status, `${fileId}/${leaf}`).toBe(404);
        expect(reply.headers.get("location")).toBeNull();
      }
    }
  });

  it("answers the same 404 page for an unknown address, a turned-off page and a replaced address", async () => {
    const unknown = await page("/apps/demo-beta-AAAAAAAAAAAA");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("No app at this address");
    const off = await settings({ enabled: false });
    expect(off.json).toEqual({ enabled: false, url: null, passwordProtected: false });
    const offPage = await page(pathOf(url));
    expect(offPage.status).toBe(404);
    expect(offPage.text).toBe(unknown.text);
    // Back on: the same address again (only regenerate changes it).
    expect((await settings({ enabled: true })).json.url).toBe(url);
    const moved = await settings({ enabled: true, regenerate: true });
    expect(moved.json.url).not.toBe(url);
    const old = await page(pathOf(url));
    expect(old.status).toBe(404);
    expect(old.text).toBe(unknown.text);
    expect((await call(`${pathOf(url)}/files/${newIpa.fileId}/download`)).status).toBe(404);
    expect((await page(pathOf(moved.json.url))).status).toBe(200);
    url = moved.json.url;
    // JSON for programs.
    const json = await call(pathOf(`${stack().baseUrl}/apps/nothing-here-AAAAAAAAAAAA`));
    expect(json.json.error.code).toBe("app_page_not_found");
  });

  it("with a password: the form, a wrong answer, then the page, its files by cookie and iOS's by ?t=", async () => {
    const on = await settings({ enabled: true, password: "open sesame" });
    expect(on.json).toMatchObject({ enabled: true, passwordProtected: true, url });
    const path = pathOf(url);
    const locked = await page(path);
    expect(locked.status).toBe(401);
    expect(locked.text).toContain(`action="${path}"`);
    expect(locked.text).not.toContain("Demo App");
    expect((await call(`${path}/files/${newIpa.fileId}/download`)).status).toBe(401);
    const form = (password: string) =>
      call(path, { method: "POST", rawBody: new URLSearchParams({ password }).toString(), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", "X-Hangar-Test-Client-Ip": "203.0.113.77" } });
    const wrong = await form("open sesame?");
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("That password is not right");
    const right = await form("open sesame");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(path);
    const cookies = right.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(new RegExp(`^hangar_link=[^;]+; Path=${path}; Max-Age=\\d+; HttpOnly; SameSite=Lax`));
    const cookie = cookies[0]!.split(";")[0]!;
    const open = await page(path, IPHONE, { Cookie: cookie });
    expect(open.status).toBe(200);
    expect((await call(`${path}/files/${apk.fileId}/download`, { headers: { Cookie: cookie } })).status).toBe(302);
    const install = /href="(itms-services:[^"]+)"/.exec(open.text)![1]!;
    const manifestUrl = new URL(decodeURIComponent(install.replace(/&amp;/g, "&").split("url=")[1]!));
    expect(manifestUrl.searchParams.get("t")).toBeTruthy();
    const manifest = await call(`${manifestUrl.pathname}${manifestUrl.search}`, { headers: IOS_INSTALLER });
    expect(manifest.status).toBe(200);
    // Removing the password opens the page; a new password voids the old cookie.
    expect((await settings({ enabled: true, password: "another one" })).json.passwordProtected).toBe(true);
    expect((await page(path, DESKTOP, { Cookie: cookie })).status).toBe(401);
    expect((await settings({ enabled: true, password: null })).json.passwordProtected).toBe(false);
    expect((await page(path)).status).toBe(200);
  });

  it("never answers 5xx to hostile addresses", async () => {
    const hostile = [
      "/apps/%ff",
      "/apps/..%2f..%2fetc",
      `/apps/${"a".repeat(200)}`,
      "/apps/<script>alert(1)<%2fscript>",
      "/apps/demo-beta-AAAAAAAAAAA%00",
      `/apps/${encodeURIComponent("🚀".repeat(20))}`,
      "/apps/demo-beta-AAAAAAAAAAAA/files/%ff/download",
      `/apps/demo-beta-AAAAAAAAAAAA/files/${"f".repeat(300)}/manifest.plist`,
      `${pathOf(url)}/files/fil_%27%22/icon.png`,
    ];
    for (const path of hostile) {
      for (const method of ["GET", "HEAD", "POST"]) {
        const reply = await call(path, { method, headers: { Accept: "text/html", "X-Hangar-Test-Client-Ip": visitor() }, ...(method === "POST" ? { rawBody: "password=x" } : {}) });
        expect(reply.status, `${method} ${path}`).toBeLessThan(500);
        expect(reply.text).not.toContain("<script>alert");
      }
    }
  });
});

describe("an old share page", () => {
  it("says a newer build of the same app is available and links to its share page; the newest says nothing", async () => {
    const old = await page(`/share/${oldIpa.userKey}`);
    expect(old.status, old.text).toBe(200);
    expect(old.text).toContain(`A newer build is available: <a href="${stack().baseUrl}/share/${newIpa.userKey}">1.4.2 (142)</a>`);
    const newest = await page(`/share/${newIpa.userKey}`);
    expect(newest.text).not.toContain("A newer build is available");
    // Another app of the project (the APK) is not "newer" for an iOS build, nor the other way round.
    const android = await page(`/share/${apk.userKey}`);
    expect(android.text).not.toContain("A newer build is available");
    // The same version and build uploaded again is not newer.
    const same = await page(`/share/${earlier[0]!.userKey}`);
    expect(same.text).not.toContain("A newer build is available");
  });
});

describe("the table", () => {
  it("keeps the page's settings on the project and one lookup item per live address", async () => {
    const out = await db().send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: "pk = :pk AND sk = :sk",
        ExpressionAttributeValues: { ":pk": `WORKSPACE#${workspaceId}`, ":sk": `PROJECT#${projectId}` },
        ConsistentRead: true,
      }),
    );
    const project = out.Items![0]!;
    expect(project.appPage).toMatchObject({ enabled: true, slug: expect.any(String), tokenSecret: expect.any(String) });
    // Nothing of the page in the dashboard's project answer but what the settings route says.
    const shown = await dash(owner, "GET", `/api/projects/${projectId}`);
    expect(JSON.stringify(shown.json)).not.toContain(project.appPage.tokenSecret);
  });
});
