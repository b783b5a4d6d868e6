import { describe, expect, it } from "vitest";
import { admits, rateDecision, rateWindow } from "../../src";
import { CountingRateLimiter } from "../support/fakes";

const settings = { limit: 3, windowSeconds: 60 };

describe("fixed-window rules", () => {
  it("puts every instant of a minute in one window that ends on the minute, kept one window longer", () => {
    const first = rateWindow(settings, new Date("2026-11-21T23:00:00.000Z"));
    const last = rateWindow(settings, new Date("2026-11-21T23:00:59.999Z"));
    expect(last).toEqual(first);
    expect(first.resetAt - first.start).toBe(60);
    expect(first.resetAt).toBe(Date.parse("2026-11-21T23:01:00Z") / 1000);
    expect(first.expiresAt).toBe(first.resetAt + 60);
    expect(rateWindow(settings, new Date("2026-11-21T23:01:00.000Z")).start).toBe(first.resetAt);
  });

  it("admits exactly `limit` hits per window", () => {
    expect([0, 1, 2, 3, 4].map((before) => admits(settings, before))).toEqual([true, true, true, false, false]);
  });

  it("says what is left, and nothing left when refused", () => {
    const window = rateWindow(settings, new Date("2026-11-21T23:00:30Z"));
    expect(rateDecision(settings, window, 1)).toEqual({ allowed: true, state: { limit: 3, remaining: 2, resetAt: window.resetAt } });
    expect(rateDecision(settings, window, 3)).toEqual({ allowed: true, state: { limit: 3, remaining: 0, resetAt: window.resetAt } });
    expect(rateDecision(settings, window, undefined)).toEqual({ allowed: false, state: { limit: 3, remaining: 0, resetAt: window.resetAt } });
  });

  it("drive the unit tests' limiter: `limit` per subject and window, a new window starts again", async () => {
    const limiter = new CountingRateLimiter(3);
    const at = new Date("2026-11-21T23:00:10Z");
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await limiter.hit("s", at)).allowed);
    expect(answers).toEqual([true, true, true, false, false]);
    expect((await limiter.hit("other", at)).allowed).toBe(true);
    expect(await limiter.hit("s", new Date("2026-11-21T23:01:00Z"))).toMatchObject({ allowed: true, state: { remaining: 2 } });
  });
});
