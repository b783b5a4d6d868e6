import type { WebhookEvent } from "../webhooks/webhook-events";
import type { DeliveryAttemptView, DeliveryState, WebhookEventType, WebhookView } from "../webhooks/webhooks.schema";

/** A receiver of a workspace's events (docs/webhooks.md): what its answers show, and its secrets. */
export interface WebhookEndpoint extends WebhookView {
  /** The signing secret (`whsec_…`): stored because HMAC signs with the key itself (signing.ts). */
  secret: string;
  /** The secret before the last rotation, signing too until previousSecretExpiresAt. */
  previousSecret: string | null;
  /** When the current run of failed attempts began; null while the last attempt succeeded. */
  failingSince: string | null;
}

export type WebhookChanges = Partial<Pick<WebhookEndpoint, "url" | "description" | "events" | "projectIds" | "branchFilter" | "enabled" | "disabledReason">>;

export interface DeliveryRecord {
  deliveryId: string;
  webhookId: string;
  workspaceId: string;
  event: WebhookEventType;
  test: boolean;
  /** The request body, fixed at the first attempt: every retry sends the same bytes. */
  body: string;
  state: DeliveryState;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: DeliveryAttemptView[];
}

/** The table's side of webhooks: endpoints in their workspace's partition, deliveries in their endpoint's. */
export interface WebhookStore {
  /** Creates it under the workspace's limit; false when the limit is reached. */
  create(endpoint: WebhookEndpoint, max: number): Promise<boolean>;
  /** By id alone (routes name only the webhook). */
  find(webhookId: string): Promise<WebhookEndpoint | undefined>;
  get(workspaceId: string, webhookId: string): Promise<WebhookEndpoint | undefined>;
  list(workspaceId: string): Promise<WebhookEndpoint[]>;
  /** The item after the change, or undefined when it is gone. */
  update(workspaceId: string, webhookId: string, changes: WebhookChanges, now: string): Promise<WebhookEndpoint | undefined>;
  rotateSecret(workspaceId: string, webhookId: string, secret: string, previous: { secret: string; expiresAt: string } | null, now: string): Promise<WebhookEndpoint | undefined>;
  remove(workspaceId: string, webhookId: string): Promise<void>;
  /** Per-endpoint concurrency of one: the lease is held while one attempt runs. */
  lease(workspaceId: string, webhookId: string, now: Date, seconds: number): Promise<boolean>;
  /**
   * Ends the lease and counts the attempt's outcome on the endpoint: a success resets the streak;
   * a failure adds to it, and when `disableWhen` holds for the counted streak the endpoint is
   * disabled (`failing`) in the same write. Answers whether this call disabled it.
   */
  settle(workspaceId: string, webhookId: string, ok: boolean, now: Date, disableWhen: (streak: number, failingSince: string) => boolean): Promise<{ disabled: boolean }>;
  /** Writes a new delivery; false when one with its id exists already (a fan-out run twice). */
  putDelivery(delivery: DeliveryRecord): Promise<boolean>;
  getDelivery(webhookId: string, deliveryId: string): Promise<DeliveryRecord | undefined>;
  /** Newest first; `after` is the last delivery id of the previous page. */
  listDeliveries(webhookId: string, options: { after?: string; limit: number }): Promise<{ items: DeliveryRecord[]; after?: string }>;
  /** Appends one attempt and sets the state (the only writer of attempts). */
  recordAttempt(webhookId: string, deliveryId: string, attempt: DeliveryAttemptView, state: DeliveryState, nextAttemptAt: string | null): Promise<void>;
  /** Ends a pending delivery without another attempt (its endpoint was disabled or deleted). */
  close(webhookId: string, deliveryId: string, state: DeliveryState): Promise<void>;
  /** A redelivery: pending again, attempts kept. False when the delivery is gone. */
  reopen(webhookId: string, deliveryId: string, nextAttemptAt: string): Promise<boolean>;
}

/** Work for the delivery worker: fan an event out, or try one delivery. */
export type WebhookTask =
  | { kind: "event"; event: WebhookEvent }
  /** `manual`: a redelivery asked for by a person: one attempt, no retries after it. */
  | { kind: "attempt"; workspaceId: string; webhookId: string; deliveryId: string; manual?: boolean };

/**
 * The delivery worker's queue: SQS on AWS (a delay of at most 15 minutes per send; longer waits
 * are re-sent by the worker, `notBefore`), a table partition polled in-process on the local stack.
 * At least once: a task may arrive twice, and the worker makes that harmless.
 */
export interface WebhookQueue {
  send(task: WebhookTask & { notBefore?: string }, delaySeconds: number): Promise<void>;
}
