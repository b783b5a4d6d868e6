import type { EventPublisher, WebhookQueue } from "@hangar/core/webhooks";
import { DynamoWebhookQueue, DynamoWebhookStore } from "@hangar/core/webhooks-dynamo";
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
 * How long a container trusts what it last read about a workspace's webhook endpoints. A workspace
 * with none (most) then queues nothing and reads nothing for its events; one with endpoints
 * queues each event at once, the fan-out reading the endpoints at delivery.
 */
export const ENDPOINT_CHECK_TTL_MS = 10_000;
/** Bounds the container's memory: past this many workspaces the cache starts over. */
const ENDPOINT_CHECK_MAX = 10_000;
const endpointChecks = new Map<string, { any: boolean; until: number }>();

/**
 * A workspace's endpoints changed in this container (the webhooks function created one): its next
 * event reads them again instead of trusting a cached "none". Other containers learn of the new
 * endpoint within ENDPOINT_CHECK_TTL_MS; the local stack runs every function in one process, so
 * there the endpoint receives the very next event.
 */
export function forgetEndpointCheck(workspaceId: string): void {
  endpointChecks.delete(workspaceId);
}

/** Where the check reads (the table's webhook items, on AWS as locally). */
const endpointStore = once((): DynamoWebhookStore => {
  const { db, settings } = getRuntime();
  return new DynamoWebhookStore(db, settings.HANGAR_TABLE_NAME);
});

/** Whether to queue an event of this workspace: the cached answer, or one Query of at most one key. */
async function hasEndpoints(workspaceId: string): Promise<boolean> {
  const now = Date.now();
  const known = endpointChecks.get(workspaceId);
  if (known && known.until > now) return known.any;
  let any: boolean;
  try {
    any = await endpointStore().any(workspaceId);
  } catch (error) {
    // Unknown: queue the event (the worker finds no endpoint and drops it) rather than lose it.
    logger.warn("could not check a workspace's webhooks; queuing the event", { error: error as Error, workspaceId });
    return true;
  }
  if (endpointChecks.size >= ENDPOINT_CHECK_MAX) endpointChecks.clear();
  endpointChecks.set(workspaceId, { any, until: now + ENDPOINT_CHECK_TTL_MS });
  return any;
}

/**
 * What the use cases publish their events to (docs/webhooks.md): one queue send per event of a
 * workspace that has webhook endpoints, the fan-out to endpoints is the delivery worker's. A
 * failed send is logged and swallowed: the change it reports is stored, and failing the request
 * would make the client retry a change that already happened.
 *
 * One rule on AWS and on the local stack: an event of a workspace without endpoints is not queued
 * at all. Whether it has any is read once per container and ENDPOINT_CHECK_TTL_MS (one Query of
 * at most one key), so most requests that publish pay neither the read nor the send (an SQS send
 * on AWS, a PutItem in the table locally), and the local table holds nothing about a build beyond
 * its own items, as on AWS. The price: an endpoint created in another container misses the events
 * of at most that long (the endpoint's own test event goes through the webhooks function).
 */
export const eventPublisher = once(
  (): EventPublisher => ({
    publish: async (event) => {
      try {
        if (!(await hasEndpoints(event.workspaceId))) return;
        await webhookQueue().send({ kind: "event", event }, 0);
      } catch (error) {
        logger.warn("could not publish an event", { error: error as Error, event: event.type, workspaceId: event.workspaceId });
      }
    },
  }),
);
