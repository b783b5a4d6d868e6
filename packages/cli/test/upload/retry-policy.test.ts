import { describe, expect, it } from "vitest";
import {
  HangarApiError,
  HangarAuthError,
  HangarNetworkError,
  HangarRateLimitError,
  HangarRejectedError,
  RATE_LIMIT_JITTER_MS,
  backoffDelayMs,
  defaultRetryOptions,
  parseRateLimitReset,
  parseRetryAfter,
  retryDelayMs,
  serverWaitMs,
  type ApiErrorInit,
} from "../../src";

const NOW = Date.parse("2025-03-01T12:00:00Z");
const options = { ...defaultRetryOptions, baseDelayMs: 500, maxDelayMs: 20_000, maxRateLimitWaitMs: 60_000 };
const api = (init: Partial<ApiErrorInit>): ApiErrorInit => ({ step: "presign", status: 500, code: "internal_error", message: "boom", ...init });

describe("backoffDelayMs (full jitter)", () => {
  it("stays in [0, min(max, base·2^retry)) for the whole range of the random source", () => {
    for (let retry = 0; retry < 12; retry++) {
      const ceiling = Math.min(20_000, 500 * 2 ** retry);
      expect(backoffDelayMs(retry, options, () => 0)).toBe(0);
      const top = backoffDelayMs(retry, options, () => 0.999999);
      expect(top).toBeLessThan(ceiling);
      expect(top).toBeGreaterThanOrEqual(ceiling - 1);
    }
  });

  it("doubles the ceiling per retry, then caps it", () => {
    const half = (retry: number) => backoffDelayMs(retry, options, () => 0.5);
    expect([0, 1, 2, 3, 4, 5, 6].map(half)).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000]);
    expect(half(60)).toBe(10_000);
  });

  it("spreads waits over the interval instead of clumping them", () => {
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const waits = Array.from({ length: 2000 }, () => backoffDelayMs(3, options, random));
    const ceiling = 4000;
    expect(Math.min(...waits)).toBeLessThan(ceiling * 0.05);
    expect(Math.max(...waits)).toBeGreaterThan(ceiling * 0.95);
    const belowHalf = waits.filter((w) => w < ceiling / 2).length;
    expect(belowHalf).toBeGreaterThan(800);
    expect(belowHalf).toBeLessThan(1200);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("0", NOW)).toBe(0);
    expect(parseRetryAfter("2", NOW)).toBe(2000);
    expect(parseRetryAfter(" 120 ", NOW)).toBe(120_000);
  });

  it("reads an HTTP-date relative to now, never negative", () => {
    expect(parseRetryAfter("Sat, 01 Mar 2025 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Sat, 01 Mar 2025 11:00:00 GMT", NOW)).toBe(0);
  });

  it("ignores what is neither", () => {
    for (const bad of [undefined, null, "", "soon", "-1", "1.5", "1e3", "2025-03-01"]) expect(parseRetryAfter(bad, NOW)).toBeUndefined();
  });
});

describe("parseRateLimitReset and serverWaitMs", () => {
  it("turns the window end (epoch seconds) into a wait from now", () => {
    expect(parseRateLimitReset(String(NOW / 1000 + 42), NOW)).toBe(42_000);
    expect(parseRateLimitReset(String(NOW / 1000 - 5), NOW)).toBe(0);
    expect(parseRateLimitReset("later", NOW)).toBeUndefined();
  });

  it("prefers Retry-After over X-RateLimit-Reset", () => {
    const both = new Headers({ "Retry-After": "3", "X-RateLimit-Reset": String(NOW / 1000 + 50) });
    expect(serverWaitMs(both, NOW)).toBe(3000);
    expect(serverWaitMs(new Headers({ "X-RateLimit-Reset": String(NOW / 1000 + 50) }), NOW)).toBe(50_000);
    expect(serverWaitMs(new Headers(), NOW)).toBeUndefined();
  });
});

describe("retryDelayMs", () => {
  it("waits what a 429 asks for plus a little jitter, and gives up when it asks for too long", () => {
    const limited = (ms: number | undefined) => new HangarRateLimitError(api({ status: 429, code: "rate_limited", retryAfterMs: ms }));
    expect(retryDelayMs(limited(2000), 0, options, () => 0)).toBe(2000);
    expect(retryDelayMs(limited(2000), 0, options, () => 0.999)).toBe(2000 + RATE_LIMIT_JITTER_MS - 1);
    expect(retryDelayMs(limited(60_001), 0, options, () => 0)).toBeUndefined();
    // no hint at all: backoff (half of 500·2^2) plus the same jitter (half of 250)
    expect(retryDelayMs(limited(undefined), 2, options, () => 0.5)).toBe(1000 + 125);
  });

  it("backs off on network errors and 5xx, using a 503's Retry-After as a floor", () => {
    expect(retryDelayMs(new HangarNetworkError("put", "ECONNRESET"), 1, options, () => 0.5)).toBe(500);
    expect(retryDelayMs(new HangarApiError(api({ status: 500 })), 0, options, () => 0.5)).toBe(250);
    expect(retryDelayMs(new HangarApiError(api({ status: 503, retryAfterMs: 1000 })), 0, options, () => 0.5)).toBe(1000);
    expect(retryDelayMs(new HangarApiError(api({ status: 503, retryAfterMs: 1000 })), 5, options, () => 0.5)).toBe(8000);
  });

  it("retries a refused PUT address at once (a fresh one is presigned), nothing else of 4xx", () => {
    expect(retryDelayMs(new HangarApiError(api({ step: "put", status: 403, code: "AccessDenied" })), 0, options, () => 0.5)).toBe(0);
    expect(retryDelayMs(new HangarApiError(api({ step: "put", status: 400 })), 0, options, () => 0.5)).toBeUndefined();
    expect(retryDelayMs(new HangarAuthError(api({ status: 401 })), 0, options, () => 0.5)).toBeUndefined();
    expect(retryDelayMs(new HangarAuthError(api({ status: 403 })), 0, options, () => 0.5)).toBeUndefined();
    expect(retryDelayMs(new HangarRejectedError(api({ status: 422, step: "complete" })), 0, options, () => 0.5)).toBeUndefined();
    expect(retryDelayMs(new HangarApiError(api({ status: 409, step: "complete", code: "object_missing" })), 0, options, () => 0.5)).toBeUndefined();
  });
});
