import * as z from "zod/mini";
import { isCalendarDateTime } from "../validation/date-time";
import { LONE_SURROGATE } from "../validation/unicode";

/** Far enough for any release; beyond it an expiry is almost surely a typo (year 20260). */
const MAX_EXPIRY_MS = 5 * 366 * 86_400_000;

/**
 * A password a tester types to open a page: a share link's, a project's app page's. Set by the
 * owner and shared with testers by other means.
 */
export const LinkPassword = z.string().check(
  z.minLength(4, "must be at least 4 characters"),
  z.maxLength(256, "must be at most 256 characters"),
  z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v), "must not contain control characters"),
  z.refine((v) => v.trim().length > 0, "must contain something other than spaces"),
  // No browser form can send one (it becomes U+FFFD), so testers could never type it.
  z.refine((v) => !LONE_SURROGATE.test(v), "must be well-formed Unicode (an unpaired surrogate cannot be typed)"),
);

export const ShareSettings = z.strictObject({
  enabled: z.optional(z.boolean({ error: "must be true or false" })),
  /** ISO 8601 date-time with a zone; null clears it. */
  expiresAt: z.optional(
    z.nullable(
      z.string().check(
        z.maxLength(40, "must be an ISO 8601 date-time"),
        z.refine((v) => isCalendarDateTime(v), "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-31T23:59:00Z"),
        z.refine((v) => Number.isNaN(Date.parse(v)) || Date.parse(v) < Date.now() + MAX_EXPIRY_MS, "must be within five years"),
      ),
    ),
  ),
  /** Typed by the owner and shared with testers by other means; null removes it. */
  password: z.optional(z.nullable(LinkPassword)),
  maxDownloads: z.optional(
    z.nullable(
      z.number({ error: "must be an integer" }).check(
        z.refine((n) => Number.isInteger(n), "must be an integer"),
        z.minimum(1, "must be at least 1"),
        z.maximum(1_000_000, "must be at most 1000000"),
      ),
    ),
  ),
});
export type ShareSettings = z.infer<typeof ShareSettings>;

/** The password form of a protected share page (application/x-www-form-urlencoded). */
export const MAX_LINK_PASSWORD = 256;

/**
 * `/share/{userKey}` and `/download/{userKey}`: bounded only. The exact shape of a key (6–32
 * letters and digits) is the visit's to check, after the per-client limit has counted the
 * request: a malformed key costs no lookup but counts like any other.
 */
export const ShareKeyRef = z.object({ userKey: z.string().check(z.minLength(1, "is required"), z.maxLength(64, "is not a share key")) });
export type ShareKeyRef = z.infer<typeof ShareKeyRef>;
