import type { Context, ScheduledEvent } from "aws-lambda";
import { logger } from "../observability/logger";
import { flushMetrics } from "../observability/metrics";
import { runDailyExpiryWarnings } from "./daily-expiry";
import { runDailyRetention } from "./daily-retention";

/**
 * One day's release-safety housekeeping at `now` (docs/release-safety.md). Retention first, so
 * no warning is mailed about a build the policy removes the same morning. Each part is
 * idempotent: a run retried or run twice in a day removes nothing more and mails nobody twice.
 * The local stack's trigger (packages/local/src/housekeeping/daily-housekeeping.ts) calls this
 * with the time a test names.
 */
export async function runDailyHousekeeping(now: Date): Promise<{ retention: Record<string, number>; expiry: Record<string, number> }> {
  const retention = await runDailyRetention(now);
  const expiry = await runDailyExpiryWarnings(now);
  logger.info("daily housekeeping", { retention, expiry });
  return { retention, expiry };
}

/** Once a day: an EventBridge schedule on AWS (stacks/api-stack.ts); a timer in the local stack. */
export async function handler(_event: ScheduledEvent | Record<string, never>, _context?: Pick<Context, "getRemainingTimeInMillis">): Promise<void> {
  try {
    await runDailyHousekeeping(new Date());
  } finally {
    flushMetrics();
  }
}
