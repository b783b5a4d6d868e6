import type { DeviceFamily } from "./installs.schema";

/**
 * The device family of a counted request, from its user agent. iOS's installer fetches the
 * manifest and the package itself, not the browser: `com.apple.appstored/1.0 iOS/17.1
 * model/iPhone15,2 …` names the model (`model/iPad…` on iPads, also when iPadOS Safari poses as
 * a Mac); browsers name `iPhone`, `iPad` or `Android`. Any other browser is a desktop (Windows,
 * macOS, Linux, ChromeOS); a program that names no platform (curl, scripts) is `other`.
 */
export function deviceFamilyOf(userAgent: string | undefined): DeviceFamily {
  const ua = (userAgent ?? "").slice(0, 512);
  if (/\bmodel\/iPad|\biPad\b|\biPadOS\//.test(ua)) return "iPad";
  if (/\bmodel\/iP(hone|od)|\biPhone\b|\biPod\b/.test(ua)) return "iPhone";
  if (/\bAndroid\b/.test(ua)) return "Android";
  if (/\b(Windows NT|Macintosh|Mac OS X|X11|Linux|CrOS)\b/.test(ua)) return "desktop";
  return "other";
}
