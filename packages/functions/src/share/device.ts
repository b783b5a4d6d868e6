export type Device = "ios" | "android" | "desktop";

/**
 * Which install path to offer first, from the User-Agent. iPadOS Safari asks for desktop sites
 * (a Mac user agent): it gets the desktop page, which offers the install link too.
 */
export function deviceOf(userAgent: string | undefined): Device {
  const ua = userAgent ?? "";
  if (/\b(iPhone|iPad|iPod)\b/.test(ua)) return "ios";
  if (/\bAndroid\b/.test(ua)) return "android";
  return "desktop";
}
