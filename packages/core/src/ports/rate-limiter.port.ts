import type { RateLimitState } from "../errors/domain-errors";

export interface RateLimitDecision {
  allowed: boolean;
  state: RateLimitState;
}

/** One rule's numbers: at most `limit` hits per subject in each fixed window of `windowSeconds`. */
export interface RateRule {
  limit: number;
  windowSeconds: number;
}

/**
 * A fixed-window counter per subject, bound to one rule (its limit and window). The DynamoDB
 * adapter holds every rule of the service by name (limits/rate-rules.ts) and hands out one of
 * these per rule, so one implementation serves API keys, sign-in, mail and the share links.
 * Counters of different rules never mix: the rule's name is part of the counter's key.
 */
export interface RateLimiter {
  /**
   * Counts `cost` (default 1) for `subject` in the window containing `now`, atomically; refused,
   * and nothing counted, when the window already holds `limit`.
   */
  hit(subject: string, now: Date, cost?: number): Promise<RateLimitDecision>;
  /** Gives back a hit that should not count (the credentials turned out right, or wrong for API keys). */
  refund(subject: string, now: Date): Promise<void>;
  /** Forgets the subject's count in the current window (a password reset clears the failures). */
  clear(subject: string, now: Date): Promise<void>;
}
