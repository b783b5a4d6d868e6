import { CreateWebhook, DeliveriesQuery, DeliveryRef, TestWebhook, UpdateWebhook, WebhookRef } from "@hangar/core/webhooks-schema";
import { deliveryNotFound, webhookNotFound } from "@hangar/core/webhook-errors";
import type { RouteKeyOf } from "../routes";
import { dashboard, workspace, type RouteInput } from "./rows";

const webhook = { params: WebhookRef, notFound: webhookNotFound } as const;
const delivery = { params: DeliveryRef, notFound: deliveryNotFound } as const;

/** The webhooks function's routes (routes.ts). */
export const input = {
  "GET /api/workspaces/{workspaceId}/webhooks": dashboard(workspace),
  "POST /api/workspaces/{workspaceId}/webhooks": dashboard({ ...workspace, body: CreateWebhook }),
  "GET /api/webhooks/{webhookId}": dashboard(webhook),
  "PATCH /api/webhooks/{webhookId}": dashboard({ ...webhook, body: UpdateWebhook }),
  "DELETE /api/webhooks/{webhookId}": dashboard(webhook),
  "POST /api/webhooks/{webhookId}/rotate-secret": dashboard(webhook),
  // `{}` sends a build.completed example; `{"event": …}` names another.
  "POST /api/webhooks/{webhookId}/test": dashboard({ ...webhook, body: TestWebhook }),
  "GET /api/webhooks/{webhookId}/deliveries": dashboard({ ...webhook, query: DeliveriesQuery }),
  "POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": dashboard(delivery),
} as const satisfies Record<RouteKeyOf<"webhooks">, RouteInput>;
