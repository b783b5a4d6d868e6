import * as z from "zod/mini";
import { AUDIT_ACTIONS, type AuditEntry } from "../ports/audit-log.port";
import { WORKSPACE_ID } from "../workspaces/workspace-ids";

/** Entries per page of the audit log (docs/audit-log.md). */
export const AUDIT_PAGE_SIZE = 50;

/** A user id as this service issues them (`usr_` + base62), bounded like the session cookie's. */
const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

/** `{workspaceId}` of the audit route: another shape names no workspace (404, route-input/). */
export const AuditWorkspaceRef = z.object({ workspaceId: z.string().check(z.regex(WORKSPACE_ID, "is not a workspace id")) });
export type AuditWorkspaceRef = z.infer<typeof AuditWorkspaceRef>;

/**
 * `?cursor=&actor=&action=`. An empty value is no filter (a form that clears a filter sends
 * `actor=`); anything else must be a user id / one of AUDIT_ACTIONS (400 naming the field), so a
 * filter that could never match is an error rather than an empty log. The cursor is checked by
 * its MAC (dashboard/cursor.ts); here only bounded.
 */
export const AuditQuery = z.object({
  cursor: z.optional(z.string().check(z.maxLength(512, "is not a cursor"))),
  actor: z.optional(z.union([z.literal(""), z.string().check(z.regex(USER_ID, "is not a user id"))])),
  action: z.optional(z.union([z.literal(""), z.enum(AUDIT_ACTIONS)], { error: "is not an action of the audit log (docs/audit-log.md lists them)" })),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** One entry as `GET /api/workspaces/{workspaceId}/audit` answers it (docs/audit-log.md). */
export interface AuditEntryView {
  entryId: string;
  at: string;
  action: AuditEntry["action"];
  /** `email` null: the account no longer exists (and the entry kept no address). */
  actor: { userId: string; email: string | null; ip: string | null; userAgentFamily: string | null };
  target: AuditEntry["target"] | null;
  details: NonNullable<AuditEntry["details"]>;
}

export interface AuditPageView {
  items: AuditEntryView[];
  /** null on the last page. */
  nextCursor: string | null;
}
