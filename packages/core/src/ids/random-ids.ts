import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 (randomInt is rejection-sampled, so no modulo bias). */
function base62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** The identifiers core needs, injectable so tests can pin them. */
export interface IdSource {
  fileId(): string;
  /** Share key: 12 base62 characters ≈ 71 bits, above the 60 bits an unguessable link needs. */
  userKey(): string;
  clientId(): string;
  /** 32 random bytes, base64url: the API key secret, shown once and stored only as a hash. */
  clientSecret(): string;
  projectId(): string;
  userId(): string;
}

export const randomIds: IdSource = {
  fileId: () => `fil_${base62(20)}`,
  userKey: () => base62(12),
  clientId: () => `hgr_${base62(20)}`,
  clientSecret: () => `hgs_${randomBytes(32).toString("base64url")}`,
  projectId: () => `prj_${base62(16)}`,
  userId: () => `usr_${base62(16)}`,
};

/**
 * The one hash of a random secret or token as stored (API secrets, sessions, mail tokens, install,
 * join and update-check links, enrollment challenges: each module names it for its item). SHA-256
 * is right for them: they are at least 128-bit random, so there is nothing to brute-force and a
 * slow password hash would only add latency to every request.
 */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function secretMatches(secret: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), "hex");
  const expected = Buffer.from(expectedHash, "hex");
  // Compare equal-length buffers only; a malformed stored hash still costs one comparison.
  if (expected.length !== actual.length) {
    timingSafeEqual(actual, actual);
    return false;
  }
  return timingSafeEqual(actual, expected);
}
