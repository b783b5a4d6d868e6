import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type { FileRecord } from "../../src";
import {
  deviceFamilyOf,
  openPersonalPage,
  personalDownload,
  personalIcon,
  personalManifest,
  type FoundInstallLink,
  type InstallEvent,
  type InstallRecords,
  type PersonalLinkDeps,
} from "../../src/installs";
import { LinkGoneError, UnknownLinkError, VisitLimitedError } from "../../src/links";
import { installLinkHash, installLinkToken } from "../../src/testers";
import { CountingRateLimiter, fixedClock, MemoryStorage } from "../support/fakes";

const INSTALLER = "com.apple.appstored/1.0 iOS/17.1 model/iPhone15,2 hwmodel/D73AP build/21B74 (6; dt:269) AMS/1";
const IPAD_INSTALLER = "com.apple.appstored/1.0 iPadOS/17.1 model/iPad13,4 hwmodel/J517AP build/21B74 (6; dt:269) AMS/1";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";
const PIXEL = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";
const MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15";
const CLIENT = "203.0.113.7";
const EMAIL = "tester@example.com";
const SECRET = new Uint8Array(32).fill(7);

const record = (fileId: string, platform: "ios" | "android", status: FileRecord["status"] = "completed"): FileRecord => ({
  fileId,
  key: `uploads/prj_A/${fileId}/app.${platform === "ios" ? "ipa" : "apk"}`,
  projectId: "prj_A",
  workspaceId: "ws_A",
  clientId: "key_A",
  fileName: platform === "ios" ? "App.ipa" : "app.apk",
  fileType: "application/octet-stream",
  fileSize: 1234,
  status,
  createdAt: "2026-11-20T09:59:00.000Z",
  completedAt: "2026-11-20T10:00:00.000Z",
  userKey: `key${fileId}`,
  versionId: "v1",
  metadata: {
    appName: "Demo",
    bundleId: "com.example.demo",
    version: "1.0",
    buildNumber: "7",
    platform,
    ...(platform === "ios" ? { provisioning: { kind: "ad-hoc", expiresAt: "2036-03-01T00:00:00Z", provisionedDevices: 3 } } : {}),
  },
  iconKey: `uploads/prj_A/${fileId}/icon.png`,
});

/** Install links and records in memory, with what each method was asked. */
class MemoryInstalls implements Pick<InstallRecords, "findLink" | "testerSession" | "record"> {
  readonly links = new Map<string, FoundInstallLink>();
  readonly sessions = new Set<string>();
  readonly events: InstallEvent[] = [];
  reads = 0;
  sessionReads = 0;
  accept = true;
  async findLink(hash: string) {
    this.reads++;
    return this.links.get(hash);
  }
  async testerSession(email: string, sessionId: string) {
    this.sessionReads++;
    return this.sessions.has(`${email}\n${sessionId}`);
  }
  async record(event: InstallEvent) {
    if (this.accept) this.events.push(event);
    return this.accept;
  }
}

function world() {
  const installs = new MemoryInstalls();
  const files = new Map<string, FileRecord>();
  const limits = { page: new CountingRateLimiter(120), download: new CountingRateLimiter(60) };
  const deps: PersonalLinkDeps = {
    installs,
    files: { get: async (id) => files.get(id) },
    signer: new MemoryStorage(),
    clock: fixedClock("2026-11-25T12:00:00.000Z"),
    limits,
    downloadExpiresSeconds: 300,
  };
  /** A build sent to EMAIL: its personal token. */
  const send = (file: FileRecord) => {
    files.set(file.fileId, file);
    const token = installLinkToken(SECRET, file.fileId, EMAIL);
    installs.links.set(installLinkHash(token), { email: EMAIL, fileId: file.fileId, projectId: file.projectId, workspaceId: "ws_A" });
    return token;
  };
  return { deps, installs, files, limits, send };
}

let w: ReturnType<typeof world>;
beforeEach(() => {
  w = world();
});

const visit = (token: string | undefined, extra: { userAgent?: string; testerCookie?: string } = {}) => ({ token, client: CLIENT, ...extra });

describe("opening a personal link", () => {
  it("counts the client first, and reads nothing for a token of another shape", async () => {
    for (const token of [undefined, "", "short", "a".repeat(44), "a".repeat(42) + "!", "../../etc/passwd"]) {
      await expect(openPersonalPage(w.deps, { ...visit(token), insecure: false })).rejects.toBeInstanceOf(UnknownLinkError);
    }
    expect(w.installs.reads).toBe(0);
    expect(w.limits.page.counts.get(CLIENT)).toBe(6);
  });

  it("answers 404 for a token never handed out, 410 for a deleted build's trace or a record no longer completed", async () => {
    await expect(openPersonalPage(w.deps, { ...visit("b".repeat(43)), insecure: false })).rejects.toBeInstanceOf(UnknownLinkError);
    w.installs.links.set(installLinkHash("c".repeat(43)), "removed");
    await expect(openPersonalPage(w.deps, { ...visit("c".repeat(43)), insecure: false })).rejects.toBeInstanceOf(LinkGoneError);
    const token = w.send(record("fil_rejected", "ios", "rejected"));
    await expect(personalDownload(w.deps, { ...visit(token), headOnly: false })).rejects.toMatchObject({ code: "file_removed" });
    w.files.delete("fil_rejected");
    await expect(personalDownload(w.deps, { ...visit(token), headOnly: false })).rejects.toMatchObject({ code: "file_removed" });
    expect(w.installs.events).toEqual([]);
  });

  it("shows the build with the address it was sent to and the offer for the device, counting nothing", async () => {
    const token = w.send(record("fil_ios", "ios"));
    const page = await openPersonalPage(w.deps, { ...visit(token, { userAgent: IPHONE }), insecure: false });
    expect(page.email).toBe(EMAIL);
    expect(page.file.fileId).toBe("fil_ios");
    expect(page.offer.actions[0]).toMatchObject({ action: "install", primary: true });
    expect(page.iconUrl).toBeDefined();
    expect(w.installs.events).toEqual([]);
  });

  it("answers 429 past the client's allowance before any read", async () => {
    const token = w.send(record("fil_ios", "ios"));
    w.limits.download.counts.set(CLIENT, 60);
    await expect(personalDownload(w.deps, { ...visit(token), headOnly: false })).rejects.toBeInstanceOf(VisitLimitedError);
    expect(w.installs.reads).toBe(0);
  });
});

describe("counting for the tester", () => {
  it("a GET of the download counts one download with the device and `link`; HEAD and preview bots count nothing", async () => {
    const token = w.send(record("fil_apk", "android"));
    expect(await personalDownload(w.deps, { ...visit(token, { userAgent: PIXEL }), headOnly: true })).toMatchObject({ kind: "described", fileSize: 1234 });
    expect(await personalDownload(w.deps, { ...visit(token, { userAgent: "Slackbot-LinkExpanding 1.0" }), headOnly: false })).toEqual({ kind: "preview" });
    const counted = await personalDownload(w.deps, { ...visit(token, { userAgent: PIXEL }), headOnly: false });
    expect(counted.kind).toBe("counted");
    expect(w.installs.events).toEqual([
      {
        target: { email: EMAIL, fileId: "fil_apk", projectId: "prj_A", workspaceId: "ws_A" },
        kind: "download",
        at: "2026-11-25T12:00:00.000Z",
        deviceFamily: "Android",
        via: "link",
        build: { platform: "android", version: "1.0", build: "7" },
      },
    ]);
  });

  it("says `portal` only for a live session of the link's own address; a malformed cookie costs no read", async () => {
    const token = w.send(record("fil_apk", "android"));
    const cookie = "s".repeat(43);
    w.installs.sessions.add(`${EMAIL}\n${createHash("sha256").update(cookie).digest("hex")}`);
    await personalDownload(w.deps, { ...visit(token, { testerCookie: cookie, userAgent: MAC }), headOnly: false });
    await personalDownload(w.deps, { ...visit(token, { testerCookie: "t".repeat(43) }), headOnly: false });
    await personalDownload(w.deps, { ...visit(token, { testerCookie: "<script>" }), headOnly: false });
    expect(w.installs.events.map((e) => e.via)).toEqual(["portal", "link", "link"]);
    expect(w.installs.events.map((e) => e.deviceFamily)).toEqual(["desktop", "other", "other"]);
    expect(w.installs.sessionReads).toBe(2);
  });

  it("an iPhone's installer fetching the manifest is one install start; a browser, HEAD or an APK's manifest is not", async () => {
    const ios = w.send(record("fil_ios", "ios"));
    expect((await personalManifest(w.deps, { ...visit(ios, { userAgent: INSTALLER }), headOnly: true })).installStart).toBe(false);
    expect((await personalManifest(w.deps, { ...visit(ios, { userAgent: MAC }), headOnly: false })).installStart).toBe(false);
    expect((await personalManifest(w.deps, { ...visit(ios, { userAgent: INSTALLER }), headOnly: false })).installStart).toBe(true);
    expect(w.installs.events.map((e) => [e.kind, e.deviceFamily])).toEqual([["installStart", "iPhone"]]);
    const apk = w.send(record("fil_apk", "android"));
    await expect(personalManifest(w.deps, { ...visit(apk, { userAgent: INSTALLER }), headOnly: false })).rejects.toMatchObject({ code: "file_not_found" });
  });

  it("a build whose delete began between the read and the write is gone (410), and nothing is signed", async () => {
    const token = w.send(record("fil_apk", "android"));
    w.installs.accept = false;
    await expect(personalDownload(w.deps, { ...visit(token), headOnly: false })).rejects.toBeInstanceOf(LinkGoneError);
  });

  it("the icon redirects to a signed GET; a build without one is a 404", async () => {
    const token = w.send(record("fil_ios", "ios"));
    expect((await personalIcon(w.deps, visit(token))).location).toContain("icon.png");
    const bare = { ...record("fil_bare", "ios") };
    delete bare.iconKey;
    const noIcon = w.send(bare);
    await expect(personalIcon(w.deps, visit(noIcon))).rejects.toMatchObject({ code: "file_not_found" });
  });
});

describe("device families", () => {
  it.each([
    [INSTALLER, "iPhone"],
    [IPAD_INSTALLER, "iPad"],
    [IPHONE, "iPhone"],
    ["Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1", "iPad"],
    [PIXEL, "Android"],
    [MAC, "desktop"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36", "desktop"],
    ["curl/8.5.0", "other"],
    [undefined, "other"],
  ])("%s → %s", (ua, family) => {
    expect(deviceFamilyOf(ua)).toBe(family);
  });
});
