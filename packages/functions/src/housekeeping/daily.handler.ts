import type { Context, ScheduledEvent } from "aws-lambda";
import { logger } from "../observability/logger";
import { flushMetrics } from "../observability/metrics";
import { runDailyExpiryWarnings } from "./daily-expiry";
import { runDailyRetention } from "./daily-retention";

/**
 * Once a day (an EventBridge schedule on AWS; a timer in the local stack): release-safety
 * housekeeping (docs/release-safety.md). Retention first, so no warning is mailed about a build
 * the policy removes the same morning. Each part is idempotent: a run retried or run twice in a
 * day removes nothing more and mails nobody twice.
 */
export async function handler(_event: ScheduledEvent | Record<string, never>, _context?: Pick<Context, "getRemainingTimeInMillis">): Promise<void> {
  try {
    const now = new Date();
    const retention = await runDailyRetention(now);
    const expiry = await runDailyExpiryWarnings(now);
    logger.info("daily housekeeping", { retention, expiry });
  } finally {
    flushMetrics();
  }
}
