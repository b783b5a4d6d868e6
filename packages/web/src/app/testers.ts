import { ACTIONS } from "@hangar/core/roles";
import { ApiError, describeError } from "../api/api-client";
import type { DeviceFamily, InviteLink, LastInstall, RecipientStatus } from "../api/testers.api";
import { platformLabel } from "../components/file-list";
import { formatDateTime } from "./format";
import type { Action } from "../api/workspaces.api";
import { ACTION_WORDS } from "./workspace";

/**
 * The testers pages' words and small rules (issue 20): what a refusal means in terms of what to
 * do next, the addresses in a pasted list or an imported file, and an invite link's state.
 */

/** Most addresses one request may add (the contract's 1–1,000). */
export const MAX_ADDRESSES = 1000;

/**
 * The addresses in pasted text or an imported .txt/.csv: whatever looks like one, separated by
 * commas, semicolons, newlines, tabs or spaces (a CSV row "Ada Lovelace,ada@example.com,iOS"
 * gives its address, and a header row none), quotes and `<>` of "Name <a@b>" dropped, duplicates
 * once (compared without case). The server checks each again and answers which it refused.
 */
export function parseAddresses(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const token = raw.replace(/^[<"'(]+|[>"')]+$/g, "").trim();
    if (!token.includes("@")) continue;
    const key = token.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(token);
  }
  return out;
}

/** The permission a 403 names (`Your role … does not allow testers.manage`), if one of the policy's. */
function refusedAction(error: ApiError): Action | undefined {
  return (ACTIONS as readonly Action[]).find((action) => error.message.includes(action));
}

/** Refusals of the testers API in words that say what to do next; anything else as the API says it. */
export function describeTesterError(error: unknown): string {
  if (!(error instanceof ApiError)) return describeError(error);
  switch (error.code) {
    case "forbidden": {
      const action = refusedAction(error);
      return action
        ? `Your role in this workspace does not allow you to ${ACTION_WORDS[action]} (permission ${action}). Ask an owner or admin of the workspace.`
        : "Your role in this workspace does not allow this. Ask an owner or admin of the workspace.";
    }
    case "group_name_taken":
      return "A group of this name exists in this workspace already. Choose another name.";
    case "group_not_found":
      return `${describeError(error)} It may have been deleted or renamed; reload the page.`;
    case "tester_not_found":
      return "That tester is no longer in this group.";
    case "limit_reached":
      return `${describeError(error)} Remove some first, or ask whoever runs this Hangar.`;
    default:
      return describeError(error);
  }
}

/** Runs a request and says its refusal in `describeTesterError`'s words (forms show the error's message). */
export async function inTesterWords<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(error.status, error.code, describeTesterError(error), error.requestId, error.fields, error.retryAfterSeconds);
  }
}

export type InviteLinkState = "none" | "open" | "expired" | "full";

export function inviteLinkState(link: InviteLink | null, now = Date.now()): InviteLinkState {
  if (!link) return "none";
  if (link.expiresAt && new Date(link.expiresAt).getTime() <= now) return "expired";
  if (link.maxMembers !== null && link.joinedCount >= link.maxMembers) return "full";
  return "open";
}

export const INVITE_STATE_LABEL: Record<InviteLinkState, string> = {
  none: "No invite link",
  open: "Invite link open",
  expired: "Invite link expired",
  full: "Invite link full",
};

/** "12 joined of 30" / "3 joined", with the expiry when there is one. */
export function inviteLinkSummary(link: InviteLink): string {
  const joined = link.maxMembers === null ? `${link.joinedCount} joined` : `${link.joinedCount} of ${link.maxMembers} joined`;
  return link.expiresAt ? `${joined} · expires ${formatDateTime(link.expiresAt)}` : `${joined} · never expires`;
}

/** "1.4.0 (212)" of a build a tester installed, as the file lists show versions. */
export function buildLabel(build: { version: string | null; build: string | null }): string {
  if (build.version && build.build) return `${build.version} (${build.build})`;
  return build.version ?? build.build ?? "unknown version";
}

export function lastInstallLabel(last: Pick<LastInstall, "version" | "build"> & { platform: string | null }): string {
  return `${buildLabel(last)} · ${platformLabel(last.platform)}`;
}

export const RECIPIENT_STATUS: Record<RecipientStatus, { label: string; badge: string; hint: string }> = {
  queued: { label: "Queued", badge: "badge-muted", hint: "The mail is waiting to be sent at the sender's rate." },
  sending: { label: "Sending", badge: "badge-muted", hint: "The mail is being sent." },
  sent: { label: "Mailed", badge: "badge-success", hint: "The mail left Hangar." },
  silent: { label: "Not mailed", badge: "badge-muted", hint: "Sent without a mail (notify off): the build is in their portal." },
  suppressed: { label: "Bounced before", badge: "badge-warning", hint: "Mail to this address bounced or was reported as spam, so Hangar sends it none." },
  unsubscribed: { label: "Unsubscribed", badge: "badge-warning", hint: "The tester turned off mails of this project." },
  capped: { label: "Daily cap", badge: "badge-warning", hint: "The workspace reached its daily mail cap; the build is in their portal." },
  failed: { label: "Failed", badge: "badge-danger", hint: "The mail could not be sent." },
};

const DEVICE_FAMILY_LABEL: Record<DeviceFamily, string> = { iPhone: "iPhone", iPad: "iPad", Android: "Android", desktop: "Desktop browser", other: "Other (a script or tool)" };
export const deviceLabel = (family: DeviceFamily) => DEVICE_FAMILY_LABEL[family] ?? family;
