import type { WebhookEvent } from "../webhooks/webhook-events";

/**
 * Tells the outside world that something happened in a workspace (webhooks, Slack, Teams:
 * docs/webhooks.md). Use cases publish after their change succeeded; the publisher only hands
 * the event over (one queue send on AWS, one table write on the local stack) and the delivery
 * worker fans it out to the workspace's endpoints, so a request never waits for a receiver.
 *
 * Delivery is best effort from the use case's side: a failed publish is logged by the
 * composition, never turned into a failed request (the change itself is stored).
 */
export interface EventPublisher {
  publish(event: WebhookEvent): Promise<void>;
}
