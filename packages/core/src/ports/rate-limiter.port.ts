import type { RateLimitState } from "../errors/domain-errors";

export interface RateLimitDecision {
  allowed: boolean;
  state: RateLimitState;
}

export interface RateLimiter {
  /** Counts one request for `subject` in the window containing `now`, atomically. */
  hit(subject: string, now: Date): Promise<RateLimitDecision>;
  /** Gives back a hit that should not count (the credentials turned out wrong). */
  refund(subject: string, now: Date): Promise<void>;
}
