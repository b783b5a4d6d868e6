import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { buildMailJobOf } from "@hangar/core/distribution";
import { runBuildMailJob } from "../composition/build-mail";
import { getRuntime } from "../composition/root";
import { logger } from "../observability/logger";
import { flushMetrics } from "../observability/metrics";
import { buildMailPace } from "./build-mail-pace";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The build-mail sender on AWS, fed by the build-mail queue (stacks/api-stack.ts): one message
 * per mail (core's deliverBuildMail claims, sends, settles). Sends one after the other, each
 * start `intervalMs` after the last (build-mail-pace.ts), so the function's reserved concurrency
 * times this pace is SES's per-second quota.
 *
 * A mail that could not be sent (SES throttled or down) is reported as a batch item failure: SQS
 * makes only that message visible again after the visibility timeout (the recipient's lease is
 * released at once, so the retry claims it), and after BUILD_MAIL_MAX_RECEIVES receives moves it
 * to the dead-letter queue (alarmed). A message that is not a job is logged and dropped.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const { intervalMs } = buildMailPace(getRuntime().settings.HANGAR_BUILD_MAIL_PER_SECOND);
  const failures: { itemIdentifier: string }[] = [];
  let last = 0;
  try {
    for (const message of event.Records ?? []) {
      let raw: unknown;
      try {
        raw = JSON.parse(message.body);
      } catch {
        raw = undefined;
      }
      const job = buildMailJobOf(raw);
      if (!job) {
        logger.error("build-mail message is not a job: dropped", { messageId: message.messageId });
        continue;
      }
      const wait = last + intervalMs - Date.now();
      if (wait > 0) await sleep(wait);
      last = Date.now();
      try {
        await runBuildMailJob(job);
      } catch (error) {
        logger.warn("build mail will be retried", { error: error as Error, messageId: message.messageId });
        failures.push({ itemIdentifier: message.messageId });
      }
    }
  } finally {
    flushMetrics();
  }
  return { batchItemFailures: failures };
}
