import { describe, expect, it } from "vitest";
import { checkLinkPassword, type LinkPasswordDeps } from "../../src/links";
import { defaultRateRules } from "../../src/limits/rate-rules";
import type { PasswordHasher } from "../../src";
import { CountingRateLimiter } from "../support/fakes";

/** `hash:<password>` hashes; records every verify so a test sees whether the hash ran. */
class PlainHasher implements PasswordHasher {
  verifies = 0;
  async hash(password: string) {
    return `hash:${password}`;
  }
  async verify(password: string, stored: string | undefined) {
    this.verifies++;
    return { valid: stored === `hash:${password}`, needsRehash: false };
  }
}

function world() {
  const hasher = new PlainHasher();
  const limits = {
    perClient: new CountingRateLimiter(defaultRateRules.linkPassword.limit),
    perLinkClient: new CountingRateLimiter(defaultRateRules.linkPasswordPerLink.limit),
    ceiling: new CountingRateLimiter(defaultRateRules.linkPasswordCeiling.limit),
  };
  const deps: LinkPasswordDeps = { hasher, limits };
  return { deps, hasher, limits };
}

const link = { userKey: "LINK0001", passwordHash: "hash:open sesame" };
const now = new Date("2026-11-25T12:00:00Z");

describe("link passwords", () => {
  it("M3: ten wrong answers from one address hold that address only; the right answer from another opens the link", async () => {
    const { deps, hasher } = world();
    for (let i = 0; i < 10; i++) expect(await checkLinkPassword(deps, link, `guess ${i}`, "198.18.0.1", now)).toEqual({ outcome: "wrong" });
    const held = await checkLinkPassword(deps, link, "open sesame", "198.18.0.1", now);
    expect(held.outcome).toBe("limited");
    expect(hasher.verifies).toBe(10);
    expect(await checkLinkPassword(deps, link, "open sesame", "203.0.113.9", now)).toEqual({ outcome: "right" });
  });

  it("past the link's ceiling a wrong answer ends that client's allowance, while a right answer within its allowance still opens", async () => {
    const { deps } = world();
    // Three wrong answers each from ten addresses: the ceiling (30) is full, no client over its own limit.
    for (let a = 0; a < 10; a++) for (let i = 0; i < 3; i++) await checkLinkPassword(deps, link, `guess ${a}.${i}`, `198.18.1.${a}`, now);
    expect(await checkLinkPassword(deps, link, "another guess", "198.18.2.1", now)).toEqual({ outcome: "wrong" });
    // That address got one try instead of ten.
    expect((await checkLinkPassword(deps, link, "open sesame", "198.18.2.1", now)).outcome).toBe("limited");
    // A tester who has not guessed is let in, and so is one of the guessing addresses that is still within its allowance.
    expect(await checkLinkPassword(deps, link, "open sesame", "203.0.113.10", now)).toEqual({ outcome: "right" });
    expect(await checkLinkPassword(deps, link, "open sesame", "198.18.1.0", now)).toEqual({ outcome: "right" });
  });

  it("a right answer gives its attempt back, so typos before it do not add up", async () => {
    const { deps, limits } = world();
    await checkLinkPassword(deps, link, "typo", "203.0.113.11", now);
    await checkLinkPassword(deps, link, "open sesame", "203.0.113.11", now);
    expect(limits.perLinkClient.counts.get("LINK0001:203.0.113.11")).toBe(1);
  });

  it("an empty answer is wrong, after the same hash work", async () => {
    const { deps, hasher } = world();
    expect(await checkLinkPassword(deps, link, undefined, "203.0.113.12", now)).toEqual({ outcome: "wrong" });
    expect(hasher.verifies).toBe(1);
  });
});
