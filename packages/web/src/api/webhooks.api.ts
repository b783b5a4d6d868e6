import type {
  CreateWebhook,
  DeliveryPageView,
  DeliveryView,
  UpdateWebhook,
  WebhookEventType,
  WebhookView,
  WebhookWithSecretView,
} from "@hangar/core/webhooks-schema";
import { apiRequest } from "./api-client";

/*
 * The webhooks API (issue 21, docs/webhooks.md): a workspace's endpoints, their secrets (in the
 * create's and the rotation's answers only), test events and the delivery log. The shapes are
 * core's (`@hangar/core/webhooks-schema`), the very ones the API answers.
 */

export type { DeliveryView as Delivery, WebhookView as Webhook, WebhookWithSecretView as WebhookWithSecret, WebhookEventType };
/** What the form sends: the schema's input (its defaults filled in by the API). */
export type WebhookInput = Partial<CreateWebhook> & Pick<CreateWebhook, "url" | "events">;
export type WebhookChange = UpdateWebhook;

const id = (value: string) => encodeURIComponent(value);
const hook = (webhookId: string) => `/api/webhooks/${id(webhookId)}`;

export const webhooksApi = {
  list: (workspaceId: string) => apiRequest<{ items: WebhookView[] }>("GET", `/api/workspaces/${id(workspaceId)}/webhooks`),
  create: (workspaceId: string, input: WebhookInput) => apiRequest<WebhookWithSecretView>("POST", `/api/workspaces/${id(workspaceId)}/webhooks`, input),
  update: (webhookId: string, change: WebhookChange) => apiRequest<WebhookView>("PATCH", hook(webhookId), change),
  remove: (webhookId: string) => apiRequest<void>("DELETE", hook(webhookId)),
  rotateSecret: (webhookId: string) => apiRequest<WebhookWithSecretView>("POST", `${hook(webhookId)}/rotate-secret`),
  test: (webhookId: string, event: WebhookEventType) => apiRequest<DeliveryView>("POST", `${hook(webhookId)}/test`, { event }),
  deliveries: (webhookId: string, cursor: string | null) =>
    apiRequest<DeliveryPageView>("GET", `${hook(webhookId)}/deliveries${cursor ? `?cursor=${id(cursor)}` : ""}`),
  redeliver: (webhookId: string, deliveryId: string) => apiRequest<DeliveryView>("POST", `${hook(webhookId)}/deliveries/${id(deliveryId)}/redeliver`),
};
