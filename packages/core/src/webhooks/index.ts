/** Webhooks, Slack and Teams messages (docs/webhooks.md): `@hangar/core/webhooks`. */
export * from "./webhooks.schema";
export type * from "./webhook-events";
export * from "./event-builders";
export * from "./signing";
export * from "./address-policy";
export * from "./safe-request";
export * from "./slack-message";
export * from "./teams-card";
export * from "./retry-schedule";
export * from "./branch-glob";
export * from "./sample-events";
export * from "./deliver";
export * from "./manage-webhooks";
export type { EventPublisher } from "../ports/events.port";
export type * from "../ports/webhooks.port";
