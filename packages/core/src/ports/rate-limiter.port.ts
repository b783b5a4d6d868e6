import type { RateLimitState } from "../errors/domain-errors";

export interface RateLimitDecision {
  allowed: boolean;
  state: RateLimitState;
}

/**
 * A fixed-window counter per subject. Each instance has its own limit and window (the DynamoDB
 * adapter takes them at construction), so one implementation serves every rule: API keys
 * (HANGAR_RATE_LIMIT per minute) and the accounts' sign-in and mail limits (accountRateLimits).
 * Subjects of different rules carry different prefixes, so their counters never mix.
 */
export interface RateLimiter {
  /** Counts one request for `subject` in the window containing `now`, atomically. */
  hit(subject: string, now: Date): Promise<RateLimitDecision>;
  /** Gives back a hit that should not count (the credentials turned out wrong). */
  refund(subject: string, now: Date): Promise<void>;
}
