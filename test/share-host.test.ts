import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoProjectCatalog, DynamoStageSecret, keys } from "@hangar/core/dynamo";
import { INSTALL_LINK_SECRET, installLinkHash, installLinkToken } from "@hangar/core/testers";
import { DynamoAppPages, newSlug } from "@hangar/core/app-pages";
import { ScryptPasswordHasher } from "@hangar/core/accounts";
import { DynamoShareLinks } from "@hangar/core/links-dynamo";
import { newTokenSecret } from "@hangar/core/links";
import { freeBasePort, mintApiKey } from "@hangar/local";
import jsQR from "jsqr";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import plist from "plist";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaType, readFixture } from "./support/api";
import { ipaPath } from "./support/dashboard";
import { startStackProcess, type StackProcess } from "./support/local-stack-process";

/**
 * HANGAR_SHARE_BASE_URL on another host than the public URL: a second local stack whose share
 * base is `http://localhost:<port>` while its public URL is `http://127.0.0.1:<port>` (two hosts
 * to a browser: cookies of one are never sent to the other). Every link the share page and the
 * manifest hand out must stay on the share host, or the link-password cookie set there would not
 * come along.
 */
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const PASSWORD = "open sesame, share host";

let stack: StackProcess;
let dataDir: string;
let publicBase: string;
let shareBase: string;
let doc: DynamoDBDocumentClient;
let done: { fileId: string; userKey: string; shareUrl: string; downloadUrl: string };

const hrefs = (html: string) =>
  [...html.matchAll(/<a class="button (?:primary|secondary)" href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => ({ href: m[1]!.replace(/&amp;/g, "&"), label: m[2] }));

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers, redirect: "manual" });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

beforeAll(async () => {
  const port = await freeBasePort("127.0.0.1");
  publicBase = `http://127.0.0.1:${port}`;
  shareBase = `http://localhost:${port}`;
  dataDir = mkdtempSync(join(tmpdir(), "hangar-share-host-"));
  stack = await startStackProcess(dataDir, { PORT: String(port), HANGAR_DYNAMODB_IN_MEMORY: "1", HANGAR_SHARE_BASE_URL: shareBase });
  const info = stack.info;
  expect(info.baseUrl).toBe(publicBase);
  doc = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: info.dynamoEndpoint, region: info.region, credentials: info.credentials }));
  const key = await mintApiKey(doc, info.tableName, { email: "share-host@hangar.test", projectName: "Share host" });

  const bytes = readFixture(ipaPath());
  const declared = { fileName: "Host.ipa", fileSize: bytes.length, fileType: mediaType("Host.ipa") };
  const auth = { "X-Client-ID": key.clientId, Authorization: `Bearer ${key.clientSecret}`, "Content-Type": "application/json" };
  const presigned = (await (await fetch(`${publicBase}/api/upload/api-key/presign`, { method: "POST", headers: auth, body: JSON.stringify(declared) })).json()) as {
    key: string;
    uploadUrl: string;
  };
  const put = await fetch(presigned.uploadUrl, { method: "PUT", headers: { "Content-Type": "application/octet-stream" }, body: bytes });
  expect(put.status).toBe(200);
  const completed = await fetch(`${publicBase}/api/upload/api-key/complete`, { method: "POST", headers: auth, body: JSON.stringify({ ...declared, key: presigned.key }) });
  expect(completed.status).toBe(200);
  done = (await completed.json()) as typeof done;

  // A link password, as PATCH /api/files/{id}/share sets it (hash and token secret).
  const links = new DynamoShareLinks(doc, info.tableName);
  expect(await links.update(done.userKey, { password: { hash: await new ScryptPasswordHasher().hash(PASSWORD), tokenSecret: newTokenSecret() } })).toBe(true);
}, 240_000);

afterAll(async () => {
  doc?.destroy();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a share host apart from the public URL", () => {
  it("complete answers the share link on the share host and the download link on the public URL (the spec's fields)", () => {
    expect(done.shareUrl).toBe(`${shareBase}/share/${done.userKey}`);
    expect(done.downloadUrl).toBe(`${publicBase}/download/${done.userKey}`);
  });

  it("the share host is served as itself, not redirected to the public URL", async () => {
    const reply = await get(done.shareUrl, { Accept: "text/html", "User-Agent": DESKTOP });
    expect(reply.status).toBe(401); // the password form, on the share host
    expect(reply.text).toContain('name="password"');
  });

  it("with the password cookie from the share host, every link of the page, the QR code and the manifest stay on the share host", async () => {
    const unlocked = await fetch(done.shareUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: PASSWORD }).toString(),
      redirect: "manual",
    });
    expect(unlocked.status).toBe(303);
    const cookies = unlocked.headers.getSetCookie();
    expect(cookies.map((c) => /Path=([^;]+)/.exec(c)?.[1])).toEqual([`/share/${done.userKey}`, `/download/${done.userKey}`]);
    // Host-only cookies (no Domain attribute): a browser sends them to the share host alone.
    expect(cookies.every((c) => !/Domain=/i.test(c))).toBe(true);
    const cookie = cookies.map((c) => c.split(";")[0]).join("; ");

    const desktop = await get(done.shareUrl, { Accept: "text/html", "User-Agent": DESKTOP, Cookie: cookie });
    expect(desktop.status).toBe(200);
    const links = hrefs(desktop.text);
    expect(links.map((l) => l.label)).toEqual(["Install on iPhone or iPad", "Download IPA"]);
    expect(links[1]!.href).toBe(`${shareBase}/download/${done.userKey}`);
    const manifestUrl = new URL(decodeURIComponent(links[0]!.href.split("&url=")[1]!));
    expect(manifestUrl.origin).toBe(shareBase);
    expect(manifestUrl.pathname).toBe(`/share/${done.userKey}/manifest.plist`);

    // The download link works with the cookie the share host set, on that host.
    const download = await get(links[1]!.href, { Cookie: cookie, "User-Agent": DESKTOP });
    expect(download.status).toBe(302);

    const iphone = await get(done.shareUrl, { Accept: "text/html", "User-Agent": IPHONE, Cookie: cookie });
    const install = hrefs(iphone.text)[0]!;
    expect(install.label).toBe("Install");
    // iOS fetches the manifest and the package without cookies: the ?t= token opens them, on the share host.
    const manifest = await get(decodeURIComponent(install.href.split("&url=")[1]!), { "User-Agent": IPHONE });
    expect(manifest.status).toBe(200);
    const parsed = plist.parse(manifest.text) as { items: { assets: { kind: string; url: string }[] }[] };
    for (const asset of parsed.items[0]!.assets) expect(new URL(asset.url).origin).toBe(shareBase);
    const pkg = parsed.items[0]!.assets.find((a) => a.kind === "software-package")!;
    expect(new URL(pkg.url).pathname).toBe(`/download/${done.userKey}`);
    expect((await get(pkg.url, { "User-Agent": IPHONE })).status).toBe(302);

    // The QR code on the page encodes the share host's link.
    expect(decodeQr(/<svg role="img" aria-label="QR code[\s\S]*?<\/svg>/.exec(desktop.text)![0])).toBe(done.shareUrl);
  });

  it("the QR codes (CI's qr.svg and the page's) encode the share host's link", async () => {
    const svg = await get(`${shareBase}/share/${done.userKey}/qr.svg`);
    expect(svg.status).toBe(200);
    expect(decodeQr(svg.text)).toBe(done.shareUrl);
  });

  it("a tester's personal install link (docs/testers.md) is served on the share host, and everything it hands out stays there", async () => {
    // The installLink item a distribution writes for one tester (contract of issue 20).
    const email = "tester@share-host.hangar.test";
    const secret = await new DynamoStageSecret(doc, stack.info.tableName, INSTALL_LINK_SECRET).bytes();
    const token = installLinkToken(secret, done.fileId, email);
    const item = { email, fileId: done.fileId, projectId: "prj_sharehost", workspaceId: "ws_sharehost", createdAt: new Date().toISOString() };
    await doc.send(new PutCommand({ TableName: stack.info.tableName, Item: { ...keys.installLink(installLinkHash(token)), type: "installLink", ...item } }));
    const personal = `${shareBase}/install/${token}`;

    // The share link's password does not apply: the page opens, without a cookie, on the share host.
    const iphone = await get(personal, { Accept: "text/html", "User-Agent": IPHONE });
    expect(iphone.status).toBe(200);
    const [install, download] = hrefs(iphone.text);
    expect(decodeURIComponent(install!.href.split("&url=")[1]!)).toBe(`${personal}/manifest.plist`);
    expect(download!.href).toBe(`${personal}/download`);
    // A desktop gets the QR code: it opens the same personal page on the phone.
    const desktop = await get(personal, { Accept: "text/html", "User-Agent": DESKTOP });
    expect(decodeQr(/<svg role="img" aria-label="QR code[\s\S]*?<\/svg>/.exec(desktop.text)![0])).toBe(personal);
    const manifest = await get(`${personal}/manifest.plist`, { "User-Agent": IPHONE });
    const parsed = plist.parse(manifest.text) as { items: { assets: { kind: string; url: string }[] }[] };
    for (const asset of parsed.items[0]!.assets) expect(new URL(asset.url).origin).toBe(shareBase);
    expect((await get(`${personal}/download`, { "User-Agent": IPHONE })).status).toBe(302);
  });
});

describe("an app page on the share host (issue 20)", () => {
  it("is served there with its password; every link of the page and its manifest stays on the share host", async () => {
    // Published as PUT /api/projects/{id}/app-page does it: the settings on the project, the slug's lookup item.
    const info = stack.info;
    const file = (await doc.send(new GetCommand({ TableName: info.tableName, Key: { pk: `FILE#${done.fileId}`, sk: "FILE" } }))).Item!;
    const project = (await new DynamoProjectCatalog(doc, info.tableName).find(file.projectId as string))!;
    const slug = newSlug(project.name);
    const pages = new DynamoAppPages(doc, info.tableName);
    const state = { enabled: true, slug, passwordHash: await new ScryptPasswordHasher().hash(PASSWORD), tokenSecret: newTokenSecret() };
    expect(await pages.save(project, state, undefined)).toBe(true);
    const pageUrl = `${shareBase}/apps/${slug}`;

    expect((await get(pageUrl, { Accept: "text/html", "User-Agent": DESKTOP })).status).toBe(401);
    const unlocked = await fetch(pageUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
      body: new URLSearchParams({ password: PASSWORD }).toString(),
      redirect: "manual",
    });
    expect(unlocked.status).toBe(303);
    const cookies = unlocked.headers.getSetCookie();
    expect(cookies.map((c) => /Path=([^;]+)/.exec(c)?.[1])).toEqual([`/apps/${slug}`]);
    expect(cookies[0]).not.toMatch(/Domain=/i);
    const cookie = cookies[0]!.split(";")[0]!;

    const iphone = await get(pageUrl, { Accept: "text/html", "User-Agent": IPHONE, Cookie: cookie });
    expect(iphone.status).toBe(200);
    const links = hrefs(iphone.text);
    expect(links.length).toBeGreaterThan(0);
    const install = links.find((l) => l.href.startsWith("itms-services:"))!;
    const manifestUrl = new URL(decodeURIComponent(install.href.split("url=")[1]!));
    expect(manifestUrl.origin).toBe(shareBase);
    expect(manifestUrl.pathname).toBe(`/apps/${slug}/files/${done.fileId}/manifest.plist`);
    const manifest = await get(manifestUrl.toString());
    expect(manifest.status).toBe(200);
    const parsed = plist.parse(manifest.text) as { items: { assets: { url: string }[] }[] };
    for (const asset of parsed.items[0]!.assets) expect(new URL(asset.url).origin).toBe(shareBase);
    const desktop = await get(pageUrl, { Accept: "text/html", "User-Agent": DESKTOP, Cookie: cookie });
    for (const link of hrefs(desktop.text)) {
      const target = link.href.startsWith("itms-services:") ? decodeURIComponent(link.href.split("url=")[1]!) : link.href;
      expect(new URL(target).origin, link.href).toBe(shareBase);
    }
    expect(decodeQr(/<svg role="img" aria-label="QR code[\s\S]*?<\/svg>/.exec(desktop.text)![0])).toBe(pageUrl);
    const download = await get(`${pageUrl}/files/${done.fileId}/download`, { Cookie: cookie });
    expect(download.status).toBe(302);
  });
});

/** Rasterizes the SVG's module path (as share-page.test.ts does) and decodes it with jsQR. */
function decodeQr(svgText: string): string | undefined {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svgText)![1]);
  const scale = 8;
  const pixels = new Uint8ClampedArray(size * scale * size * scale * 4).fill(255);
  const dark = /<path stroke="#000000" d="([^"]+)"/.exec(svgText)![1]!;
  let x = 0;
  let y = 0;
  for (const [, op, a, b] of dark.matchAll(/([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
    if (op === "M") [x, y] = [Number(a), Number(b) - 0.5];
    else if (op === "m") [x, y] = [x + Number(a), y + Number(b)];
    else {
      for (let i = 0; i < Number(a); i++) {
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) {
            const o = ((y * scale + dy) * size * scale + (x + i) * scale + dx) * 4;
            pixels[o] = pixels[o + 1] = pixels[o + 2] = 0;
          }
      }
      x += Number(a);
    }
  }
  return jsQR(pixels, size * scale, size * scale)?.data;
}
