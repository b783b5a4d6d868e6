import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { handleWebhookTask, type WebhookTask } from "@hangar/core/webhooks";
import { deliveryDeps } from "../composition/webhooks";
import { logger } from "../observability/logger";
import { flushMetrics } from "../observability/metrics";

/**
 * The delivery worker on AWS (docs/webhooks.md, "Delivery"): triggered by the webhook queue, a
 * few messages a batch, each a fan-out or one attempt (core's handleWebhookTask). A message whose
 * handling threw is reported back as failed (partial batch response) and comes back after the
 * queue's visibility timeout; after five receives it goes to the dead-letter queue (alarmed).
 * A receiver's failure is not a throw: it is a recorded attempt and a re-queued retry.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse["batchItemFailures"] = [];
  try {
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          await handleWebhookTask(deliveryDeps(), JSON.parse(record.body) as WebhookTask & { notBefore?: string });
        } catch (error) {
          logger.error("webhook task failed", { error: error as Error, messageId: record.messageId });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
  } finally {
    flushMetrics();
  }
  return { batchItemFailures: failures };
}

/** The local stack's worker: the same handling, for tasks its poller claimed from the table. */
export const handleLocalTask = (task: WebhookTask & { notBefore?: string }) => handleWebhookTask(deliveryDeps(), task);
