import { composeMail } from "../accounts/mail/account-mails";
import type { Clock } from "../ports/clock.port";
import type { Mailer } from "../ports/mailer.port";
import type { UserRepository } from "../ports/user-repository.port";
import type { DeliveryRecord, WebhookEndpoint, WebhookQueue, WebhookStore, WebhookTask } from "../ports/webhooks.port";
import type { WorkspaceCatalog } from "../ports/workspace-catalog.port";
import { attemptsOf, retryDelaySeconds } from "./retry-schedule";
import { safePost, type OutboundPolicy } from "./safe-request";
import { signWebhook } from "./signing";
import { slackMessage } from "./slack-message";
import { teamsMessage } from "./teams-card";
import type { WebhookEnvelope, WebhookEvent } from "./webhook-events";
import type { DeliveryAttemptView } from "./webhooks.schema";
import { deliveryIdFor, newDeliveryId } from "./signing";
import { matchesBranch } from "./branch-glob";

/**
 * The delivery worker (docs/webhooks.md, "Delivery"): the SQS-triggered function on AWS and the
 * local stack's in-process poller both hand each task to handleWebhookTask.
 *
 * - An event task fans out: one delivery record per enabled endpoint whose events, projects and
 *   branch filter match, each with its body fixed now, and one attempt task per delivery.
 * - An attempt task takes the endpoint's lease (one attempt at a time per endpoint, so a slow
 *   receiver does not get a pile of parallel requests; a busy endpoint's task comes back in a few
 *   seconds), signs, POSTs through safePost, and records the attempt. A 2xx is success; anything
 *   else is retried on the schedule of retry-schedule.ts with the same `webhook-id`.
 * - Failed attempts in a row count on the endpoint; at the limit (and after failing for at least
 *   half the schedule, so a burst of events during a short outage does not do it) the endpoint is
 *   disabled and the workspace's owners and admins get a mail saying why.
 *
 * At least once: a task seen twice finds its delivery no longer pending, or makes one more
 * attempt with the same id, which receivers drop (Standard Webhooks' idempotency by `webhook-id`).
 */

export interface WebhookSettings {
  /** Waits between attempts, in seconds (retry-schedule.ts). */
  retrySchedule: readonly number[];
  /** Failed attempts in a row that disable an endpoint. */
  disableAfterFailures: number;
  outbound: OutboundPolicy;
}

export interface DeliveryDeps {
  webhooks: WebhookStore;
  queue: WebhookQueue;
  clock: Clock;
  settings: WebhookSettings;
  workspaces: Pick<WorkspaceCatalog, "get" | "listMembers">;
  users: Pick<UserRepository, "get">;
  mailer: Mailer;
  /** The dashboard's base URL, for the mail's link. */
  dashboardUrl: string;
  /** Endpoint ids and outcomes only: never an endpoint's item (it holds the secret). */
  log: (message: string, fields: Record<string, unknown>) => void;
}

/** The log keeps this much of an answer's body. */
export const LOGGED_RESPONSE_BYTES = 2048;
/** The lease outlives the 10 s timeout with room for the writes around it. */
const LEASE_SECONDS = 30;
/** SQS delays a message at most 15 minutes: longer waits are re-sent (`notBefore`). */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/** Whether an endpoint takes this event (its events, projects and branch filter). */
export function endpointMatches(endpoint: WebhookEndpoint, event: WebhookEvent): boolean {
  if (!endpoint.enabled || !endpoint.events.includes(event.type)) return false;
  if (endpoint.projectIds.length > 0 && (event.projectId === null || !endpoint.projectIds.includes(event.projectId))) return false;
  if (endpoint.branchFilter !== null && (event.branch === null || !matchesBranch(endpoint.branchFilter, event.branch))) return false;
  return true;
}

/** The bytes an endpoint of this type gets for an event. */
export function bodyFor(endpoint: Pick<WebhookEndpoint, "type">, event: WebhookEvent, workspaceName?: string): string {
  if (endpoint.type === "slack") return JSON.stringify(slackMessage(event, workspaceName));
  if (endpoint.type === "teams") return JSON.stringify(teamsMessage(event, workspaceName));
  const envelope: WebhookEnvelope = { type: event.type, timestamp: event.occurredAt, data: event.data };
  return JSON.stringify(envelope);
}

/** A new delivery of an event to one endpoint, queued for its first attempt now. */
export async function startDelivery(
  deps: Pick<DeliveryDeps, "webhooks" | "queue" | "clock">,
  endpoint: WebhookEndpoint,
  event: WebhookEvent,
  options: { test?: boolean; workspaceName?: string } = {},
): Promise<DeliveryRecord> {
  const now = deps.clock.now();
  const delivery: DeliveryRecord = {
    // A test event is new each time; a real one's id is derived, so a repeated fan-out repeats nothing.
    deliveryId: options.test ? newDeliveryId(now) : deliveryIdFor(JSON.stringify(event), event.occurredAt, endpoint.webhookId),
    webhookId: endpoint.webhookId,
    workspaceId: endpoint.workspaceId,
    event: event.type,
    test: options.test ?? false,
    body: bodyFor(endpoint, event, options.workspaceName),
    state: "pending",
    createdAt: now.toISOString(),
    nextAttemptAt: now.toISOString(),
    attempts: [],
  };
  // Queued even when the delivery existed: the run that wrote it may have stopped before queueing,
  // and an attempt task for a delivery no longer pending does nothing.
  await deps.webhooks.putDelivery(delivery);
  await deps.queue.send({ kind: "attempt", workspaceId: endpoint.workspaceId, webhookId: endpoint.webhookId, deliveryId: delivery.deliveryId }, 0);
  return delivery;
}

export async function handleWebhookTask(deps: DeliveryDeps, task: WebhookTask & { notBefore?: string }): Promise<void> {
  const now = deps.clock.now();
  // A wait longer than one queue delay: sent again until it is due.
  if (task.notBefore && Date.parse(task.notBefore) > now.getTime() + 1000) {
    return later(deps, task, (Date.parse(task.notBefore) - now.getTime()) / 1000);
  }
  if (task.kind === "event") return fanOut(deps, task.event);
  return attempt(deps, task);
}

/** Queues a task again in `seconds`: directly when the queue can wait that long, else in steps. */
async function later(deps: Pick<DeliveryDeps, "queue">, task: WebhookTask & { notBefore?: string }, seconds: number, now = Date.now()): Promise<void> {
  const wait = Math.max(0, Math.ceil(seconds));
  const notBefore = new Date(now + wait * 1000).toISOString();
  const { notBefore: _old, ...bare } = task;
  await deps.queue.send(wait > MAX_QUEUE_DELAY_SECONDS ? { ...bare, notBefore } : bare, Math.min(wait, MAX_QUEUE_DELAY_SECONDS));
}

async function fanOut(deps: DeliveryDeps, event: WebhookEvent): Promise<void> {
  const endpoints = (await deps.webhooks.list(event.workspaceId)).filter((e) => endpointMatches(e, event));
  if (endpoints.length === 0) return;
  const workspaceName = (await deps.workspaces.get(event.workspaceId))?.name;
  await Promise.all(endpoints.map((endpoint) => startDelivery(deps, endpoint, event, workspaceName === undefined ? {} : { workspaceName })));
}

/** The first 2 KB of an answer as text, cut before a character split in two. */
function loggedBody(body: Buffer | null): string | null {
  if (!body || body.length === 0) return null;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, LOGGED_RESPONSE_BYTES));
  return body.length > LOGGED_RESPONSE_BYTES ? text.replace(/\uFFFD+$/, "") : text;
}

function secretsOf(endpoint: WebhookEndpoint, now: Date): string[] {
  const previousValid = endpoint.previousSecret && endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime();
  return previousValid ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

async function attempt(deps: DeliveryDeps, task: Extract<WebhookTask, { kind: "attempt" }>): Promise<void> {
  const [endpoint, delivery] = await Promise.all([deps.webhooks.get(task.workspaceId, task.webhookId), deps.webhooks.getDelivery(task.webhookId, task.deliveryId)]);
  if (!delivery || delivery.state !== "pending") return;
  if (!endpoint || !endpoint.enabled) {
    // Nothing goes to a disabled (or deleted) endpoint, not even the retries it had pending.
    return deps.webhooks.close(task.webhookId, task.deliveryId, "failed");
  }
  if (!(await deps.webhooks.lease(endpoint.workspaceId, endpoint.webhookId, deps.clock.now(), LEASE_SECONDS))) {
    // Another attempt to this endpoint is running: come back shortly (jittered, so waiting tasks spread out).
    return later(deps, task, 2 + Math.random() * 3);
  }
  const started = deps.clock.now();
  const headers: Record<string, string> =
    endpoint.type === "webhook"
      ? { ...signWebhook(secretsOf(endpoint, started), delivery.deliveryId, Math.floor(started.getTime() / 1000), delivery.body) }
      : // Chat services verify nothing; the id still lets a proxy in between drop repeats.
        { "webhook-id": delivery.deliveryId };
  const result = await safePost(endpoint.url, headers, delivery.body, deps.settings.outbound);
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  const number = delivery.attempts.length + 1;
  const record: DeliveryAttemptView = {
    attempt: number,
    at: started.toISOString(),
    status: result.status,
    latencyMs: result.latencyMs,
    responseBody: loggedBody(result.body),
    error: result.error ?? (ok ? null : `HTTP ${result.status}: only a 2xx answer counts as delivered`),
  };
  const failedSoFar = delivery.attempts.length + 1;
  const wait = ok || task.manual ? undefined : retryDelaySeconds(deps.settings.retrySchedule, failedSoFar);
  const now = deps.clock.now();
  const nextAt = wait === undefined ? null : new Date(now.getTime() + wait * 1000).toISOString();
  await deps.webhooks.recordAttempt(delivery.webhookId, delivery.deliveryId, record, ok ? "succeeded" : nextAt ? "pending" : "failed", nextAt);
  const halfSchedule = (deps.settings.retrySchedule.reduce((a, b) => a + b, 0) * 1000) / 2;
  const { disabled } = await deps.webhooks.settle(endpoint.workspaceId, endpoint.webhookId, ok, now, (streak, since) =>
    streak >= deps.settings.disableAfterFailures && now.getTime() - Date.parse(since) >= halfSchedule,
  );
  deps.log(ok ? "webhook delivered" : "webhook attempt failed", {
    webhookId: endpoint.webhookId,
    deliveryId: delivery.deliveryId,
    attempt: number,
    status: result.status,
    latencyMs: result.latencyMs,
    ...(nextAt ? { nextAttemptAt: nextAt } : {}),
  });
  if (wait !== undefined && !disabled) await later(deps, { kind: "attempt", workspaceId: task.workspaceId, webhookId: task.webhookId, deliveryId: task.deliveryId }, wait);
  if (disabled) await mailDisabled(deps, endpoint, record).catch((error: unknown) => deps.log("could not mail about a disabled webhook", { webhookId: endpoint.webhookId, error: (error as Error).message }));
}

/** Endpoints a member sees in the mail: the host only (a URL's path may carry a Slack or Teams token). */
export function endpointLabel(endpoint: Pick<WebhookEndpoint, "url" | "description" | "type">): string {
  let host = "?";
  try {
    host = new URL(endpoint.url).host;
  } catch {
    // a stored URL always parses; the label stays readable if not
  }
  return endpoint.description ? `“${endpoint.description}” (${host})` : `${endpoint.type === "webhook" ? "the webhook" : `the ${endpoint.type === "slack" ? "Slack" : "Teams"} webhook`} to ${host}`;
}

async function mailDisabled(deps: DeliveryDeps, endpoint: WebhookEndpoint, last: DeliveryAttemptView): Promise<void> {
  const [workspace, members] = await Promise.all([deps.workspaces.get(endpoint.workspaceId), deps.workspaces.listMembers(endpoint.workspaceId)]);
  const admins = members.filter((m) => m.role === "owner" || m.role === "admin");
  const users = await Promise.all(admins.map((m) => deps.users.get(m.userId)));
  const label = endpointLabel(endpoint);
  const why = last.status !== null ? `the last one was answered with HTTP ${last.status}` : `the last one failed: ${last.error ?? "no answer"}`;
  // Without a configured public URL (AWS without HANGAR_PUBLIC_URL) the mail names the page instead of linking it.
  const link = deps.dashboardUrl ? `${deps.dashboardUrl}/settings/webhooks?workspace=${encodeURIComponent(endpoint.workspaceId)}` : undefined;
  for (const user of users) {
    if (!user) continue;
    await deps.mailer.send(
      composeMail({
        to: user.email,
        subject: `Hangar turned off a webhook of the workspace “${workspace?.name ?? endpoint.workspaceId}”`,
        before: [
          `Hangar could not deliver events to ${label} in the workspace “${workspace?.name ?? endpoint.workspaceId}”: ${deps.settings.disableAfterFailures} attempts in a row failed, and ${why}.`,
          "So that events stop piling up for a receiver that does not answer, the webhook is now turned off: it gets no events until someone turns it on again. Events of the time it was off are not sent later; their deliveries are in its log.",
        ],
        ...(link ? { action: { label: "See the webhook and its delivery log", url: link } } : {}),
        after: [
          ...(link ? [] : ["Its delivery log is in the dashboard, under Settings → Webhooks."]),
          "You get this mail as an owner or admin of the workspace. Fix the receiver, then turn the webhook on again (a test event shows whether it answers).",
        ],
      }),
    );
  }
}

/** What the worker needs to know about a delivery's attempt count, for the docs and tests. */
export const maxAttempts = attemptsOf;
