/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retries"): the waits after the 1st,
 * 2nd, … failed attempt, in seconds, each varied by ±20 % (jitter, so receivers coming back from an
 * outage are not hit by every endpoint's retries in the same second). 15 attempts over about
 * 24 hours: 5 s, 30 s, 2 min, 5 min, 10 min, 30 min, 1 h, 2 h, 2 h, 3 h, 3 h, 4 h, 4 h, 4 h.
 *
 * The local stack can shorten it (HANGAR_WEBHOOK_RETRY_SCHEDULE, e.g. `1,1` for two quick retries:
 * the integration tests use it); the stacks never set it.
 */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [5, 30, 120, 300, 600, 1800, 3600, 7200, 7200, 10_800, 10_800, 14_400, 14_400, 14_400];

/** ±20 %. */
const JITTER = 0.2;

/** The wait before attempt `failed + 1` after `failed` failed attempts, or undefined when none is left. */
export function retryDelaySeconds(schedule: readonly number[], failed: number, random: () => number = Math.random): number | undefined {
  const base = schedule[failed - 1];
  if (base === undefined) return undefined;
  return Math.max(1, Math.round(base * (1 - JITTER + 2 * JITTER * random())));
}

/** Attempts a delivery gets: the first and one per wait of the schedule. */
export const attemptsOf = (schedule: readonly number[]) => schedule.length + 1;

/** The schedule as a setting: comma-separated seconds (1 to 86400, at most 30 of them). */
export function parseRetrySchedule(text: string): number[] | string {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length > 30) return "must list at most 30 waits";
  const waits = parts.map(Number);
  if (waits.some((w) => !Number.isInteger(w) || w < 1 || w > 86_400)) return "must be comma-separated whole seconds from 1 to 86400, e.g. 5,30,120";
  return waits;
}
