import type { WebhookEventType } from "./webhooks.schema";
import type { BuildDiff } from "../releases/build-diff";

/**
 * The events webhooks carry and their payloads (docs/webhooks.md shows one example of each).
 * Types only: browser-safe, and the one definition the publishers, the renderers and the docs'
 * examples test (packages/core/test/webhooks/webhook-payloads.test.ts) agree on.
 *
 * What goes over the wire is the Standard Webhooks envelope `{type, timestamp, data}`; `data` is
 * one of the shapes below. Field names are camelCase like the rest of the API; absent facts are
 * `null`, never missing keys, so receivers can rely on the shape.
 */

/** Who did it: a dashboard member, or an API key (CI). */
export type EventActor =
  | { kind: "user"; userId: string; email: string | null }
  | { kind: "apiKey"; clientId: string }
  // Hangar itself: the daily run of a project's retention policy (docs/release-safety.md).
  | { kind: "system" };

export interface BuildLinks {
  /** The share page testers open. */
  share: string;
  /** The direct download of the package. */
  download: string;
  /** The share page's QR code (SVG). */
  qr: string;
  /** The app's icon (PNG), when the package had one. */
  icon: string | null;
}

export interface BuildPayload {
  fileId: string;
  projectId: string;
  fileName: string;
  fileSize: number;
  appName: string | null;
  bundleId: string | null;
  version: string | null;
  buildNumber: string | null;
  platform: "android" | "ios" | null;
  minOs: string | null;
  releaseNotes: string | null;
  branch: string | null;
  commit: string | null;
  ciUrl: string | null;
  createdAt: string;
  completedAt: string | null;
  /** Null once the link is gone (a deleted build) or where none was made (a rejected one). */
  links: BuildLinks | null;
}

export interface BuildCompletedData {
  workspaceId: string;
  build: BuildPayload;
  /** Whether a tester's device can install it, and if not why (the complete's answer). */
  installable: boolean;
  installBlocker: string | null;
  /** What changed from the previous build of the same app (the complete answer's `diff`); null for a first build. */
  diff: BuildDiff | null;
  actor: EventActor;
}

export interface BuildRejectedData {
  workspaceId: string;
  build: BuildPayload;
  rejection: { reason: string; message: string };
  actor: EventActor;
}

export interface BuildDeletedData {
  workspaceId: string;
  build: BuildPayload;
  /** `deleted`: a member deleted it; `retention`: the project's retention policy removed it (actor `system`). */
  reason: "deleted" | "retention";
  actor: EventActor;
}

/** Emitted by the distribution of issue 20 (docs/testers.md): a build sent to groups and testers. */
export interface BuildDistributedData {
  workspaceId: string;
  build: BuildPayload;
  distribution: {
    distributionId: string;
    groups: { groupId: string; name: string }[];
    /** Testers the build went to (each once, whatever the number of groups). */
    recipients: number;
    message: string | null;
  };
  actor: EventActor;
}

export interface LinkSettingsChangedData {
  workspaceId: string;
  build: BuildPayload;
  link: { enabled: boolean; expiresAt: string | null; hasPassword: boolean; maxDownloads: number | null };
  /** The settings the change named (the others kept their values). */
  changed: string[];
  actor: EventActor;
}

export interface KeyData {
  workspaceId: string;
  key: { clientId: string; name: string; projectId: string };
  actor: EventActor;
}

/** Emitted by issue 20's tester groups (docs/testers.md): someone became a tester of a group. */
export interface TesterJoinedData {
  workspaceId: string;
  tester: { email: string };
  group: { groupId: string; name: string };
  /** `invite_link`: joined through the group's link; `added`: a member added the address. */
  via: "invite_link" | "added";
}

export interface EventDataOf {
  "build.completed": BuildCompletedData;
  "build.rejected": BuildRejectedData;
  "build.distributed": BuildDistributedData;
  "build.deleted": BuildDeletedData;
  "link.settings_changed": LinkSettingsChangedData;
  "key.created": KeyData;
  "key.revoked": KeyData;
  "tester.joined": TesterJoinedData;
}

type EventOf<T extends WebhookEventType> = {
  type: T;
  /** When it happened (ISO 8601): the envelope's `timestamp`. */
  occurredAt: string;
  workspaceId: string;
  /** For the endpoints' project filter; null for events of no project. */
  projectId: string | null;
  /** For the endpoints' branch filter; null when the build named none (or the event has no build). */
  branch: string | null;
  data: EventDataOf[T];
};

export type WebhookEvent = { [T in WebhookEventType]: EventOf<T> }[WebhookEventType];

/** The JSON body of a `webhook` endpoint's delivery (Standard Webhooks' recommended envelope). */
export interface WebhookEnvelope {
  type: WebhookEventType;
  timestamp: string;
  data: WebhookEvent["data"];
}
