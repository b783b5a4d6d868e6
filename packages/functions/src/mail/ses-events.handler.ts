import type { SNSEvent } from "aws-lambda";
import { recordMailEvent, ValidationError } from "@hangar/core";
import { mailEventDeps } from "../composition/mail-events";
import { logger } from "../observability/logger";
import { flushMetrics, record } from "../observability/metrics";

/**
 * The SES configuration set's bounce and complaint events, delivered by SNS (stacks wire the
 * topic): each record's `Sns.Message` is one SES event-publishing JSON document. Permanent bounces
 * and complaints suppress the address (core's recordMailEvent); every mail path then skips it.
 *
 * A message that is not JSON or not an SES event is logged and dropped: retrying cannot fix it.
 * A storage failure throws, so Lambda retries the asynchronous invocation (twice) and then hands
 * the event to the function's on-failure destination: a lost bounce would mean mailing a dead
 * address again. Recording is idempotent, so a retried batch is harmless.
 */
export async function handler(event: SNSEvent): Promise<void> {
  const deps = mailEventDeps();
  try {
    for (const snsRecord of event.Records ?? []) {
      let message: unknown;
      try {
        message = JSON.parse(snsRecord.Sns?.Message ?? "");
      } catch {
        logger.error("SES event is not JSON: dropped", { messageId: snsRecord.Sns?.MessageId });
        continue;
      }
      try {
        const outcome = await recordMailEvent(deps, message);
        if (outcome.eventType === "Bounce") record.mailBounces(outcome.suppressed.length + outcome.bouncedTransient.length);
        // Counts only: the addresses stay out of the logs (the suppression items hold them).
        logger.info("SES event", {
          eventType: outcome.eventType,
          suppressed: outcome.suppressed.length,
          bouncedTransient: outcome.bouncedTransient.length,
          messageId: snsRecord.Sns?.MessageId,
        });
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        logger.error("not an SES event: dropped", { messageId: snsRecord.Sns?.MessageId, issues: error.issues });
      }
    }
  } finally {
    flushMetrics();
  }
}
