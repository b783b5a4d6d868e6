/**
 * The accounts' input rules that need nothing but zod: passwords, tokens, profile text and the
 * shape of an e-mail address. Kept apart from `account.schema.ts` (whose `Email` normalizes a
 * Unicode domain with `node:url`) so the dashboard validates its forms with these very schemas,
 * through `@hangar/core/account-input-schema`, and never restates a rule.
 */
// zod/mini, as everywhere in core: a fifth of zod's weight in the function's cold start.
import * as z from "zod/mini";
import { CONTROL_OR_INVISIBLE, LONE_SURROGATE } from "../validation/unicode";

export const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

// Each pattern is one character class under one quantifier, anchored: linear time whatever the
// input, so no address can make validation backtrack catastrophically (ReDoS). The structure
// (one @, dots between labels) is checked with split(), not with nested quantifiers.
const LOCAL_CHARS = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const LABEL = /^[a-z0-9-]+$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Why an address is refused, or undefined when it is acceptable. Plain dot-atom addresses only
 * (no quoted local parts, comments or IP literals: real mail systems reject them too); a
 * Unicode domain is accepted and stored in its ASCII (punycode) form.
 */
export function emailProblem(email: string): string | undefined {
  if (email.length === 0) return "is required";
  if (email.length > MAX_EMAIL_LENGTH) return `must be at most ${MAX_EMAIL_LENGTH} characters`;
  const at = email.indexOf("@");
  if (at <= 0 || at !== email.lastIndexOf("@")) return "must be an e-mail address like name@example.com";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !LOCAL_CHARS.test(local) || local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return "must be an e-mail address like name@example.com";
  }
  const labels = domain.split(".");
  if (labels.length < 2 || domain.length > 253) return "must be an e-mail address like name@example.com";
  for (const label of labels) {
    if (label.length === 0 || label.length > 63 || !LABEL.test(label) || label.startsWith("-") || label.endsWith("-")) {
      return "must be an e-mail address like name@example.com";
    }
  }
  if (!TLD.test(labels[labels.length - 1]!)) return "must be an e-mail address like name@example.com";
  return undefined;
}

/** Code points, not UTF-16 units: "🔑" is one character to the person typing it. */
export const passwordLength = (s: string) => [...s].length;

export const ONLY_SPACES = "must contain something other than spaces";

/**
 * A new password: NFKC-normalized (the same password typed on two keyboards is one password),
 * 12 to 256 characters. Whether it is too common is checked by the use case (the list loads
 * lazily). The value is never put into an error message.
 */
export const NewPassword = z.pipe(
  z.string().check(z.maxLength(MAX_PASSWORD_LENGTH * 4, `must be at most ${MAX_PASSWORD_LENGTH} characters`)),
  z.transform((s) => s.normalize("NFKC")),
).check(
  z.refine((s) => passwordLength(s) >= MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  z.refine((s) => passwordLength(s) <= MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  // Twelve spaces pass the length rule but are no secret; trim() takes every Unicode space.
  z.refine((s) => s.trim().length > 0, ONLY_SPACES),
  // Hashed as UTF-8, every unpaired surrogate would become U+FFFD: distinct passwords, one hash.
  z.refine((s) => !LONE_SURROGATE.test(s), "must be well-formed Unicode (an unpaired surrogate cannot be typed)"),
);

/** A password being checked (sign-in, current password): any stored password fits, so only bounded. */
export const GivenPassword = z.pipe(
  z.string().check(
    z.minLength(1, "is required"),
    z.maxLength(MAX_PASSWORD_LENGTH * 4, `must be at most ${MAX_PASSWORD_LENGTH} characters`),
  ),
  z.transform((s) => s.normalize("NFKC")),
);

/** 32 random bytes in base64url: exactly 43 characters. Anything else is refused without a lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const Token = z.string().check(z.refine((t) => TOKEN_PATTERN.test(t), "is not a valid link token"));

const profileText = (min: number, max: number) =>
  z.pipe(
    z.string().check(z.maxLength(max * 4, `must be at most ${max} characters`)),
    z.transform((s) => s.normalize("NFC").trim()),
  ).check(
    z.refine((s) => passwordLength(s) >= min, min === 1 ? "is required" : `must be at least ${min} characters`),
    z.refine((s) => passwordLength(s) <= max, `must be at most ${max} characters`),
    z.refine((s) => !CONTROL_OR_INVISIBLE.test(s), "must not contain control or invisible characters"),
  );

export const TokenOnly = z.object({ token: Token });
export type TokenOnly = z.infer<typeof TokenOnly>;

export const ResetConfirm = z.object({ token: Token, newPassword: NewPassword });
export type ResetConfirm = z.infer<typeof ResetConfirm>;

export const ChangePassword = z.object({ currentPassword: GivenPassword, newPassword: NewPassword });
export type ChangePassword = z.infer<typeof ChangePassword>;

/** Characters of a display name and of an organization (the dashboard's fields are sized by them). */
export const MAX_DISPLAY_NAME = 80;
export const MAX_ORGANIZATION = 120;

export const ProfileInput = z.object({
  displayName: profileText(1, MAX_DISPLAY_NAME),
  organization: z.optional(profileText(0, MAX_ORGANIZATION)),
});
export type ProfileInput = z.infer<typeof ProfileInput>;
