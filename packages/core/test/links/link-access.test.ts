import { describe, expect, it } from "vitest";
import { ShareSettings } from "../../src/links/link.schema";
import { parseInput } from "../../src/validation/parse-input";
import { ValidationError } from "../../src";
import { dailySeries, isIosInstallRequest, isPreviewBot, linkState, newTokenSecret, signLinkToken, verifyLinkToken } from "../../src/links/link-access";

const now = new Date("2026-11-24T10:00:00Z");

describe("linkState", () => {
  const open = { enabled: true, downloads: 0 };
  it("names why a link serves nothing, off first, then expiry, then the cap", () => {
    expect(linkState(open, now)).toBe("open");
    expect(linkState({ ...open, enabled: false, expiresAt: "2020-01-01T00:00:00Z" }, now)).toBe("disabled");
    expect(linkState({ ...open, expiresAt: "2026-11-24T10:00:00Z" }, now)).toBe("expired");
    expect(linkState({ ...open, expiresAt: "2026-11-24T10:00:01Z" }, now)).toBe("open");
    expect(linkState({ ...open, maxDownloads: 2, downloads: 1 }, now)).toBe("open");
    expect(linkState({ ...open, maxDownloads: 2, downloads: 2 }, now)).toBe("capped");
  });
});

describe("link tokens", () => {
  const secret = newTokenSecret();
  it("verify for their link until they expire", () => {
    const token = signLinkToken(secret, "AbCdEf123456", now, 60);
    expect(verifyLinkToken(secret, "AbCdEf123456", token, now)).toBe(true);
    expect(verifyLinkToken(secret, "AbCdEf123456", token, new Date(now.getTime() + 59_000))).toBe(true);
    expect(verifyLinkToken(secret, "AbCdEf123456", token, new Date(now.getTime() + 60_000))).toBe(false);
  });

  it("open no other link, fail under another secret, and refuse tampering and garbage", () => {
    const token = signLinkToken(secret, "AbCdEf123456", now);
    expect(verifyLinkToken(secret, "ZZZZZZ123456", token, now)).toBe(false);
    expect(verifyLinkToken(newTokenSecret(), "AbCdEf123456", token, now)).toBe(false);
    expect(verifyLinkToken(undefined, "AbCdEf123456", token, now)).toBe(false);
    const [expires, mac] = token.split(".");
    expect(verifyLinkToken(secret, "AbCdEf123456", `${Number(expires) + 1000}.${mac}`, now)).toBe(false);
    for (const garbage of ["", ".", "1.2", `${expires}.${"A".repeat(43)}`, "x".repeat(500), undefined]) {
      expect(verifyLinkToken(secret, "AbCdEf123456", garbage, now)).toBe(false);
    }
  });
});

describe("isPreviewBot", () => {
  it.each([
    "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
    "Slack-ImgProxy (+https://api.slack.com/robots)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.79 Safari/537.36 Edge/14.14393 SkypeUriPreview Preview/0.5",
    "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    "Twitterbot/1.0",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "TelegramBot (like TwitterBot)",
    "WhatsApp/2.23.20.0 A",
    "LinkedInBot/1.0 (compatible; Mozilla/5.0)",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 MicrosoftPreview/2.0 +https://aka.ms/MicrosoftPreview",
    "Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)",
    "Mastodon/4.2.1 (http.rb/5.1.1; +https://mastodon.social/)",
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  ])("counts %s as a preview bot", (ua) => expect(isPreviewBot(ua)).toBe(true));

  it.each([
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
    "com.apple.appstored/1.0 iOS/17.4 model/iPhone15,2 hwp/t8120 build/21E219 (6; dt:290) AMS/1",
    "curl/8.5.0",
    // People inside apps whose names the unfurlers share, and a phone brand ending in "bot".
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Teams/1.6.00.4472 Chrome/91.0.4472.164 Electron/13.6.6 Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/450.0.0.38.108]",
    "Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 YaBrowser/23.11.1.73.00 SA/3",
  ])("counts %s as a person", (ua) => expect(isPreviewBot(ua)).toBe(false));
});

describe("isIosInstallRequest (what the install requests count)", () => {
  it("counts iOS's installer fetching the manifest, on iPhone and on iPad, old and new", () => {
    for (const ua of [
      "com.apple.appstored/1.0 iOS/17.1.2 model/iPhone15,2 hwmodel/D73AP build/21B101 (6; dt:270) AMS/1",
      // iPadOS, whose Safari may pose as a Mac: the installer still says which device it is.
      "com.apple.appstored/1.0 iOS/17.1 model/iPad13,1 hwmodel/J307AP build/21B74 (5; dt:235) AMS/1",
      "com.apple.appstored/1.0 iPadOS/18.0 model/iPad14,3 hwmodel/J617AP build/22A3354 (5; dt:300) AMS/1",
      "itunesstored/1.0 iOS/12.1 model/iPhone10,6 hwmodel/D221AP build/16B92 (6; dt:160)",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
    ]) {
      expect(isIosInstallRequest(ua), ua).toBe(true);
    }
  });

  it("does not count curl, scripts, desktop browsers, Android, preview bots or no user agent", () => {
    for (const ua of [
      undefined,
      "",
      "curl/8.5.0",
      "python-requests/2.31.0",
      "node",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) (compatible; Slackbot-LinkExpanding 1.0)",
      "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
    ]) {
      expect(isIosInstallRequest(ua), String(ua)).toBe(false);
    }
  });
});

describe("dailySeries", () => {
  it("is the last 30 UTC days, oldest first, zero where nothing happened", () => {
    const series = dailySeries({ days: { "2026-11-24": { downloads: 3, installs: 1 }, "2026-10-01": { downloads: 9, installs: 9 } } }, now);
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ day: "2026-10-26", downloads: 0, installs: 0 });
    expect(series.at(-1)).toEqual({ day: "2026-11-24", downloads: 3, installs: 1 });
  });
});

describe("link settings", () => {
  it("refuse a password testers could not type: control characters or an unpaired surrogate", () => {
    for (const password of ["ab\u0000cd", "abcd\ud800", "\udc00abcd"]) {
      const error = (() => {
        try {
          parseInput(ShareSettings, { password });
        } catch (e) {
          return e;
        }
      })();
      expect(error, JSON.stringify(password)).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]!.field).toBe("password");
    }
    expect(parseInput(ShareSettings, { password: "key \ud83d\udd11 ok" }).password).toBe("key 🔑 ok");
  });
});
