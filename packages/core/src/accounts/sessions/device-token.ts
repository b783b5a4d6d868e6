import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { UserAccount } from "../../ports";

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
 * signed in to an account carries `<userId>.<deviceId>.<expires>.<hmac>`, the HMAC keyed by the
 * account's own random device key. Sign-in then knows it as a device that proved the password
 * before: it is held only by its own failure limit, never by the account-wide ceiling that an
 * attacker can fill from other addresses. The cookie proves nothing else: it opens no session
 * and skips no password.
 *
 * Keyed per account rather than by one service secret, so no new secret has to be deployed and
 * rotated; the key lives on the user item and never leaves the server.
 */
const TOKEN = /^(usr_[A-Za-z0-9]{1,40})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Long-lived, as OWASP suggests: half a year, renewed at every sign-in. */
export const DEVICE_COOKIE_SECONDS = 180 * 24 * 3600;

export const newDeviceKey = () => randomBytes(32).toString("base64url");

const mac = (deviceKey: string, userId: string, deviceId: string, expires: number) =>
  createHmac("sha256", Buffer.from(deviceKey, "base64url")).update(`device.${userId}.${deviceId}.${expires}`).digest("base64url");

/** A token for `deviceId` (kept when the browser had one, so its failure count stays its own). */
export function signDeviceToken(deviceKey: string, userId: string, now: Date, deviceId = randomBytes(16).toString("base64url")): string {
  const expires = Math.floor(now.getTime() / 1000) + DEVICE_COOKIE_SECONDS;
  return `${userId}.${deviceId}.${expires}.${mac(deviceKey, userId, deviceId, expires)}`;
}

/** The device id of a valid, unexpired token of this account; undefined otherwise (checked in constant time). */
export function deviceOf(user: Pick<UserAccount, "userId" | "deviceKey"> | undefined, token: string | undefined, now: Date): string | undefined {
  if (!user?.deviceKey || !token || token.length > 200) return undefined;
  const m = TOKEN.exec(token);
  if (!m || m[1] !== user.userId) return undefined;
  const expires = Number(m[3]);
  if (expires <= now.getTime() / 1000) return undefined;
  const given = Buffer.from(m[4]!);
  const expected = Buffer.from(mac(user.deviceKey, user.userId, m[2]!, expires));
  return given.length === expected.length && timingSafeEqual(given, expected) ? m[2] : undefined;
}
