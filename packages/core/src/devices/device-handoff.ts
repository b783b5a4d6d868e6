import { createHmac, timingSafeEqual } from "node:crypto";
import { ValidationError } from "../errors/domain-errors";
import type { Clock } from "../ports/clock.port";
import type { StageSecret } from "../ports/stage-secret.port";
import type { LinkBases } from "../upload/upload-settings";
import type { DeviceClaim } from "./device-cookie";
import type { EnrollmentStore } from "./device-store.port";

/**
 * The device cookie's hand-off to the tester portal's host (docs/devices.md "The portal on a
 * separate share host"). The enroll flow ends on the share host, whose result page sets
 * `hangar_ios_device` there; with `HANGAR_SHARE_BASE_URL` on another host the portal (the
 * dashboard's origin) never sees that cookie. So when an enrollment came from the portal, the
 * result page sends the tester back to `{public}<portal page>#device=<hand-off>`, and the portal's
 * page redeems it with a same-origin `POST /api/tester/device`, whose answer sets the cookie on
 * the dashboard's host.
 *
 * The hand-off: `v1.<base64url(JSON {h: enrollment hash, x: expiry})>.<HMAC-SHA256>` under the
 * `device-cookie` stage secret (its own label), good for 5 minutes and once (the redemption marks
 * the enrollment in one conditional update), and only for the tester session whose address
 * started the enrollment: a hand-off sent to someone else opens nothing. It names the enrollment
 * by its hash (never the challenge, which opens the result page) and carries no UDID; in the
 * fragment it is neither sent to a server nor in a Referer, and the page takes it out of the
 * address before it posts it.
 *
 * Rejected: a GET on the dashboard's host that sets the cookie (any link could then relabel a
 * browser), and the portal asking the share host from the browser (a cross-site request, which
 * SameSite=Lax and Safari's tracking prevention keep the cookie out of).
 */

/** How long the result page's way back to the portal carries a usable hand-off. */
export const DEVICE_HANDOFF_TTL_SECONDS = 5 * 60;

/** The portal pages an enrollment may come back to (enrollment.ts accepts the same). */
export const isPortalReturn = (returnTo: string) => returnTo === "/apps" || /^\/tester\/apps\/[A-Za-z0-9_]{1,64}$/.test(returnTo);

const mac = (secret: Uint8Array, body: string) => createHmac("sha256", secret).update(`device-handoff\n${body}`, "utf8").digest("base64url");

export function signDeviceHandoff(secret: Uint8Array, challengeHash: string, now: Date): string {
  const body = Buffer.from(JSON.stringify({ h: challengeHash, x: Math.floor(now.getTime() / 1000) + DEVICE_HANDOFF_TTL_SECONDS }), "utf8").toString("base64url");
  return `v1.${body}.${mac(secret, body)}`;
}

/** The enrollment hash a hand-off names, or undefined when it is malformed, not ours or expired. Never throws. */
export function parseDeviceHandoff(secret: Uint8Array, token: string, now: Date): string | undefined {
  const [version, body, tag, ...rest] = token.split(".");
  if (version !== "v1" || !body || !tag || rest.length > 0) return undefined;
  const expected = Buffer.from(mac(secret, body), "utf8");
  const given = Buffer.from(tag, "utf8");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const { h, x } = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof h !== "string" || !/^[0-9a-f]{64}$/.test(h) || typeof x !== "number" || x * 1000 <= now.getTime()) return undefined;
    return h;
  } catch {
    return undefined;
  }
}

/**
 * Where the result page sends the tester back: the page's path on the share host, or, for a
 * portal page when the portal is on another host, its address there with a fresh hand-off.
 */
export function enrollmentReturnUrl(secret: Uint8Array, enrollment: { challengeHash: string; returnTo: string }, bases: LinkBases, now: Date): string {
  if (!isPortalReturn(enrollment.returnTo) || new URL(bases.publicBaseUrl).origin === new URL(bases.shareBaseUrl).origin) return enrollment.returnTo;
  return `${bases.publicBaseUrl}${enrollment.returnTo}#device=${signDeviceHandoff(secret, enrollment.challengeHash, now)}`;
}

/** A hand-off that is malformed, expired, used, or another tester's: one answer for all. */
export class DeviceHandoffError extends ValidationError {
  constructor() {
    super([{ field: "handoff", message: "is unknown, used or expired: tap “Check this iPhone” again" }]);
  }
}

export interface DeviceHandoffDeps {
  enrollments: Pick<EnrollmentStore, "enrollment" | "takeHandoff">;
  deviceCookieSecret: StageSecret;
  clock: Clock;
}

/**
 * `POST /api/tester/device` `{handoff}` (the tester's session): the device the hand-off's
 * enrollment registered, for the caller to set the device cookie on this host. Checked before any
 * read: the MAC and the expiry; then the enrollment (live, answered, started by this tester) and
 * its single use.
 */
export async function redeemDeviceHandoff(deps: DeviceHandoffDeps, tester: { email: string }, input: { handoff: string }): Promise<DeviceClaim> {
  const now = deps.clock.now();
  const hash = parseDeviceHandoff(await deps.deviceCookieSecret.bytes(), input.handoff, now);
  if (!hash) throw new DeviceHandoffError();
  const enrollment = await deps.enrollments.enrollment(hash, now);
  if (!enrollment?.device || enrollment.email !== tester.email || !isPortalReturn(enrollment.returnTo)) throw new DeviceHandoffError();
  if (!(await deps.enrollments.takeHandoff(hash, now))) throw new DeviceHandoffError();
  return enrollment.device;
}
