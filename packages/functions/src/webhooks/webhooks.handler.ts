import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from "@hangar/core/webhooks";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { webhookDeps } from "../composition/webhooks";
import { actorOf } from "../middleware/actor";
import { json } from "../middleware/http-function";
import { noContent } from "../projects/answers";
import type { HttpEvent } from "../middleware/http-context";

/** The use cases' ports, with the link bases of this request (the test event's links). */
const deps = (e: HttpEvent) => webhookDeps(linkBases(e, getRuntime().settings));

/**
 * Webhook endpoints of a workspace and their delivery logs (docs/webhooks.md): members read,
 * owners and admins manage (`webhooks.manage`). A webhook of a workspace the caller is not a
 * member of answers 404 like an unknown id. The secret is in the create's and the rotation's
 * answers only. A test event and a redelivery are queued for the delivery worker: 202.
 */
export const handler = dashboardFunction("webhooks", {
  "GET /api/workspaces/{workspaceId}/webhooks": {
    handler: async (e, c) => json(200, await listWebhooks(deps(e), actorOf(c), c.params)),
  },
  "POST /api/workspaces/{workspaceId}/webhooks": {
    handler: async (e, c) => json(201, await createWebhook(deps(e), actorOf(c), { ...c.params, ...c.body })),
  },
  "GET /api/webhooks/{webhookId}": {
    handler: async (e, c) => json(200, await getWebhook(deps(e), actorOf(c), c.params)),
  },
  "PATCH /api/webhooks/{webhookId}": {
    handler: async (e, c) => json(200, await updateWebhook(deps(e), actorOf(c), { ...c.params, ...c.body })),
  },
  "DELETE /api/webhooks/{webhookId}": {
    handler: async (e, c) => {
      await deleteWebhook(deps(e), actorOf(c), c.params);
      return noContent();
    },
  },
  "POST /api/webhooks/{webhookId}/rotate-secret": {
    handler: async (e, c) => json(200, await rotateWebhookSecret(deps(e), actorOf(c), c.params)),
  },
  "POST /api/webhooks/{webhookId}/test": {
    handler: async (e, c) => json(202, await sendTestEvent(deps(e), actorOf(c), { ...c.params, ...c.body })),
  },
  "GET /api/webhooks/{webhookId}/deliveries": {
    handler: async (e, c) => json(200, await listDeliveries(deps(e), actorOf(c), { ...c.params, ...c.query })),
  },
  "POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": {
    handler: async (e, c) => json(202, await redeliver(deps(e), actorOf(c), c.params)),
  },
});
