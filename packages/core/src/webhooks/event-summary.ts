import type { BuildPayload, EventActor, WebhookEvent } from "./webhook-events";

/**
 * What a chat message says about an event, in plain text, before any format's escaping: the
 * Slack and Teams renderers build from these pieces and escape them for their own markup.
 */

export const PLATFORM_NAMES = { android: "Android", ios: "iOS" } as const;

/** Release notes shown in a chat message: the first lines, not the changelog. */
export const NOTES_EXCERPT_CHARS = 500;

export function excerpt(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

export function appTitle(build: BuildPayload): string {
  return build.appName ?? build.fileName;
}

/** `1.4.0 (212)`, or the file name's when the package named no version. */
export function versionText(build: BuildPayload): string {
  if (!build.version) return "";
  return build.buildNumber ? `${build.version} (${build.buildNumber})` : build.version;
}

export function actorText(actor: EventActor): string {
  if (actor.kind === "system") return "the project's retention policy";
  return actor.kind === "apiKey" ? `API key ${actor.clientId}` : (actor.email ?? "a member");
}

/** The message's headline, per event. */
export function headline(event: WebhookEvent): string {
  switch (event.type) {
    case "build.completed":
      return "New build ready to install";
    case "build.rejected":
      return "Build rejected";
    case "build.distributed":
      return "Build sent to testers";
    case "build.deleted":
      return "Build deleted";
    case "link.settings_changed":
      return "Share link changed";
    case "key.created":
      return "API key created";
    case "key.revoked":
      return "API key revoked";
    case "tester.joined":
      return "Tester joined";
  }
}

/** The build an event is about, if it is about one. */
export function buildOf(event: WebhookEvent): BuildPayload | undefined {
  return "build" in event.data ? event.data.build : undefined;
}

/** One line of facts for events without a build (keys, testers), and extra facts for some with one. */
export function detailLines(event: WebhookEvent): string[] {
  switch (event.type) {
    case "build.rejected":
      return [`Reason: ${event.data.rejection.message}`];
    case "build.distributed": {
      const d = event.data.distribution;
      const groups = d.groups.map((g) => g.name).join(", ");
      return [`Sent to ${d.recipients} tester${d.recipients === 1 ? "" : "s"}${groups ? ` in ${groups}` : ""} by ${actorText(event.data.actor)}`];
    }
    case "build.deleted":
      return [`Deleted by ${actorText(event.data.actor)}`];
    case "link.settings_changed": {
      const l = event.data.link;
      return [`Link ${l.enabled ? "enabled" : "disabled"}${l.expiresAt ? `, expires ${l.expiresAt}` : ""}${l.hasPassword ? ", password protected" : ""}${l.maxDownloads !== null ? `, at most ${l.maxDownloads} downloads` : ""}`];
    }
    case "key.created":
    case "key.revoked":
      return [`Key “${event.data.key.name}” (${event.data.key.clientId}) of project ${event.data.key.projectId}, by ${actorText(event.data.actor)}`];
    case "tester.joined":
      return [`${event.data.tester.email} joined the group “${event.data.group.name}”${event.data.via === "invite_link" ? " through its invite link" : ""}`];
    default:
      return [];
  }
}
