import type { RateLimitDecision } from "../ports";

export interface RateLimitSettings {
  limit: number;
  windowSeconds: number;
}

export interface RateWindow {
  /** Epoch second the window starts (a multiple of the window's length). */
  start: number;
  /** Epoch second it ends: `X-RateLimit-Reset`. */
  resetAt: number;
  /** When the counter item may go (DynamoDB TTL): one window past its end. */
  expiresAt: number;
}

/**
 * The rules of a fixed-window limit, apart from where the count is kept: which window `now` falls
 * in, whether a hit is admitted, and what the answer says. The DynamoDB limiter applies `admits`
 * as its update's condition (the count before the hit below the limit) and both it and the unit
 * tests' in-memory limiter build their decisions here, so a wrong rule fails the unit tests too.
 */
export function rateWindow(settings: RateLimitSettings, now: Date): RateWindow {
  const seconds = Math.floor(now.getTime() / 1000);
  const start = seconds - (seconds % settings.windowSeconds);
  return { start, resetAt: start + settings.windowSeconds, expiresAt: start + 2 * settings.windowSeconds };
}

/** Whether one more hit is admitted when `countBefore` hits were admitted in the window. */
export const admits = (settings: RateLimitSettings, countBefore: number): boolean => countBefore < settings.limit;

/** The answer to a hit: admitted with the count it made, or refused (`countAfter` undefined). */
export function rateDecision(settings: RateLimitSettings, window: RateWindow, countAfter: number | undefined): RateLimitDecision {
  const { limit } = settings;
  if (countAfter === undefined) return { allowed: false, state: { limit, remaining: 0, resetAt: window.resetAt } };
  return { allowed: true, state: { limit, remaining: Math.max(0, limit - countAfter), resetAt: window.resetAt } };
}
