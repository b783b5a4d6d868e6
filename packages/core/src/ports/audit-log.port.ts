/** Who did something, as the HTTP layer saw them (the audit log's "who" and "from where"). */
export interface AuditActor {
  userId: string;
  /** The actor's address at the time (the log keeps what it was, not a lookup). */
  email?: string;
  /** Client address (IPv6 reduced to its /64 by the HTTP layer). */
  ip?: string;
  /** "Chrome", "Firefox", "Safari", "curl", "Hangar CLI", … never the full header. */
  userAgentFamily?: string;
}

/** The actions the audit log records (docs/teams.md lists them with what each entry holds). */
export const AUDIT_ACTIONS = [
  "workspace.created",
  "workspace.renamed",
  "invitation.created",
  "invitation.resent",
  "invitation.revoked",
  "invitation.accepted",
  "member.role_changed",
  "member.removed",
  "member.left",
  "ownership.transferred",
  "project.created",
  "project.updated",
  "project.deleted",
  "build.uploaded",
  "build.deleted",
  // Issue 24 (docs/release-safety.md): a build pinned against the project's retention policy, or unpinned.
  "build.pinned",
  "build.unpinned",
  // A build sent to testers (issue 20, docs/testers.md): groups, recipients and new mails in details.
  "build.distribute",
  "key.created",
  "key.regenerated",
  "key.revoked",
  "link.settings_changed",
  "link.regenerated",
  // Tester groups (issue 20, docs/testers.md "Groups").
  "group.create",
  "group.update",
  "group.delete",
  "group.testers_add",
  "group.tester_remove",
  "group.invite_link_create",
  "group.invite_link_revoke",
  // Issue 20 (docs/testers.md): a project's public app page and its update tokens.
  "project.app_page_update",
  "update_token.created",
  "update_token.revoked",
  // Issue 21 (docs/webhooks.md): webhook endpoints made, changed, removed, given a new secret.
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  // docs/devices.md "Register with Apple": a device Apple's developer account now has through Hangar.
  "device.registered_with_apple",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntryInput {
  workspaceId: string;
  actor: AuditActor;
  action: AuditAction;
  /** What was acted on: `{ type: "key", id: "hgr_…", label: "CI" }`. */
  target?: { type: "workspace" | "member" | "invitation" | "project" | "build" | "key" | "link" | "group" | "webhook" | "device"; id: string; label?: string };
  /** Small, safe, already-bounded facts (a role change's from/to, which link settings changed). */
  details?: Record<string, string | number | boolean | null>;
}

export interface AuditEntry extends AuditEntryInput {
  entryId: string;
  at: string;
}

/** Which entries of a workspace's log a page shows, and from where (list()). */
export interface AuditPageQuery {
  /** The sort key of the last entry (or of the last one read) of the previous page; the newest entries without it. */
  after?: string;
  /** Only the entries of this user id. */
  actor?: string;
  /** Only the entries of this action. */
  action?: AuditAction;
  /** At most this many entries. */
  limit: number;
}

export interface AuditPage {
  /** Newest first. */
  items: AuditEntry[];
  /**
   * Where the next page starts when more entries may follow; undefined at the end of the log.
   * With a filter, a page can come back short (even empty) with `after` set: the adapter stops
   * reading after a bounded number of queries rather than scanning a whole year of log.
   */
  after?: string;
}

/** Append-only; entries expire after 400 days (DynamoDB TTL). What every use case that changes things records through. */
export interface AuditLog {
  record(entry: AuditEntryInput): Promise<void>;
}

/**
 * Reading the log: the audit route's use case only. A port of its own so that the many writers'
 * deps (and their test fakes) need nothing but `record`.
 */
export interface AuditLogReader {
  /** A page of one workspace's entries, newest first. */
  list(workspaceId: string, query: AuditPageQuery): Promise<AuditPage>;
}
