import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The device cookie (docs/devices.md): after the enroll flow, the tester's browser carries which
 * iPhone or iPad it runs on, so the share page, the personal install page, the app page and the
 * tester portal can say "this iPhone is (not) in this build's profile" before the tester taps
 * Install. Safari cannot tell a page the device's UDID; only the profile service can, once.
 *
 * The value is the device's facts, signed: `v1.<base64url(JSON)>.<base64url(HMAC-SHA256)>` under
 * the stage secret named `device-cookie`. A verdict needs no read and works on every workspace's
 * pages (the facts are the device's, not a workspace's); nobody without the secret can make one
 * claim a UDID. It is not a credential: it opens nothing, it only labels this browser.
 *
 * `hangar_ios_device`: HttpOnly, SameSite=Lax, Secure on https, Path=/, Max-Age 400 days (the most
 * browsers keep).
 */
export const DEVICE_COOKIE = "hangar_ios_device";
export const DEVICE_COOKIE_SECRET = "device-cookie";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

export interface DeviceClaim {
  /** Uppercase UDID (`00008030-001A35E11A88802E`, or 40 hex characters on older devices). */
  udid: string;
  /** Apple's model identifier (`iPhone15,2`). */
  product: string;
  /** iOS version (`18.1`). */
  version: string;
  /** The device's name as its owner set it, when the device gave it. */
  name?: string;
}

/** A UDID's shapes: 25 characters `8-16` hex (2018 and later), or 40 hex. Normalized uppercase. */
export const UDID = /^(?:[0-9A-F]{8}-[0-9A-F]{16}|[0-9A-F]{40})$/;
export const normalizeUdid = (udid: string): string => udid.trim().toUpperCase();

const mac = (secret: Uint8Array, body: string) => createHmac("sha256", secret).update(`device-cookie\n${body}`, "utf8").digest("base64url");

export function signDeviceCookie(secret: Uint8Array, claim: DeviceClaim): string {
  const body = Buffer.from(JSON.stringify({ u: claim.udid, p: claim.product, v: claim.version, ...(claim.name ? { n: claim.name } : {}) }), "utf8").toString("base64url");
  return `v1.${body}.${mac(secret, body)}`;
}

/** The `Set-Cookie` value that labels this browser with the device (Secure when the host is https). */
export const deviceCookieHeader = (secret: Uint8Array, claim: DeviceClaim, secure: boolean) =>
  `${DEVICE_COOKIE}=${signDeviceCookie(secret, claim)}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

/** The claim of a cookie value, or undefined when it is absent, malformed or not ours. Never throws. */
export function parseDeviceCookie(secret: Uint8Array, value: string | undefined): DeviceClaim | undefined {
  if (!value || value.length > 1024) return undefined;
  const [version, body, tag, ...rest] = value.split(".");
  if (version !== "v1" || !body || !tag || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(secret, body), "utf8");
  const given = Buffer.from(tag, "utf8");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const raw = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    const { u, p, v, n } = raw;
    if (typeof u !== "string" || !UDID.test(u) || typeof p !== "string" || typeof v !== "string") return undefined;
    return { udid: u, product: p, version: v, ...(typeof n === "string" ? { name: n } : {}) };
  } catch {
    return undefined;
  }
}
