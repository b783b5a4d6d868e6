import { handleWebhookTask } from "@hangar/core/webhooks";
import { DynamoWebhookQueue } from "@hangar/core/webhooks-dynamo";
import { webhookQueue } from "../composition/events";
import { deliveryDeps } from "../composition/webhooks";
import { logger } from "../observability/logger";

/** Tasks handled at once: enough for a few slow receivers not to hold up the others. */
const MAX_IN_FLIGHT = 8;

/**
 * The local stack's delivery worker (packages/local's webhook-worker.ts runs it on a timer): claims
 * the due tasks of the table's queue partition and hands each to the same handleWebhookTask the
 * SQS-triggered function runs on AWS. A task is deleted once handled; one whose handling threw
 * comes back when its claim lapses, as an SQS message would.
 */
export function localWebhookWorker(): { tick(): Promise<void>; idle(): Promise<void> } {
  const queue = webhookQueue();
  if (!(queue instanceof DynamoWebhookQueue)) throw new Error("the local webhook worker runs only without HANGAR_WEBHOOK_QUEUE_URL");
  const running = new Set<Promise<void>>();
  return {
    async tick() {
      const room = MAX_IN_FLIGHT - running.size;
      if (room <= 0) return;
      for (const { id, task } of await queue.claimDue(new Date(), room)) {
        const run = handleWebhookTask(deliveryDeps(), task)
          .then(() => queue.done(id))
          .catch((error: unknown) => logger.error("webhook task failed", { error: error as Error }))
          .finally(() => running.delete(run));
        running.add(run);
      }
    },
    idle: async () => {
      await Promise.all(running);
    },
  };
}
