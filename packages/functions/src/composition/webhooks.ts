import type { DeliveryDeps, OutboundPolicy, WebhookDeps, WebhookSettings } from "@hangar/core/webhooks";
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from "@hangar/core/webhook-schedule";
import { DynamoWebhookStore } from "@hangar/core/webhooks-dynamo";
import { DynamoStageSecret, DynamoUserRepository } from "@hangar/core/dynamo";
import { logger } from "../observability/logger";
import { auditLog } from "./audit-log";
import { forgetEndpointCheck, webhookQueue } from "./events";
import { lazyMailer } from "./accounts";
import { once } from "./once";
import { getRuntime } from "./root";
import type { Settings } from "./settings.schema";
import { workspaceCatalog } from "./workspace-catalog";

/** What receivers may be: https only, except the local stack's loopback setting (safe-request.ts). */
export function outboundPolicy(settings: Pick<Settings, "HANGAR_WEBHOOK_ALLOW_LOOPBACK">): OutboundPolicy {
  const local = settings.HANGAR_WEBHOOK_ALLOW_LOOPBACK === "1";
  return { allowHttp: local, allowLoopback: local };
}

export function webhookSettings(settings: Settings): WebhookSettings {
  const schedule = settings.HANGAR_WEBHOOK_RETRY_SCHEDULE ? parseRetrySchedule(settings.HANGAR_WEBHOOK_RETRY_SCHEDULE) : DEFAULT_RETRY_SCHEDULE;
  return {
    // Validated by the settings schema: a string here cannot happen.
    retrySchedule: Array.isArray(schedule) ? schedule : DEFAULT_RETRY_SCHEDULE,
    disableAfterFailures: settings.HANGAR_WEBHOOK_DISABLE_AFTER,
    outbound: outboundPolicy(settings),
  };
}

/** The store, telling this container's event publisher when a workspace gains an endpoint (events.ts). */
class AnnouncingWebhookStore extends DynamoWebhookStore {
  override async create(...args: Parameters<DynamoWebhookStore["create"]>): Promise<boolean> {
    const created = await super.create(...args);
    forgetEndpointCheck(args[0].workspaceId);
    return created;
  }
}

export const webhookStore = once((): DynamoWebhookStore => {
  const { db, settings } = getRuntime();
  return new AnnouncingWebhookStore(db, settings.HANGAR_TABLE_NAME);
});

/**
 * The webhooks function's ports (HTTP routes): the store, the queue (tests and redeliveries go
 * through the worker like every delivery), memberships, projects (an endpoint's project filter
 * names the workspace's own), the cursor secret. Links are per request (their base comes from it).
 */
export const webhookDeps = (links: WebhookDeps["links"]): WebhookDeps => {
  const { db, settings, clock, projects } = getRuntime();
  return {
    workspaces: workspaceCatalog(),
    projects,
    webhooks: webhookStore(),
    queue: webhookQueue(),
    audit: auditLog(),
    clock,
    cursorSecret: new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, "cursor"),
    links,
    outbound: outboundPolicy(settings),
  };
};

/** The delivery worker's ports (the SQS-triggered function; the local stack's poller). */
export const deliveryDeps = once((): DeliveryDeps => {
  const { db, settings, clock } = getRuntime();
  return {
    webhooks: webhookStore(),
    queue: webhookQueue(),
    clock,
    settings: webhookSettings(settings),
    workspaces: workspaceCatalog(),
    users: new DynamoUserRepository(db, settings.HANGAR_TABLE_NAME),
    mailer: lazyMailer(settings),
    dashboardUrl: settings.HANGAR_PUBLIC_URL ?? "",
    log: (message, fields) => logger.info(message, fields),
  };
});
