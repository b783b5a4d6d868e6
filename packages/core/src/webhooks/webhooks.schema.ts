import * as z from "zod/mini";

/**
 * Webhooks (docs/webhooks.md): the request schemas of the webhook routes and the shapes they
 * answer. Browser-safe (zod/mini only), so the dashboard imports it through
 * `@hangar/core/webhooks-schema` and validates its forms with the very schemas the API parses.
 */

/** Every event an endpoint can subscribe to; docs/webhooks.md documents each payload. */
export const WEBHOOK_EVENTS = [
  "build.completed",
  "build.rejected",
  "build.distributed",
  "build.deleted",
  "link.settings_changed",
  "key.created",
  "key.revoked",
  "tester.joined",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** `webhook`: signed JSON (Standard Webhooks); `slack`: a Block Kit message; `teams`: an Adaptive Card. */
export const WEBHOOK_TYPES = ["webhook", "slack", "teams"] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

/** Endpoints per workspace: enough for every chat channel and system a team wires in. */
export const MAX_WEBHOOKS_PER_WORKSPACE = 20;
export const DELIVERY_PAGE_SIZE = 50;

export const WEBHOOK_ID = /^whk_[0-9A-Za-z]{16}$/;
export const DELIVERY_ID = /^msg_[0-9A-Za-z]{24}$/;

const url = z.string().check(
  z.maxLength(2000, "must be at most 2000 characters"),
  z.refine((v) => URL.canParse(v), "must be an absolute URL"),
  // The scheme is checked here (a form error); whether http is allowed and where the name points
  // are the sender's to decide, at every delivery (safe-request.ts).
  z.refine((v) => /^https?:\/\//i.test(v), "must be an https:// URL"),
  z.refine((v) => !URL.canParse(v) || (new URL(v).username === "" && new URL(v).password === ""), "must not contain a user name or password"),
);

const description = z.string().check(
  z.maxLength(200, "must be at most 200 characters"),
  z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v), "must not contain control characters"),
);

const events = z.array(z.enum(WEBHOOK_EVENTS, { error: "is not an event (docs/webhooks.md lists them)" })).check(
  z.minLength(1, "must name at least one event"),
  z.maxLength(WEBHOOK_EVENTS.length, "names an event twice"),
);

const projectIds = z.array(z.string().check(z.regex(/^[A-Za-z0-9_]{1,64}$/, "is not a project id"))).check(z.maxLength(100, "must name at most 100 projects"));

/**
 * A branch filter: a glob where `*` matches within a path segment and `**` across `/`
 * (`release/*`, `main`, `feature/**`). Matched against the build's branch; a build without a
 * branch never matches a filter.
 */
const branchFilter = z.string().check(
  z.minLength(1, "must not be empty (leave it out for every branch)"),
  z.maxLength(200, "must be at most 200 characters"),
  z.regex(/^[A-Za-z0-9._/*@+-]+$/, "may contain letters, digits, . _ / - + @ and the wildcard *"),
);

export const CreateWebhook = z.strictObject({
  type: z._default(z.enum(WEBHOOK_TYPES, { error: "must be webhook, slack or teams" }), "webhook"),
  url,
  description: z._default(description, ""),
  events,
  /** Only these projects' events; absent or empty: every project of the workspace. */
  projectIds: z.optional(projectIds),
  branchFilter: z.optional(z.nullable(branchFilter)),
  enabled: z._default(z.boolean({ error: "must be true or false" }), true),
});
export type CreateWebhook = z.output<typeof CreateWebhook>;

export const UpdateWebhook = z.strictObject({
  url: z.optional(url),
  description: z.optional(description),
  events: z.optional(events),
  projectIds: z.optional(projectIds),
  branchFilter: z.optional(z.nullable(branchFilter)),
  enabled: z.optional(z.boolean({ error: "must be true or false" })),
});
export type UpdateWebhook = z.output<typeof UpdateWebhook>;

export const WebhookRef = z.object({ webhookId: z.string().check(z.regex(WEBHOOK_ID)) });
export type WebhookRef = z.infer<typeof WebhookRef>;
export const DeliveryRef = z.object({ webhookId: z.string().check(z.regex(WEBHOOK_ID)), deliveryId: z.string().check(z.regex(DELIVERY_ID)) });
export type DeliveryRef = z.infer<typeof DeliveryRef>;
export const DeliveriesQuery = z.object({ cursor: z.optional(z.string().check(z.maxLength(512))) });
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;
/** `POST /api/webhooks/{webhookId}/test`: `{}` sends a build.completed example, `{"event": "key.created"}` another. */
export const TestWebhook = z.strictObject({ event: z.optional(z.enum(WEBHOOK_EVENTS, { error: "is not an event (docs/webhooks.md lists them)" })) });
export type TestWebhook = z.output<typeof TestWebhook>;

/** Why an endpoint is off: turned off by a person, or by the service after failing deliveries. */
export type DisabledReason = "manual" | "failing";

export interface WebhookView {
  webhookId: string;
  workspaceId: string;
  type: WebhookType;
  url: string;
  description: string;
  events: WebhookEventType[];
  /** Empty: every project. */
  projectIds: string[];
  branchFilter: string | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  /** Failed attempts in a row (reset by a success); at the limit the endpoint is disabled. */
  failureStreak: number;
  /** Until when the previous secret still signs too (after a rotation), else null. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The create's and the rotation's answer: the secret, shown this once and never again. */
export interface WebhookWithSecretView extends WebhookView {
  secret: string;
}

export interface DeliveryAttemptView {
  attempt: number;
  at: string;
  /** The receiver's HTTP status, or null when no answer came (refused, timed out, connection error). */
  status: number | null;
  latencyMs: number;
  /** The first 2 KB of the answer's body (UTF-8, cut on a character boundary). */
  responseBody: string | null;
  error: string | null;
}

export type DeliveryState = "pending" | "succeeded" | "failed";

export interface DeliveryView {
  /** The `webhook-id` every attempt of this delivery carries. */
  deliveryId: string;
  webhookId: string;
  event: WebhookEventType;
  /** A test event sent from the dashboard or the API. */
  test: boolean;
  state: DeliveryState;
  createdAt: string;
  nextAttemptAt: string | null;
  attempts: DeliveryAttemptView[];
}

export interface DeliveryPageView {
  items: DeliveryView[];
  nextCursor: string | null;
}
