import type { EventPublisher, WebhookQueue } from "@hangar/core/webhooks";
import { DynamoWebhookQueue } from "@hangar/core/webhooks-dynamo";
import { SqsWebhookQueue } from "@hangar/core/webhooks-sqs";
import { logger } from "../observability/logger";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The webhook queue: the stage's SQS queue on AWS (HANGAR_WEBHOOK_QUEUE_URL, set by the stack),
 * the table's queue partition on the local stack, which its in-process worker polls.
 */
export const webhookQueue = once((): WebhookQueue => {
  const { db, settings } = getRuntime();
  return settings.HANGAR_WEBHOOK_QUEUE_URL
    ? new SqsWebhookQueue(settings.HANGAR_WEBHOOK_QUEUE_URL, settings.AWS_REGION)
    : new DynamoWebhookQueue(db, settings.HANGAR_TABLE_NAME);
});

/**
 * What the use cases publish their events to (docs/webhooks.md): one queue send per event, the
 * fan-out to endpoints is the delivery worker's. A failed send is logged and swallowed: the
 * change it reports is stored, and failing the request would make the client retry a change
 * that already happened.
 *
 * On the local stack the queue is the table, so an event of a workspace without webhooks is not
 * written at all (one Query of at most one key instead of the PutItem): the table then holds
 * nothing about a build beyond its own items, as on AWS, where the queue is not in the table.
 */
export const eventPublisher = once(
  (): EventPublisher => ({
    publish: async (event) => {
      try {
        const queue = webhookQueue();
        if (queue instanceof DynamoWebhookQueue && !(await queue.any(event.workspaceId))) return;
        await queue.send({ kind: "event", event }, 0);
      } catch (error) {
        logger.warn("could not publish an event", { error: error as Error, event: event.type, workspaceId: event.workspaceId });
      }
    },
  }),
);
