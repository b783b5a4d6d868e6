import { describe, expect, it } from "vitest";
import { COPY_SCRIPT_HASH, enrollHref, guidanceItems, iosMajor, needsScript, verdictHtml } from "../src/share/install-help";
import { pageCsp } from "../src/share/share-page";

const IOS17 = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const IOS15 = "Mozilla/5.0 (iPhone; CPU iPhone OS 15_8 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Mobile/15E148 Safari/604.1";
const PIXEL = "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const ios = (kind: string, teamName = "Acme <Corp>") => ({ metadata: { platform: "ios", provisioning: { kind, teamName } } }) as never;
const android = { metadata: { platform: "android" } } as never;
const summaries = (items: { toString(): string }[]) => items.map((i) => /<summary>(.*?)<\/summary>/.exec(i.toString())![1]);

describe("the install help", () => {
  it("offers Developer Mode for development and ad hoc builds on iOS 16 and later and on a desktop, not on iOS 15", () => {
    for (const kind of ["development", "ad-hoc"]) {
      expect(summaries(guidanceItems(ios(kind), "ios", IOS17, true))).toEqual(["iOS says the app needs Developer Mode"]);
      expect(summaries(guidanceItems(ios(kind), "desktop", DESKTOP, true))).toEqual(["iOS says the app needs Developer Mode"]);
      expect(guidanceItems(ios(kind), "ios", IOS15, true)).toEqual([]);
    }
    expect(iosMajor(IOS17)).toBe(17);
    expect(iosMajor(DESKTOP)).toBeUndefined();
  });

  it("explains trusting an enterprise developer, naming the team as text", () => {
    const [item] = guidanceItems(ios("enterprise"), "ios", IOS17, true);
    expect(summaries([item!])).toEqual([`iOS says "Untrusted Enterprise Developer"`]);
    expect(item!.toString()).toContain("Settings → General → VPN &amp; Device Management, tap <strong>Acme &lt;Corp&gt;</strong>");
  });

  it("explains Android's Install unknown apps on Android and desktops, and says nothing where it does not apply", () => {
    expect(summaries(guidanceItems(android, "android", PIXEL, true))).toEqual(["Android blocks the install"]);
    expect(guidanceItems(android, "desktop", DESKTOP, true)).toHaveLength(1);
    expect(guidanceItems(android, "ios", IOS17, true)).toEqual([]);
    expect(guidanceItems(ios("ad-hoc"), "android", PIXEL, false)).toEqual([]);
    // App Store and expired builds: iOS will not install them, their notice says why; no help.
    expect(guidanceItems(ios("app-store"), "ios", IOS17, false)).toEqual([]);
    expect(guidanceItems(ios("ad-hoc"), "ios", IOS17, false)).toEqual([]);
  });
});

describe("the verdict's markup", () => {
  const device = { name: `<b>"Anna's"</b> & co`, model: null, product: "iPhone99,1", osVersion: "26.0", udid: "00008030-001A35E11A88802E" };

  it("escapes the device's name, names the identifier when the model is unknown, and needs the copy script only with a UDID", () => {
    const out = verdictHtml({ kind: "not-in-profile", device, told: true }, "/share/ABC")!.toString();
    expect(out).toContain("This iPhone (&lt;b&gt;&quot;Anna&#39;s&quot;&lt;/b&gt; &amp; co, iPhone99,1) is not in this build's profile — the team has been told.");
    expect(out).toContain(`data-copy="00008030-001A35E11A88802E"`);
    expect(needsScript({ kind: "not-in-profile", device })).toBe(true);
    expect(needsScript({ kind: "in-profile", device })).toBe(false);
    expect(needsScript(undefined)).toBe(false);
    const untold = verdictHtml({ kind: "not-in-profile", device, told: false }, "/share/ABC")!.toString();
    expect(untold).toContain("Send the team this UDID.");
    expect(verdictHtml({ kind: "not-applicable" }, "/share/ABC")).toBeUndefined();
  });

  it("leaves out the generic name iOS 16 and later give (\"iPhone\")", () => {
    const generic = { ...device, name: "iPhone", model: "iPhone 14 Pro", product: "iPhone15,2" };
    expect(verdictHtml({ kind: "in-profile", device: generic }, "/share/ABC")!.toString()).toContain("This iPhone (iPhone 14 Pro) is in this build's profile.");
    expect(verdictHtml({ kind: "in-profile", device: { ...generic, name: null } }, "/share/ABC")!.toString()).toContain("This iPhone (iPhone 14 Pro) is in");
  });

  it("links Check this iPhone to the enroll flow with the page as its way back", () => {
    expect(enrollHref("/install/abc_DEF-1")).toBe("/devices/enroll?return=%2Finstall%2Fabc_DEF-1");
    expect(verdictHtml({ kind: "unknown-device" }, "/apps/field-notes")!.toString()).toContain(`href="/devices/enroll?return=%2Fapps%2Ffield-notes"`);
  });

  it("allows the copy script by its hash only on the pages that ask for it", () => {
    expect(pageCsp([])).not.toMatch(/script-src/);
    expect(pageCsp([], [COPY_SCRIPT_HASH])).toContain(`script-src ${COPY_SCRIPT_HASH};`);
  });
});
