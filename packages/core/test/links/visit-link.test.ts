import { beforeEach, describe, expect, it } from "vitest";
import { NotFoundError, RateLimitedError, type SharedFile } from "../../src";
import {
  downloadShared,
  ICON_SECONDS,
  LinkGoneError,
  LinkPasswordLimitedError,
  LinkPasswordRequiredError,
  openSharePage,
  shareIcon,
  shareManifest,
  shareQr,
  signLinkToken,
  UnknownLinkError,
  unlockShareLink,
  VisitLimitedError,
  WrongLinkPasswordError,
  type LinkVisitDeps,
} from "../../src/links";
import { defaultRateRules } from "../../src/limits/rate-rules";
import { CountingRateLimiter, fixedClock, MemoryShareLinks, MemoryStorage, PlainHasher } from "../support/fakes";

const IPHONE_INSTALLER = "com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:269) AMS/1";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const CLIENT = "203.0.113.7";

const file = (userKey: string, platform: "ios" | "android" = "android"): SharedFile => ({
  userKey,
  fileId: `fil_${userKey}`,
  projectId: "prj_A",
  key: `uploads/prj_A/fil_${userKey}/app.${platform === "ios" ? "ipa" : "apk"}`,
  versionId: "v1",
  fileName: platform === "ios" ? "App.ipa" : "app.apk",
  fileSize: 1234,
  metadata: {
    appName: "Demo",
    bundleId: "com.example.demo",
    version: "1.0",
    platform,
    ...(platform === "ios" ? { provisioning: { kind: "ad-hoc", expiresAt: "2036-03-01T00:00:00Z", provisionedDevices: 3 } } : {}),
  },
  iconKey: `uploads/prj_A/fil_${userKey}/icon.png`,
  iconVersionId: "v2",
  completedAt: "2026-11-20T10:00:00.000Z",
});

function world() {
  const clock = fixedClock("2026-11-25T12:00:00.000Z");
  const links = new MemoryShareLinks();
  const storage = new (class extends MemoryStorage {
    readonly gets: Parameters<MemoryStorage["presignGet"]>[0][] = [];
    override async presignGet(input: Parameters<MemoryStorage["presignGet"]>[0]) {
      this.gets.push(input);
      return super.presignGet(input);
    }
  })();
  const hasher = new PlainHasher();
  const limits = {
    sharePage: new CountingRateLimiter(defaultRateRules.sharePage.limit),
    download: new CountingRateLimiter(defaultRateRules.download.limit),
    downloadPerLink: new CountingRateLimiter(2),
    password: {
      perClient: new CountingRateLimiter(defaultRateRules.linkPassword.limit),
      perLinkClient: new CountingRateLimiter(defaultRateRules.linkPasswordPerLink.limit),
      ceiling: new CountingRateLimiter(defaultRateRules.linkPasswordCeiling.limit),
    },
  };
  const deps: LinkVisitDeps = { links, signer: storage, hasher, clock, limits, downloadExpiresSeconds: 300 };
  return { deps, links, storage, hasher, limits, clock };
}

let w: ReturnType<typeof world>;
beforeEach(() => {
  w = world();
});

const visit = (userKey: string | undefined, extra: { tokens?: string[]; userAgent?: string } = {}) => ({ userKey, client: CLIENT, ...extra });
const get = (userKey: string | undefined, extra: { tokens?: string[]; userAgent?: string } = {}) => ({ ...visit(userKey, extra), headOnly: false });

describe("the gate every visit passes", () => {
  it("answers an unknown key, and a malformed one without a lookup, with UnknownLinkError (404 file_not_found)", async () => {
    let lookups = 0;
    const find = w.links.find.bind(w.links);
    w.links.find = async (key) => (lookups++, find(key));
    for (const key of ["AAAAAAAAAAAA", "no", "../../etc", undefined]) {
      const error = await openSharePage(w.deps, { ...visit(key), insecure: false }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnknownLinkError);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ code: "file_not_found", message: "No file is shared under this link" });
    }
    expect(lookups).toBe(1);
  });

  it.each([
    ["disabled", { enabled: false }, "link_disabled"],
    ["expired", { expiresAt: "2026-11-25T11:59:59.000Z" }, "link_expired"],
    ["capped", { maxDownloads: 2, downloads: 2 }, "link_limit_reached"],
  ] as const)("a %s link is gone (LinkGoneError %s) on every route", async (reason, settings, code) => {
    w.links.add(file("GONE00000001", "ios"), settings);
    for (const attempt of [
      () => openSharePage(w.deps, { ...visit("GONE00000001"), insecure: false }),
      () => shareManifest(w.deps, get("GONE00000001")),
      () => shareQr(w.deps, visit("GONE00000001")),
      () => shareIcon(w.deps, visit("GONE00000001")),
      () => downloadShared(w.deps, get("GONE00000001")),
      () => unlockShareLink(w.deps, { ...visit("GONE00000001"), password: "x" }),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LinkGoneError);
      expect(error).toMatchObject({ reason, code });
    }
  });

  it.each([
    ["removed", "file_removed"],
    ["replaced", "link_replaced"],
  ] as const)("the trace of a %s link says so (%s)", async (ended, code) => {
    w.links.links.set("ENDED0000001", { userKey: "ENDED0000001", ended });
    await expect(downloadShared(w.deps, get("ENDED0000001"))).rejects.toMatchObject({ reason: ended, code });
  });

  it("counts the client's allowance before it reads anything: over it, RateLimitedError and no lookup", async () => {
    w.links.add(file("OPEN00000001"));
    w.limits.sharePage.counts.set(CLIENT, defaultRateRules.sharePage.limit);
    let lookups = 0;
    w.links.find = async () => (lookups++, undefined);
    const error = await shareQr(w.deps, visit("OPEN00000001")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VisitLimitedError);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as VisitLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect((error as Error).message).toMatch(/^Too many requests from your network\. Retry after \d+ s\.$/);
    expect(lookups).toBe(0);
  });
});

describe("passwords", () => {
  beforeEach(() => {
    w.links.add(file("LOCKED000001", "ios"), { passwordHash: "hash:open sesame", tokenSecret: "c2VjcmV0LW9mLXRoZS1saW5rLWZvci10ZXN0cy0xMjM0" });
  });

  it("shows nothing of a protected link without proof: the page, manifest, icon and download need the password; the QR code does not", async () => {
    for (const attempt of [
      () => openSharePage(w.deps, { ...visit("LOCKED000001"), insecure: false }),
      () => shareManifest(w.deps, get("LOCKED000001", { userAgent: IPHONE_INSTALLER })),
      () => shareIcon(w.deps, visit("LOCKED000001")),
      () => downloadShared(w.deps, get("LOCKED000001")),
    ]) {
      await expect(attempt()).rejects.toBeInstanceOf(LinkPasswordRequiredError);
    }
    expect(await shareQr(w.deps, visit("LOCKED000001"))).toEqual({ userKey: "LOCKED000001" });
    expect((await w.links.find("LOCKED000001")) as { downloads: number; installs: number }).toMatchObject({ downloads: 0, installs: 0 });
  });

  it("a wrong password is WrongLinkPasswordError; the right one earns a token that opens the link, and the manifest's URLs carry a fresh one", async () => {
    await expect(unlockShareLink(w.deps, { ...visit("LOCKED000001"), password: "guess" })).rejects.toBeInstanceOf(WrongLinkPasswordError);
    await expect(unlockShareLink(w.deps, { ...visit("LOCKED000001"), password: undefined })).rejects.toBeInstanceOf(WrongLinkPasswordError);
    const unlocked = await unlockShareLink(w.deps, { ...visit("LOCKED000001"), password: "open sesame" });
    expect(unlocked.access?.maxAgeSeconds).toBe(12 * 3600);
    const page = await openSharePage(w.deps, { ...visit("LOCKED000001", { tokens: ["bogus", unlocked.access!.token] }), insecure: false });
    expect(page.protected).toBe(true);
    expect(page.accessToken).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    const manifest = await shareManifest(w.deps, get("LOCKED000001", { tokens: [page.accessToken!] }));
    expect(manifest.accessToken).toBeDefined();
  });

  it("a token of another link, or an expired one, is no proof", async () => {
    const secret = "c2VjcmV0LW9mLXRoZS1saW5rLWZvci10ZXN0cy0xMjM0";
    const other = signLinkToken(secret, "OTHER0000001", w.clock.now());
    const old = signLinkToken(secret, "LOCKED000001", new Date("2026-11-24T00:00:00.000Z"), 3600);
    await expect(downloadShared(w.deps, get("LOCKED000001", { tokens: [other, old] }))).rejects.toBeInstanceOf(LinkPasswordRequiredError);
  });

  it("too many wrong answers from one client is LinkPasswordLimitedError (a 429 with its wait), before any hash", async () => {
    for (let i = 0; i < defaultRateRules.linkPasswordPerLink.limit; i++) {
      await expect(unlockShareLink(w.deps, { ...visit("LOCKED000001"), password: `guess ${i}` })).rejects.toBeInstanceOf(WrongLinkPasswordError);
    }
    const hashed = w.hasher.verifies;
    const error = await unlockShareLink(w.deps, { ...visit("LOCKED000001"), password: "open sesame" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkPasswordLimitedError);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as LinkPasswordLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect((error as Error).message).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
    expect(w.hasher.verifies).toBe(hashed);
  });

  it("a link without a password unlocks to no token", async () => {
    w.links.add(file("OPEN00000002"));
    expect(await unlockShareLink(w.deps, { ...visit("OPEN00000002"), password: "anything" })).toEqual({ userKey: "OPEN00000002" });
  });
});

describe("the page", () => {
  it("signs the icon for the version complete inspected, and offers the install to the device at hand", async () => {
    w.links.add(file("PAGE00000001", "ios"));
    const page = await openSharePage(w.deps, { ...visit("PAGE00000001", { userAgent: IPHONE }), insecure: false });
    expect(page.iconUrl).toBeDefined();
    expect(page.protected).toBe(false);
    expect(page.accessToken).toBeUndefined();
    expect(page.offer.actions.map((a) => a.label)).toEqual(["Install", "Download IPA"]);
    expect(w.storage.gets).toEqual([
      { key: "uploads/prj_A/fil_PAGE00000001/icon.png", downloadName: "icon.png", expiresInSeconds: ICON_SECONDS, inline: true, versionId: "v2" },
    ]);
  });

  it("the icon route redirects to the same signed GET, and a build without an icon is a 404 of its own", async () => {
    w.links.add(file("ICON00000001"));
    expect((await shareIcon(w.deps, visit("ICON00000001"))).location).toBeDefined();
    const { iconKey: _, ...bare } = file("ICON00000002");
    w.links.add(bare);
    const error = await shareIcon(w.deps, visit("ICON00000002")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(UnknownLinkError);
    expect(error).toMatchObject({ code: "file_not_found", message: "This build has no icon" });
  });
});

describe("the manifest", () => {
  it("counts a GET by iOS's installer as an install request; a HEAD, a browser and curl count nothing", async () => {
    w.links.add(file("IPA000000001", "ios"));
    expect((await shareManifest(w.deps, get("IPA000000001", { userAgent: IPHONE_INSTALLER }))).installRequest).toBe(true);
    expect((await shareManifest(w.deps, { ...visit("IPA000000001", { userAgent: IPHONE_INSTALLER }), headOnly: true })).installRequest).toBe(false);
    expect((await shareManifest(w.deps, get("IPA000000001", { userAgent: "curl/8.5.0" }))).installRequest).toBe(false);
    expect((await shareManifest(w.deps, get("IPA000000001"))).installRequest).toBe(false);
    expect(await w.links.find("IPA000000001")).toMatchObject({ installs: 1, days: { "2026-11-25": { installs: 1 } } });
  });

  it("an APK has none (404, not the unknown link's answer)", async () => {
    w.links.add(file("APK000000001"));
    const error = await shareManifest(w.deps, get("APK000000001")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).not.toBeInstanceOf(UnknownLinkError);
  });
});

describe("downloads", () => {
  it("counts a GET and redirects to the package's signed GET, pinned to its version; HEAD and preview bots count nothing and get no URL", async () => {
    w.links.add(file("DL0000000001"));
    expect(await downloadShared(w.deps, { ...visit("DL0000000001"), headOnly: true })).toEqual({ kind: "described", fileName: "app.apk", fileSize: 1234 });
    expect(await downloadShared(w.deps, get("DL0000000001", { userAgent: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" }))).toEqual({
      kind: "preview",
      userKey: "DL0000000001",
    });
    expect(w.storage.gets).toEqual([]);
    const counted = await downloadShared(w.deps, get("DL0000000001"));
    expect(counted.kind).toBe("counted");
    expect(w.storage.gets).toEqual([{ key: "uploads/prj_A/fil_DL0000000001/app.apk", downloadName: "app.apk", expiresInSeconds: 300, versionId: "v1" }]);
    expect(await w.links.find("DL0000000001")).toMatchObject({ downloads: 1 });
  });

  it("one client gets its share of a link (VisitLimitedError, worded for the link), another is served", async () => {
    w.links.add(file("DL0000000002"));
    await downloadShared(w.deps, get("DL0000000002"));
    await downloadShared(w.deps, get("DL0000000002"));
    const error = await downloadShared(w.deps, get("DL0000000002")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VisitLimitedError);
    expect((error as Error).message).toMatch(/^This build was downloaded from your network as often as one network may today\. Retry after \d+ s\.$/);
    expect((await downloadShared(w.deps, { ...get("DL0000000002"), client: "198.51.100.1" })).kind).toBe("counted");
    expect(await w.links.find("DL0000000002")).toMatchObject({ downloads: 3 });
  });

  it("a download the link refuses at the count (its cap reached meanwhile) is gone, and gives the client's share back", async () => {
    const link = w.links.add(file("DL0000000003"), { maxDownloads: 1 });
    // The gate read the link below its cap; another client's download lands before this one's count.
    const find = w.links.find.bind(w.links);
    w.links.find = async (key) => {
      const seen = await find(key);
      link.downloads = 1;
      return seen;
    };
    const error = await downloadShared(w.deps, get("DL0000000003")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkGoneError);
    expect(error).toMatchObject({ reason: "capped", code: "link_limit_reached" });
    expect(w.limits.downloadPerLink.counts.get(`DL0000000003:${CLIENT}`)).toBe(0);
  });
});
