import { recordChange } from "../dashboard/audit-record";
import { decodeCursor, encodeCursor } from "../dashboard/cursor";
import { ConflictError, ValidationError } from "../errors/domain-errors";
import type { AuditLog } from "../ports/audit-log.port";
import type { Clock } from "../ports/clock.port";
import type { ProjectCatalog } from "../ports/project-catalog.port";
import type { StageSecret } from "../ports/stage-secret.port";
import type { DeliveryRecord, WebhookEndpoint, WebhookQueue, WebhookStore } from "../ports/webhooks.port";
import type { WorkspaceCatalog } from "../ports/workspace-catalog.port";
import type { LinkBases } from "../upload/upload-settings";
import { workspaceAccess } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import { can, type Action } from "../workspaces/roles";
import { ForbiddenError } from "../workspaces/workspace-errors";
import type { WorkspaceRef } from "../workspaces/workspace.schema";
import { startDelivery } from "./deliver";
import { sampleEvent } from "./sample-events";
import { deliveryNotFound, webhookNotFound } from "./webhook-errors";
import { checkedAddresses, RefusedTargetError, urlRefusal, type OutboundPolicy } from "./safe-request";
import { newWebhookId, newWebhookSecret } from "./signing";
import {
  DELIVERY_ID,
  DELIVERY_PAGE_SIZE,
  MAX_WEBHOOKS_PER_WORKSPACE,
  type CreateWebhook,
  type DeliveriesQuery,
  type DeliveryPageView,
  type DeliveryRef,
  type DeliveryView,
  type TestWebhook,
  type UpdateWebhook,
  type WebhookRef,
  type WebhookView,
  type WebhookWithSecretView,
} from "./webhooks.schema";

/**
 * Webhook endpoints of a workspace (docs/webhooks.md): members read them (`workspace.read`),
 * owners and admins manage them (`webhooks.manage`). A webhook of a workspace the caller is not a
 * member of is a 404 exactly like an id that does not exist.
 */

export interface WebhookDeps {
  workspaces: Pick<WorkspaceCatalog, "membership" | "get"> & Partial<Pick<WorkspaceCatalog, "touch">>;
  projects: Pick<ProjectCatalog, "get">;
  webhooks: WebhookStore;
  queue: WebhookQueue;
  /** Creates, changes, deletes and rotations are recorded after they succeeded (docs/audit-log.md). */
  audit: Pick<AuditLog, "record">;
  clock: Clock;
  cursorSecret: StageSecret;
  /** The bases of the test event's links. */
  links: LinkBases;
  /** What a receiver URL may be (https only on AWS; the local stack's loopback exception). */
  outbound: OutboundPolicy;
}

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export { deliveryNotFound, webhookNotFound };

export function webhookView(endpoint: WebhookEndpoint, now: Date): WebhookView {
  const overlap = endpoint.previousSecretExpiresAt && Date.parse(endpoint.previousSecretExpiresAt) > now.getTime() ? endpoint.previousSecretExpiresAt : null;
  return {
    webhookId: endpoint.webhookId,
    workspaceId: endpoint.workspaceId,
    type: endpoint.type,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    projectIds: endpoint.projectIds,
    branchFilter: endpoint.branchFilter,
    enabled: endpoint.enabled,
    disabledReason: endpoint.enabled ? null : (endpoint.disabledReason ?? "manual"),
    failureStreak: endpoint.failureStreak,
    previousSecretExpiresAt: overlap,
    createdAt: endpoint.createdAt,
    updatedAt: endpoint.updatedAt,
  };
}

export function deliveryView(delivery: DeliveryRecord): DeliveryView {
  return {
    deliveryId: delivery.deliveryId,
    webhookId: delivery.webhookId,
    event: delivery.event,
    test: delivery.test,
    state: delivery.state,
    createdAt: delivery.createdAt,
    nextAttemptAt: delivery.state === "pending" ? delivery.nextAttemptAt : null,
    attempts: delivery.attempts,
  };
}

/** The webhook, if the caller is a member of its workspace whose role allows `action`. */
async function webhookAccess(deps: WebhookDeps, actor: Actor, webhookId: string, action: Action): Promise<WebhookEndpoint> {
  const endpoint = await deps.webhooks.find(webhookId);
  const membership = endpoint ? await deps.workspaces.membership(endpoint.workspaceId, actor.userId) : undefined;
  if (!endpoint || !membership) throw webhookNotFound();
  if (!can(membership.role, action)) throw new ForbiddenError(membership.role, action);
  await deps.workspaces.touch?.(membership).catch(() => undefined);
  return endpoint;
}

/**
 * What the audit log says of an endpoint: its description, else its URL's host, never the whole
 * URL. A Slack or Teams URL is itself the secret of its channel, and a receiver's URL may carry a
 * token in its path or query; the log is read by every owner and admin for 400 days.
 */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : "");
const auditTarget = (endpoint: Pick<WebhookEndpoint, "webhookId" | "description" | "url">) => ({
  type: "webhook" as const,
  id: endpoint.webhookId,
  label: endpoint.description || hostOf(endpoint.url),
});

const invalidUrl = (message: string) => new ValidationError([{ field: "url", message }]);

/**
 * A URL is checked when it is saved, so a member learns at once that `http://10.0.0.5` or a name
 * of a private address will never be called (the sender checks again at every delivery: names
 * can change). A name that does not resolve yet is accepted (its DNS may come later).
 */
async function checkUrl(deps: WebhookDeps, url: string): Promise<void> {
  const parsed = new URL(url);
  const problem = urlRefusal(parsed, deps.outbound);
  if (problem) throw invalidUrl(problem);
  try {
    await checkedAddresses(parsed.hostname, deps.outbound);
  } catch (error) {
    if (error instanceof RefusedTargetError) throw invalidUrl(error.message);
  }
}

async function checkProjects(deps: WebhookDeps, workspaceId: string, projectIds: readonly string[] | undefined): Promise<string[]> {
  const unique = [...new Set(projectIds ?? [])];
  const found = await Promise.all(unique.map((id) => deps.projects.get(workspaceId, id)));
  const missing = unique.filter((_, i) => !found[i]);
  if (missing.length) {
    throw new ValidationError([{ field: "projectIds", message: `names ${missing.join(", ")}, not a project of this workspace` }]);
  }
  return unique;
}

export async function listWebhooks(deps: WebhookDeps, actor: Actor, input: WorkspaceRef): Promise<{ items: WebhookView[] }> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.read");
  const now = deps.clock.now();
  return { items: (await deps.webhooks.list(input.workspaceId)).map((e) => webhookView(e, now)) };
}

export async function createWebhook(deps: WebhookDeps, actor: Actor, input: WorkspaceRef & CreateWebhook): Promise<WebhookWithSecretView> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "webhooks.manage");
  await checkUrl(deps, input.url);
  const projectIds = await checkProjects(deps, input.workspaceId, input.projectIds);
  const now = deps.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    webhookId: newWebhookId(),
    workspaceId: input.workspaceId,
    type: input.type,
    url: input.url,
    description: input.description,
    events: [...new Set(input.events)],
    projectIds,
    branchFilter: input.branchFilter ?? null,
    enabled: input.enabled,
    disabledReason: input.enabled ? null : "manual",
    secret: newWebhookSecret(),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failureStreak: 0,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.webhooks.create(endpoint, MAX_WEBHOOKS_PER_WORKSPACE))) {
    throw new ConflictError("limit_reached", `A workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one first`, { limit: "webhooks", max: MAX_WEBHOOKS_PER_WORKSPACE });
  }
  await recordChange(deps, actor, {
    workspaceId: endpoint.workspaceId,
    action: "webhook.created",
    target: auditTarget(endpoint),
    details: { type: endpoint.type, host: hostOf(endpoint.url), events: endpoint.events.join(","), enabled: endpoint.enabled },
  });
  return { ...webhookView(endpoint, deps.clock.now()), secret: endpoint.secret };
}

export async function getWebhook(deps: WebhookDeps, actor: Actor, input: WebhookRef): Promise<WebhookView> {
  return webhookView(await webhookAccess(deps, actor, input.webhookId, "workspace.read"), deps.clock.now());
}

export async function updateWebhook(deps: WebhookDeps, actor: Actor, input: WebhookRef & UpdateWebhook): Promise<WebhookView> {
  const endpoint = await webhookAccess(deps, actor, input.webhookId, "webhooks.manage");
  if (input.url !== undefined && input.url !== endpoint.url) await checkUrl(deps, input.url);
  const projectIds = input.projectIds === undefined ? undefined : await checkProjects(deps, endpoint.workspaceId, input.projectIds);
  const updated = await deps.webhooks.update(
    endpoint.workspaceId,
    endpoint.webhookId,
    {
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(projectIds !== undefined ? { projectIds } : {}),
      ...(input.branchFilter !== undefined ? { branchFilter: input.branchFilter } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled, ...(input.enabled ? {} : { disabledReason: "manual" as const }) } : {}),
    },
    deps.clock.now().toISOString(),
  );
  if (!updated) throw webhookNotFound();
  const fields = UPDATABLE.filter((field) => input[field] !== undefined);
  await recordChange(deps, actor, {
    workspaceId: endpoint.workspaceId,
    action: "webhook.updated",
    target: auditTarget(updated),
    details: {
      fields: fields.join(","),
      ...(input.url !== undefined ? { host: hostOf(updated.url) } : {}),
      ...(input.enabled !== undefined ? { enabled: updated.enabled } : {}),
    },
  });
  return webhookView(updated, deps.clock.now());
}

/** The fields a PATCH may name, in the order the audit entry lists those it named. */
const UPDATABLE = ["url", "description", "events", "projectIds", "branchFilter", "enabled"] as const;

export async function deleteWebhook(deps: WebhookDeps, actor: Actor, input: WebhookRef): Promise<void> {
  const endpoint = await webhookAccess(deps, actor, input.webhookId, "webhooks.manage");
  await deps.webhooks.remove(endpoint.workspaceId, endpoint.webhookId);
  await recordChange(deps, actor, {
    workspaceId: endpoint.workspaceId,
    action: "webhook.deleted",
    target: auditTarget(endpoint),
    details: { type: endpoint.type, host: hostOf(endpoint.url) },
  });
}

/**
 * A new secret, shown once; the previous one keeps signing beside it for 24 hours (both
 * signatures in `webhook-signature`), so receivers can switch without losing a delivery. A
 * second rotation within the 24 hours drops the oldest secret.
 */
export async function rotateWebhookSecret(deps: WebhookDeps, actor: Actor, input: WebhookRef): Promise<WebhookWithSecretView> {
  const endpoint = await webhookAccess(deps, actor, input.webhookId, "webhooks.manage");
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const updated = await deps.webhooks.rotateSecret(
    endpoint.workspaceId,
    endpoint.webhookId,
    secret,
    { secret: endpoint.secret, expiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString() },
    now.toISOString(),
  );
  if (!updated) throw webhookNotFound();
  // Never a secret in the log: only until when the previous one still signs.
  await recordChange(deps, actor, {
    workspaceId: endpoint.workspaceId,
    action: "webhook.secret_rotated",
    target: auditTarget(updated),
    details: { previousSecretExpiresAt: updated.previousSecretExpiresAt },
  });
  return { ...webhookView(updated, now), secret };
}

/**
 * Sends an example event (sample-events.ts; `build.completed` unless another is named) through
 * the real delivery path, marked as a test in the log. A disabled endpoint gets nothing, tests
 * included: 409 `webhook_disabled` until it is turned on.
 */
export async function sendTestEvent(deps: WebhookDeps, actor: Actor, input: WebhookRef & TestWebhook): Promise<DeliveryView> {
  const endpoint = await webhookAccess(deps, actor, input.webhookId, "webhooks.manage");
  if (!endpoint.enabled) throw new ConflictError("webhook_disabled", "This webhook is turned off; turn it on to send it events");
  const event = sampleEvent(input.event ?? "build.completed", endpoint.workspaceId, deps.links, deps.clock.now());
  const workspaceName = (await deps.workspaces.get(endpoint.workspaceId))?.name;
  return deliveryView(await startDelivery(deps, endpoint, event, { test: true, ...(workspaceName !== undefined ? { workspaceName } : {}) }));
}

const DELIVERY_SORT_KEY = new RegExp(DELIVERY_ID.source);

/** The delivery log, newest first, 50 a page; the cursor is MAC'd over the webhook like the other lists. */
export async function listDeliveries(deps: WebhookDeps, actor: Actor, input: WebhookRef & DeliveriesQuery): Promise<DeliveryPageView> {
  const endpoint = await webhookAccess(deps, actor, input.webhookId, "workspace.read");
  const secret = await deps.cursorSecret.bytes();
  const list = `webhook-deliveries\n${endpoint.webhookId}`;
  const after = decodeCursor(secret, list, input.cursor, DELIVERY_SORT_KEY);
  const page = await deps.webhooks.listDeliveries(endpoint.webhookId, { ...(after ? { after } : {}), limit: DELIVERY_PAGE_SIZE });
  return { items: page.items.map(deliveryView), nextCursor: encodeCursor(secret, list, page.after) };
}

/** One more attempt of a delivery now, with its `webhook-id` and body; no automatic retries after it. */
export async function redeliver(deps: WebhookDeps, actor: Actor, input: DeliveryRef): Promise<DeliveryView> {
  const endpoint = await webhookAccess(deps, actor, input.webhookId, "webhooks.manage");
  if (!endpoint.enabled) throw new ConflictError("webhook_disabled", "This webhook is turned off; turn it on to send it events");
  const delivery = await deps.webhooks.getDelivery(endpoint.webhookId, input.deliveryId);
  if (!delivery) throw deliveryNotFound();
  const now = deps.clock.now().toISOString();
  if (!(await deps.webhooks.reopen(endpoint.webhookId, delivery.deliveryId, now))) throw deliveryNotFound();
  await deps.queue.send({ kind: "attempt", workspaceId: endpoint.workspaceId, webhookId: endpoint.webhookId, deliveryId: delivery.deliveryId, manual: true }, 0);
  return deliveryView({ ...delivery, state: "pending", nextAttemptAt: now });
}
