import { GetCommand } from "@aws-sdk/lib-dynamodb";
import plist from "plist";
import { beforeAll, describe, expect, it } from "vitest";
import { browser, dash, signedIn, type Browser } from "./support/accounts";
import { call, db, stack, type Key } from "./support/api";
import { expireLink, IOS_INSTALLER, newDashboardKey, newProject, uploadIpa, withoutLinkTraces } from "./support/dashboard";

const HTML = { Accept: "text/html" };

let owner: Browser;
let key: Key;
let projectId: string;
beforeAll(async () => {
  ({ b: owner } = await signedIn());
  ({ projectId } = await newProject(owner));
  key = await newDashboardKey(owner, projectId);
});

const settings = (b: Browser, fileId: string, body: unknown) => dash(b, "PATCH", `/api/files/${fileId}/share`, body);
const shareItem = async (userKey: string) =>
  (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `SHARE#${userKey}`, sk: "SHARE" }, ConsistentRead: true }))).Item;

/** Submits the page's password form as a browser does; returns the answer and the cookies it set. */
async function unlock(userKey: string, password: string, ip = "203.0.113.9") {
  const reply = await call(`/share/${userKey}`, {
    method: "POST",
    rawBody: new URLSearchParams({ password }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", "X-Hangar-Test-Client-Ip": ip },
  });
  return { reply, cookies: reply.headers.getSetCookie() };
}

describe("PATCH /api/files/{fileId}/share", () => {
  it("turns a link off and on: 410 page, download and manifest answer 410 without a signed URL", async () => {
    const file = await uploadIpa(key);
    const off = await settings(owner, file.fileId, { enabled: false });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toMatchObject({ enabled: false, state: "disabled", hasPassword: false, downloads: 0, installs: 0 });
    const pageReply = await call(`/share/${file.userKey}`, { headers: HTML });
    expect(pageReply.status).toBe(410);
    expect(pageReply.text).toContain("This link is turned off");
    for (const path of [`/download/${file.userKey}`, `/share/${file.userKey}/manifest.plist`]) {
      const reply = await call(path);
      expect(reply.status, path).toBe(410);
      expect(reply.headers.get("location")).toBeNull();
      expect(reply.json.error.code).toBe("link_disabled");
    }
    expect((await settings(owner, file.fileId, { enabled: true })).json.state).toBe("open");
    expect((await call(`/download/${file.userKey}`)).status).toBe(302);
  });

  it("refuses an expiry in the past with a 400 naming expiresAt, and keeps the link as it was", async () => {
    const file = await uploadIpa(key);
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    expect((await settings(owner, file.fileId, { expiresAt: soon })).json).toMatchObject({ expiresAt: soon, state: "open" });
    for (const past of ["2020-01-01T00:00:00Z", new Date(Date.now() - 60_000).toISOString()]) {
      const reply = await settings(owner, file.fileId, { expiresAt: past });
      expect(reply.status, past).toBe(400);
      expect(reply.json.error).toMatchObject({ code: "invalid_request", fields: [{ field: "expiresAt", message: expect.stringContaining("future") }] });
    }
    expect((await settings(owner, file.fileId, {})).json).toMatchObject({ expiresAt: soon, state: "open" });
  });

  it("expires a link at its expiry and clears it with null", async () => {
    const file = await uploadIpa(key);
    expect((await settings(owner, file.fileId, { expiresAt: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(200);
    // The day passes.
    await expireLink(file.userKey, "2020-01-01T00:00:00.000Z");
    expect((await settings(owner, file.fileId, {})).json).toMatchObject({ expiresAt: "2020-01-01T00:00:00.000Z", state: "expired" });
    const reply = await call(`/share/${file.userKey}`, { headers: HTML });
    expect(reply.status).toBe(410);
    expect(reply.text).toContain("This link has expired");
    expect((await settings(owner, file.fileId, { expiresAt: null })).json).toMatchObject({ expiresAt: null, state: "open" });
    expect((await call(`/share/${file.userKey}`, { headers: HTML })).status).toBe(200);
  });

  it("admits exactly maxDownloads downloads under concurrency, then 410 install limit reached", async () => {
    const file = await uploadIpa(key);
    expect((await settings(owner, file.fileId, { maxDownloads: 3 })).json.maxDownloads).toBe(3);
    const replies = await Promise.all(Array.from({ length: 10 }, () => call(`/download/${file.userKey}`)));
    expect(replies.filter((r) => r.status === 302)).toHaveLength(3);
    expect(replies.filter((r) => r.status === 410)).toHaveLength(7);
    expect(replies.filter((r) => r.status === 410).every((r) => r.headers.get("location") === null)).toBe(true);
    expect((await shareItem(file.userKey))!.downloads).toBe(3);
    const pageReply = await call(`/share/${file.userKey}`, { headers: HTML });
    expect(pageReply.status).toBe(410);
    expect(pageReply.text).toContain("Install limit reached");
    const view = await settings(owner, file.fileId, {});
    expect(view.json).toMatchObject({ downloads: 3, state: "capped" });
    expect(view.json.daily).toHaveLength(30);
    expect(view.json.daily.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), downloads: 3 });
  });

  it("refuses bad values with field messages and another account's file with 404", async () => {
    const file = await uploadIpa(key);
    const bad = await settings(owner, file.fileId, { enabled: "yes", maxDownloads: 0, expiresAt: "tomorrow", password: "abc" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields.map((f: { field: string }) => f.field).sort()).toEqual(["enabled", "expiresAt", "maxDownloads", "password"]);
    const { b: stranger } = await signedIn();
    expect((await settings(stranger, file.fileId, { enabled: false })).status).toBe(404);
    expect((await dash(stranger, "POST", `/api/files/${file.fileId}/share/regenerate`)).status).toBe(404);
    expect((await settings(browser(), file.fileId, { enabled: false })).status).toBe(401);
  });
});

describe("password-protected links", () => {
  it("shows nothing of the build until the password is given; download and manifest answer 401", async () => {
    const file = await uploadIpa(key, "Secret.ipa");
    const set = await settings(owner, file.fileId, { password: "open sesame" });
    expect(set.json.hasPassword).toBe(true);
    expect(JSON.stringify(set.json)).not.toContain("open sesame");
    expect((await shareItem(file.userKey))!.passwordHash).toMatch(/^\$?scrypt/);

    const locked = await call(`/share/${file.userKey}`, { headers: HTML });
    expect(locked.status).toBe(401);
    expect(locked.text).toContain("This build is protected");
    expect(locked.text).not.toContain("Demo App");
    expect(locked.text).not.toContain("og:image");
    for (const path of [`/download/${file.userKey}`, `/share/${file.userKey}/manifest.plist`, `/share/${file.userKey}/icon.png`]) {
      const reply = await call(path);
      expect(reply.status, path).toBe(401);
      expect(reply.headers.get("location")).toBeNull();
    }

    const wrong = await unlock(file.userKey, "guess");
    expect(wrong.reply.status).toBe(401);
    expect(wrong.reply.text).toContain("That password is not right");
    expect(wrong.cookies).toEqual([]);

    const right = await unlock(file.userKey, "open sesame");
    expect(right.reply.status).toBe(303);
    expect(right.reply.headers.get("location")).toBe(`/share/${file.userKey}`);
    expect(right.cookies).toHaveLength(2);
    for (const cookie of right.cookies) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/Max-Age=43200/);
    }
    expect(right.cookies.map((c) => /Path=([^;]+)/.exec(c)![1]).sort()).toEqual([`/download/${file.userKey}`, `/share/${file.userKey}`]);
    const cookie = right.cookies[0]!.split(";")[0]!;

    const open = await call(`/share/${file.userKey}`, { headers: { ...HTML, Cookie: cookie, "User-Agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)" } });
    expect(open.status).toBe(200);
    expect(open.text).toContain("Demo App");
    // iOS fetches the manifest and the package without the browser's cookies: the URLs carry a token.
    const install = /href="(itms-services:[^"]+)"/.exec(open.text)![1]!.replace(/&amp;/g, "&");
    const manifestUrl = decodeURIComponent(install.split("&url=")[1]!);
    expect(manifestUrl).toMatch(new RegExp(`^${stack().baseUrl}/share/${file.userKey}/manifest\\.plist\\?t=`));
    const manifest = await fetch(manifestUrl);
    expect(manifest.status).toBe(200);
    const parsed = plist.parse(await manifest.text()) as any;
    const packageUrl: string = parsed.items[0].assets[0].url;
    expect(packageUrl).toMatch(/\/download\/\w+\?t=/);
    expect((await fetch(packageUrl, { redirect: "manual" })).status).toBe(302);
    // A forged token opens nothing.
    expect((await call(`/download/${file.userKey}?t=99999999999.${"A".repeat(43)}`)).status).toBe(401);

    // A new password voids the old cookie at once.
    await settings(owner, file.fileId, { password: "another secret" });
    expect((await call(`/share/${file.userKey}`, { headers: { ...HTML, Cookie: cookie } })).status).toBe(401);
    await settings(owner, file.fileId, { password: null });
    expect((await call(`/share/${file.userKey}`, { headers: HTML })).status).toBe(200);
  });

  // Until issue 17 (M3) ten wrong answers from anyone locked the link for every address.
  it("rate-limits wrong answers per link and client (429 with Retry-After); the right password from another address still opens", async () => {
    const file = await uploadIpa(key, "Guessed.ipa");
    await settings(owner, file.fileId, { password: "right answer" });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await unlock(file.userKey, `wrong ${i}`, "198.18.0.1")).reply.status);
    expect(statuses).toEqual(Array(10).fill(401));
    const limited = await unlock(file.userKey, "right answer", "198.18.0.1");
    expect(limited.reply.status).toBe(429);
    expect(Number(limited.reply.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.cookies).toEqual([]);

    const tester = await unlock(file.userKey, "right answer", "198.18.1.1");
    expect(tester.reply.status).toBe(303);
    expect(tester.cookies).toHaveLength(2);
    const page = await call(`/share/${file.userKey}`, { headers: { ...HTML, Cookie: tester.cookies[0]!.split(";")[0]! } });
    expect(page.status).toBe(200);
  });
});

describe("POST /api/files/{fileId}/share/regenerate", () => {
  it("gives a new key; the old link is dead at once (410, replaced) and the counts and settings move along", async () => {
    const file = await uploadIpa(key);
    await settings(owner, file.fileId, { maxDownloads: 50 });
    expect((await call(`/download/${file.userKey}`)).status).toBe(302);
    const reply = await dash(owner, "POST", `/api/files/${file.fileId}/share/regenerate`);
    expect(reply.status, reply.text).toBe(200);
    const { userKey, shareUrl } = reply.json;
    expect(userKey).not.toBe(file.userKey);
    expect(shareUrl).toBe(`${stack().baseUrl}/share/${userKey}`);
    const old = await call(`/share/${file.userKey}`, { headers: HTML });
    expect(old.status).toBe(410);
    expect(old.text).toContain("This link was replaced");
    const oldDownload = await call(`/download/${file.userKey}`);
    expect(oldDownload.status).toBe(410);
    expect(oldDownload.json.error.code).toBe("link_replaced");
    expect(oldDownload.headers.get("location")).toBeNull();
    expect((await call(`/share/${file.userKey}/manifest.plist`)).status).toBe(410);
    expect((await call(`/share/${userKey}`, { headers: HTML })).status).toBe(200);
    const view = await settings(owner, file.fileId, {});
    expect(view.json).toMatchObject({ userKey, downloads: 1, maxDownloads: 50 });
    // The old key keeps only its trace: no build, no settings, no counts; it expires by TTL.
    expect(withoutLinkTraces([(await shareItem(file.userKey))!])).toEqual([]);
  });
});

describe("GET /api/files/{fileId} and DELETE", () => {
  it("carries the link's settings (never the password) and its counts", async () => {
    const file = await uploadIpa(key);
    await settings(owner, file.fileId, { password: "kept secret", maxDownloads: 9 });
    await call(`/share/${file.userKey}/manifest.plist`, { headers: { Cookie: "x=y" } }); // 401: not an install
    await settings(owner, file.fileId, { password: null });
    await Promise.all([call(`/download/${file.userKey}`), call(`/download/${file.userKey}`), call(`/share/${file.userKey}/manifest.plist`, { headers: IOS_INSTALLER })]);
    const detail = await dash(owner, "GET", `/api/files/${file.fileId}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.json.share).toMatchObject({ userKey: file.userKey, enabled: true, hasPassword: false, maxDownloads: 9, downloads: 2, installs: 1, state: "open" });
    expect(JSON.stringify(detail.json)).not.toMatch(/passwordHash|tokenSecret|kept secret/);
  });

  it("carries the release notes and CI context complete was given, and nulls without them", async () => {
    const context = { releaseNotes: "Fixes login.\n<b>Bold</b> & more", branch: "release/2.0", commit: "0123456789abcdef0123456789abcdef01234567", ciUrl: "https://ci.example.test/runs/7" };
    const withNotes = await uploadIpa(key, "Notes.ipa", context);
    const detail = await dash(owner, "GET", `/api/files/${withNotes.fileId}`);
    expect(detail.json).toMatchObject(context);
    const plain = await uploadIpa(key, "Plain.ipa");
    expect((await dash(owner, "GET", `/api/files/${plain.fileId}`)).json).toMatchObject({ releaseNotes: null, branch: null, commit: null, ciUrl: null });
  });

  it("the project's file list and the dashboard home show each build's link state and counts", async () => {
    const counted = await uploadIpa(key);
    const off = await uploadIpa(key);
    await Promise.all([
      call(`/download/${counted.userKey}`),
      call(`/download/${counted.userKey}`),
      call(`/download/${counted.userKey}`),
      call(`/share/${counted.userKey}/manifest.plist`, { headers: IOS_INSTALLER }),
      call(`/share/${counted.userKey}/manifest.plist`, { headers: { "User-Agent": "curl/8.5.0" } }),
      call(`/download/${counted.userKey}`, { headers: { "User-Agent": "Slackbot-LinkExpanding 1.0" } }),
    ]);
    await settings(owner, off.fileId, { enabled: false, password: "for testers only" });
    const list = await dash(owner, "GET", `/api/projects/${projectId}/files?limit=100`);
    expect(list.status, list.text).toBe(200);
    const row = (id: string) => list.json.items.find((f: { fileId: string }) => f.fileId === id)?.share;
    expect(row(counted.fileId)).toEqual({ state: "open", hasPassword: false, downloads: 3, installs: 1 });
    expect(row(off.fileId)).toEqual({ state: "disabled", hasPassword: true, downloads: 0, installs: 0 });
    expect(JSON.stringify(list.json)).not.toMatch(/passwordHash|tokenSecret|for testers only/);
    const home = await dash(owner, "GET", "/api/files");
    expect(home.json.items.find((f: { fileId: string }) => f.fileId === counted.fileId)?.share).toMatchObject({ downloads: 3, installs: 1 });
  });

  it("a deleted build's link answers 410 with a page that says it was removed, and nothing of it counts", async () => {
    const file = await uploadIpa(key);
    expect((await dash(owner, "DELETE", `/api/files/${file.fileId}`)).status).toBe(204);
    const reply = await call(`/share/${file.userKey}`, { headers: HTML });
    expect(reply.status).toBe(410);
    expect(reply.text).toContain("This build was removed");
    const download = await call(`/download/${file.userKey}`);
    expect(download.status).toBe(410);
    expect(download.json.error.code).toBe("file_removed");
    for (const path of ["manifest.plist", "qr.svg", "icon.png"]) expect((await call(`/share/${file.userKey}/${path}`)).status, path).toBe(410);
    // Nothing was counted onto the trace, and it holds nothing of the build.
    expect(withoutLinkTraces([(await shareItem(file.userKey))!])).toEqual([]);
    // A key that was never handed out stays a 404.
    expect((await call(`/share/Zz${file.userKey.slice(2)}`)).status).toBe(404);
  });
});
