import {
  HangarApiError,
  HangarNetworkError,
  HangarRateLimitError,
  isRefusedUploadAddress,
  type HangarClientError,
} from "./client-errors";

export interface RetryOptions {
  /** Retries of one step after its first attempt (5xx, network errors, 429, a refused PUT address). */
  maxRetries: number;
  /** Budget of the whole upload, waits and retries included; in-flight requests are aborted at its end. */
  timeoutMs: number;
  /** A presign or complete call without an answer for this long counts as a network error. */
  requestTimeoutMs: number;
  /** A PUT with no bytes moving on its socket for this long counts as a network error. */
  stallTimeoutMs: number;
  /** First backoff ceiling; it doubles per retry up to `maxDelayMs` (the wait is random below it). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A 429 asking for a longer wait than this fails at once rather than parking a CI job. */
  maxRateLimitWaitMs: number;
}

export const defaultRetryOptions: RetryOptions = {
  maxRetries: 5,
  timeoutMs: 60 * 60_000,
  requestTimeoutMs: 90_000,
  stallTimeoutMs: 60_000,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxRateLimitWaitMs: 5 * 60_000,
};

/** Time and chance, injectable so tests can check waits without waiting. */
export interface RetryClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Uniform in [0, 1). */
  random(): number;
}

export const systemRetryClock: RetryClock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * "Full jitter" (AWS Architecture Blog, Exponential Backoff and Jitter): uniform in
 * [0, min(max, base·2^retry)). Spreading retries of many CI jobs hitting the same outage beats
 * equal or decorrelated waits at draining the herd.
 */
export function backoffDelayMs(retry: number, options: Pick<RetryOptions, "baseDelayMs" | "maxDelayMs">, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Undefined when absent or unusable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only accept something shaped like an HTTP-date: Date.parse takes far too much ("1", "x 2").
  if (!/^[A-Za-z]{3},? /.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** `X-RateLimit-Reset`: Unix epoch seconds at which the window ends → ms from now (never negative). */
export function parseRateLimitReset(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Math.max(0, Number(value.trim()) * 1000 - nowMs);
}

/** How long the server asked us to wait: Retry-After wins, else the end of the rate-limit window. */
export function serverWaitMs(headers: { get(name: string): string | null }, nowMs: number): number | undefined {
  return parseRetryAfter(headers.get("retry-after"), nowMs) ?? parseRateLimitReset(headers.get("x-ratelimit-reset"), nowMs);
}

/**
 * Added to a server-given wait: the window's end is given in whole seconds and clocks differ a
 * little, and jobs released at the same instant would collide again.
 */
export const RATE_LIMIT_JITTER_MS = 250;

/**
 * How long to wait before retry number `retry` (0 = first retry) of a failed call, or undefined
 * when the error is final. Bounds on count and total time are the caller's.
 */
export function retryDelayMs(error: HangarClientError, retry: number, options: RetryOptions, random: () => number): number | undefined {
  if (error instanceof HangarRateLimitError) {
    const wait = error.retryAfterMs ?? backoffDelayMs(retry, options, random);
    if (wait > options.maxRateLimitWaitMs) return undefined;
    return wait + Math.floor(random() * RATE_LIMIT_JITTER_MS);
  }
  if (error instanceof HangarNetworkError) return backoffDelayMs(retry, options, random);
  if (error instanceof HangarApiError && error.transient) {
    // A 503's Retry-After is a floor; the jitter still spreads the clients that obey it.
    const backoff = backoffDelayMs(retry, options, random);
    return error.retryAfterMs === undefined ? backoff : Math.max(backoff, error.retryAfterMs);
  }
  // A refused PUT address (expired, or storage rejecting the signature): the next attempt gets a
  // fresh address, so there is nothing to wait for.
  if (isRefusedUploadAddress(error)) return 0;
  return undefined;
}
