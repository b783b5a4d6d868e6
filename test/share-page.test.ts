import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import jsQR from "jsqr";
import plist from "plist";
import { beforeAll, describe, expect, it } from "vitest";
import { call, complete, db, mediaType, newKey, presign, put, readFixture, stack, type Key } from "./support/api";
import { fixtures } from "./support/fixtures";
import { IOS_INSTALLER } from "./support/dashboard";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const PIXEL = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const HTML = { Accept: "text/html,application/xhtml+xml" };

const fixture = (kind: "apk" | "ipa", name: string) => fixtures(kind).find((f) => f.endsWith(name))!;
const HOSTILE = `<script>alert("x")</script> & 'quotes' "double" 🚀`;

let key: Key;
beforeAll(async () => {
  key = await newKey();
});

/**
 * libplist's `plistutil` (Debian libplist-utils, installed by .ci/run) converts the manifest to a
 * binary plist and back: a second parser, written in C against libxml2, that shares nothing with
 * ours. It exits 0 even when it fails, so success is the binary file's magic.
 */
function plistutilRoundTrip(xml: string): unknown {
  const dir = mkdtempSync(join(tmpdir(), "hangar-plist-"));
  try {
    writeFileSync(join(dir, "in.plist"), xml);
    const run = (...args: string[]) => {
      try {
        execFileSync("plistutil", args, { stdio: ["ignore", "ignore", "pipe"] });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error("plistutil is missing: apt-get install libplist-utils (.ci/run does)");
        throw error;
      }
    };
    run("-i", join(dir, "in.plist"), "-o", join(dir, "out.bin"), "-f", "bin");
    expect(existsSync(join(dir, "out.bin")), "plistutil could not read the manifest").toBe(true);
    expect(readFileSync(join(dir, "out.bin")).subarray(0, 8).toString("latin1")).toBe("bplist00");
    run("-i", join(dir, "out.bin"), "-o", join(dir, "back.plist"), "-f", "xml");
    return plist.parse(readFileSync(join(dir, "back.plist"), "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** presign → PUT → complete with the optional context fields. */
async function uploadWith(path: string, fileName: string, extra: Record<string, unknown> = {}) {
  const bytes = readFixture(path);
  const declared = { fileName, fileSize: bytes.length, fileType: mediaType(fileName) };
  const presigned = await presign(key, declared);
  expect(presigned.status, presigned.text).toBe(200);
  expect((await put(presigned.json.uploadUrl, bytes)).status).toBe(200);
  const completed = await complete(key, { ...declared, key: presigned.json.key, ...extra });
  expect(completed.status, completed.text).toBe(200);
  return completed.json as { fileId: string; userKey: string; shareUrl: string; downloadUrl: string; metadata: Record<string, unknown> };
}

/** Sets what the extractor found, as if the package had said it (names with markup, profile kinds). */
async function setShared(userKey: string, change: (m: Record<string, any>) => void, fileId: string) {
  for (const Key of [{ pk: `SHARE#${userKey}`, sk: "SHARE" }, { pk: `FILE#${fileId}`, sk: "FILE" }]) {
    const { Attributes } = await db().send(new UpdateCommand({ TableName: stack().tableName, Key, UpdateExpression: "SET #x = #x", ExpressionAttributeNames: { "#x": "metadata" }, ReturnValues: "ALL_NEW" }));
    const metadata = JSON.parse(Attributes!.metadata as string);
    change(metadata);
    await db().send(new UpdateCommand({ TableName: stack().tableName, Key, UpdateExpression: "SET metadata = :m", ExpressionAttributeValues: { ":m": JSON.stringify(metadata) } }));
  }
}

const shareItem = async (userKey: string) =>
  (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `SHARE#${userKey}`, sk: "SHARE" }, ConsistentRead: true }))).Item!;

const page = (userKey: string, ua: string) => call(`/share/${userKey}`, { headers: { ...HTML, "User-Agent": ua } });
const hrefs = (html: string) => [...html.matchAll(/<a class="button (primary|secondary)" href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => ({ kind: m[1], href: m[2]!.replace(/&amp;/g, "&"), label: m[3] }));

describe("complete: release notes and CI context", () => {
  it("stores notes, branch, commit and run URL and shows them on the page as text", async () => {
    const done = await uploadWith(fixture("apk", "aapt2-string-refs.apk"), "notes.apk", {
      releaseNotes: `Line one\n${HOSTILE}`,
      branch: `feature/<b>bold</b>`,
      commit: "0123456789abcdef",
      ciUrl: "https://ci.example.test/runs/42?a=1&b=2",
    });
    const reply = await page(done.userKey, DESKTOP);
    expect(reply.status).toBe(200);
    expect(reply.text).not.toContain("<script>");
    expect(reply.text).not.toContain("<b>bold</b>");
    expect(reply.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;");
    expect(reply.text).toContain("feature/&lt;b&gt;bold&lt;/b&gt;");
    expect(reply.text).toContain(`href="https://ci.example.test/runs/42?a=1&amp;b=2"`);
    expect(reply.text).toContain("Line one\n");
  });

  it("refuses notes over 5,000 characters, bidi controls, and non-http CI URLs", async () => {
    const declared = { fileName: "x.apk", fileSize: 10, fileType: mediaType("x.apk") };
    const presigned = await presign(key, declared);
    const body = (extra: object) => ({ ...declared, key: presigned.json.key, ...extra });
    for (const [extra, field] of [
      [{ releaseNotes: "a".repeat(5001) }, "releaseNotes"],
      [{ releaseNotes: "evil\u202Etxt" }, "releaseNotes"],
      [{ branch: "main\nx" }, "branch"],
      [{ ciUrl: "javascript:alert(1)" }, "ciUrl"],
      [{ commit: "\ud800" }, "commit"],
    ] as const) {
      const reply = await complete(key, body(extra));
      expect(reply.status, reply.text).toBe(400);
      expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
  });
});

describe("the share page", () => {
  let ios: Awaited<ReturnType<typeof uploadWith>>;
  let android: Awaited<ReturnType<typeof uploadWith>>;
  beforeAll(async () => {
    ios = await uploadWith(fixture("ipa", "xml-plist.ipa"), "Demo.ipa");
    android = await uploadWith(fixture("apk", "aapt2-string-refs.apk"), "demo.apk");
  });

  it("offers Install (itms-services → the manifest) on an iPhone", async () => {
    const reply = await page(ios.userKey, IPHONE);
    const [first] = hrefs(reply.text);
    expect(first).toMatchObject({ kind: "primary", label: "Install" });
    const url = new URL(first!.href);
    expect(url.protocol).toBe("itms-services:");
    expect(first!.href.startsWith("itms-services://?action=download-manifest&url=")).toBe(true);
    expect(decodeURIComponent(first!.href.split("&url=")[1]!)).toBe(`${stack().baseUrl}/share/${ios.userKey}/manifest.plist`);
  });

  it("offers Download APK on Android and a QR code with both actions on a desktop", async () => {
    expect(hrefs((await page(android.userKey, PIXEL)).text)[0]).toMatchObject({ kind: "primary", label: "Download APK", href: android.downloadUrl });
    const desktop = await page(ios.userKey, DESKTOP);
    expect(hrefs(desktop.text).map((h) => h.label)).toEqual(["Install on iPhone or iPad", "Download IPA"]);
    expect(desktop.text).toMatch(/<svg role="img" aria-label="QR code/);
  });

  it("says iOS needs https when the page is served over http (the local stack)", async () => {
    expect(stack().baseUrl.startsWith("http:")).toBe(true);
    expect((await page(ios.userKey, IPHONE)).text).toContain("iOS installs need https");
  });

  it("shows the provisioning kind, team, expiry and device count", async () => {
    const text = (await page(ios.userKey, IPHONE)).text;
    for (const shown of ["<dt>Profile</dt><dd>Development</dd>", "<dt>Team</dt><dd>Example Corp</dd>", "<dt>Profile expires</dt><dd>1 Mar 2036</dd>", "<dt>Devices</dt><dd>3</dd>"]) {
      expect(text).toContain(shown);
    }
  });

  it("explains why an App Store or expired build cannot be installed, with no Install button", async () => {
    const store = await uploadWith(fixture("ipa", "unicode-names.ipa"), "Store.ipa");
    const text = (await page(store.userKey, IPHONE)).text;
    expect(text).toContain("signed for App Store distribution");
    expect(hrefs(text).map((h) => h.label)).toEqual(["Download IPA"]);

    const expired = await uploadWith(fixture("ipa", "binary-plist.ipa"), "Old.ipa");
    await setShared(expired.userKey, (m) => (m.provisioning.expiresAt = "2020-01-02T00:00:00.000Z"), expired.fileId);
    const old = (await page(expired.userKey, IPHONE)).text;
    expect(old).toContain("provisioning profile expired on 2 Jan 2020");
    expect(hrefs(old).map((h) => h.label)).toEqual(["Download IPA"]);
  });

  it("has noindex, no-referrer, a CSP without script, and Open Graph tags with a cookie-free icon", async () => {
    const reply = await page(ios.userKey, DESKTOP);
    expect(reply.headers.get("referrer-policy")).toBe("no-referrer");
    const csp = reply.headers.get("content-security-policy")!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    expect(reply.text).toContain(`<meta name="robots" content="noindex, nofollow">`);
    expect(reply.text).not.toMatch(/<script/i);
    expect(reply.text).toContain(`<meta property="og:title" content="Demo App 1.4.2">`);
    const image = /<meta property="og:image" content="([^"]+)">/.exec(reply.text)![1]!;
    expect(image).toBe(`${stack().baseUrl}/share/${ios.userKey}/icon.png`);
    const icon = await fetch(image, { redirect: "manual" });
    expect(icon.status).toBe(302);
    const png = await fetch(icon.headers.get("location")!);
    expect(png.status).toBe(200);
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).toBe("PNG");
  });

  it("answers a friendly 404 page for an unknown key and JSON for programs", async () => {
    const reply = await page("AAAAAAAAAAAA", DESKTOP);
    expect(reply.status).toBe(404);
    expect(reply.text).toContain("No build at this link");
    expect((await call("/share/AAAAAAAAAAAA")).json.error.code).toBe("file_not_found");
  });
});

describe("GET /share/<userKey>/manifest.plist", () => {
  it("is a valid plist whose every field parses back, a hostile name included", async () => {
    const done = await uploadWith(fixture("ipa", "xml-plist.ipa"), "Hostile.ipa");
    const name = `Tom & Jerry <beta> "q" 'a' 🚀`;
    await setShared(done.userKey, (m) => {
      m.appName = name;
      m.bundleId = "com.example.a&b";
      m.version = `1.0<2>`;
    }, done.fileId);
    const reply = await call(`/share/${done.userKey}/manifest.plist`, { headers: { "User-Agent": "com.apple.appstored/1.0 iOS/17.4" } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    const parsed = plist.parse(reply.text) as any;
    const item = parsed.items[0];
    expect(item.metadata).toEqual({ "bundle-identifier": "com.example.a&b", "bundle-version": "1.0<2>", kind: "software", title: name });
    expect(item.assets).toEqual([
      { kind: "software-package", url: `${stack().baseUrl}/download/${done.userKey}` },
      { kind: "display-image", url: `${stack().baseUrl}/share/${done.userKey}/icon.png` },
      { kind: "full-size-image", url: `${stack().baseUrl}/share/${done.userKey}/icon.png` },
    ]);
    // A second, independent parser reads the very same values.
    expect(plistutilRoundTrip(reply.text)).toEqual(parsed);
    // The same name is text on the page and in its Open Graph tags.
    const html = (await page(done.userKey, DESKTOP)).text;
    expect(html).toContain(`<meta property="og:title" content="Tom &amp; Jerry &lt;beta&gt; &quot;q&quot; &#39;a&#39; 🚀 1.0&lt;2&gt;">`);
    expect(html).toContain(`<h1 id="app-title">Tom &amp; Jerry &lt;beta&gt; &quot;q&quot; &#39;a&#39; 🚀</h1>`);
    expect(html).not.toContain("<beta>");
    // The package URL works without cookies.
    const pkg = await call(`/download/${done.userKey}`);
    expect(pkg.status).toBe(302);
  });

  it("never builds URLs from a forged Host or X-Forwarded-Host", async () => {
    const done = await uploadWith(fixture("ipa", "xml-plist.ipa"), "Forged.ipa");
    const reply = await call(`/share/${done.userKey}/manifest.plist`, { headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https", "X-Hangar-Viewer-Host": "evil.example" } });
    expect(reply.text).not.toContain("evil.example");
  });
});

describe("GET /share/<userKey>/qr.svg", () => {
  it("is an SVG QR code of the share URL", async () => {
    const done = await uploadWith(fixture("apk", "aapt2-string-refs.apk"), "qr.apk");
    const reply = await call(`/share/${done.userKey}/qr.svg`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("image/svg+xml");
    // Rasterize the SVG's module paths ourselves (the browser test decodes a screenshot).
    const size = Number(/viewBox="0 0 (\d+) \1"/.exec(reply.text)![1]);
    const scale = 8;
    const pixels = new Uint8ClampedArray(size * scale * size * scale * 4).fill(255);
    const dark = /<path stroke="#000000" d="([^"]+)"/.exec(reply.text)![1]!;
    let x = 0;
    let y = 0;
    for (const [, op, a, b] of dark.matchAll(/([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
      if (op === "M") [x, y] = [Number(a), Number(b) - 0.5];
      else if (op === "m") [x, y] = [x + Number(a), y + Number(b)];
      else {
        for (let i = 0; i < Number(a); i++) {
          for (let dy = 0; dy < scale; dy++)
            for (let dx = 0; dx < scale; dx++) {
              const o = (((y * scale + dy) * size * scale) + (x + i) * scale + dx) * 4;
              pixels[o] = pixels[o + 1] = pixels[o + 2] = 0;
            }
        }
        x += Number(a);
      }
    }
    expect(jsQR(pixels, size * scale, size * scale)?.data).toBe(done.shareUrl);
  });
});

describe("counting", () => {
  it("counts N concurrent downloads exactly N; HEAD and preview bots count zero", async () => {
    const done = await uploadWith(fixture("apk", "aapt2-string-refs.apk"), "count.apk");
    const n = 12;
    const replies = await Promise.all(Array.from({ length: n }, () => call(`/download/${done.userKey}`)));
    expect(replies.map((r) => r.status)).toEqual(Array(n).fill(302));
    expect((await call(`/download/${done.userKey}`, { method: "HEAD" })).status).toBe(200);
    // Since issue 17 (M2) what is not counted gets no signed URL: a bot gets a page, not the 302.
    for (const ua of ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "facebookexternalhit/1.1", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", "TelegramBot (like TwitterBot)", "WhatsApp/2.23.20.0", "Twitterbot/1.0", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com"]) {
      const bot = await call(`/download/${done.userKey}`, { headers: { "User-Agent": ua } });
      expect(bot.status).toBe(403);
      expect(bot.headers.get("location")).toBeNull();
    }
    const Item = await shareItem(done.userKey);
    expect(Item.downloads).toBe(n);
    expect(Item[`dl_${new Date().toISOString().slice(0, 10)}`]).toBe(n);
  });

  it("counts manifest GETs by iOS (its installer, on iPhone and iPad) as install requests, not curl, desktops, HEAD or bots", async () => {
    const done = await uploadWith(fixture("ipa", "xml-plist.ipa"), "installs.ipa");
    const ipad = "com.apple.appstored/1.0 iOS/17.1 model/iPad13,1 hwmodel/J307AP build/21B74 (5; dt:235) AMS/1";
    await Promise.all(Array.from({ length: 4 }, () => call(`/share/${done.userKey}/manifest.plist`, { headers: IOS_INSTALLER })));
    await call(`/share/${done.userKey}/manifest.plist`, { headers: { "User-Agent": ipad } });
    await call(`/share/${done.userKey}/manifest.plist`, { method: "HEAD", headers: IOS_INSTALLER });
    for (const ua of [
      "Slackbot 1.0",
      "curl/8.5.0",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    ]) {
      expect((await call(`/share/${done.userKey}/manifest.plist`, { headers: { "User-Agent": ua } })).status, ua).toBe(200);
    }
    expect((await call(`/share/${done.userKey}/manifest.plist`)).status).toBe(200);
    expect((await shareItem(done.userKey)).installs).toBe(5);
  });
});
