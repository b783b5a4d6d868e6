import { decodeCursor, encodeCursor } from "../dashboard/cursor";
import type { AuditEntry, AuditLogReader } from "../ports/audit-log.port";
import type { StageSecret } from "../ports/stage-secret.port";
import type { UserRepository } from "../ports/user-repository.port";
import type { WorkspaceCatalog } from "../ports/workspace-catalog.port";
import { workspaceAccess } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import { AUDIT_PAGE_SIZE, type AuditEntryView, type AuditPageView, type AuditQuery, type AuditWorkspaceRef } from "./audit.schema";

export interface AuditDeps {
  /** The access check; with `touch`, reading the log counts as the member's activity. */
  workspaces: Pick<WorkspaceCatalog, "membership"> & Partial<Pick<WorkspaceCatalog, "touch">>;
  audit: AuditLogReader;
  /** For the current address of an actor whose entry was recorded without one. */
  users: Pick<UserRepository, "get">;
  cursorSecret: StageSecret;
}

/** What a sort key of the audit log looks like: `<ISO time>#<entry id>` (adapters/dynamo/audit-log.dynamo.ts). */
const AUDIT_SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z#[0-9a-f]{16}$/;

/**
 * A page of a workspace's audit log, newest first: `{items, nextCursor}` (nextCursor null at the
 * end). Owners and admins only (`audit.read`): a viewer or developer gets 403 `forbidden`, a
 * non-member 404 like an unknown workspace, before anything of the log is read.
 *
 * The cursor is MAC'd over the workspace and the filters, so a cursor of another workspace, of
 * another filter, or edited by hand is a 400 `invalid_cursor`, never a different page.
 */
export async function listAudit(deps: AuditDeps, actor: Actor, input: AuditWorkspaceRef & AuditQuery): Promise<AuditPageView> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "audit.read");
  // An empty filter value is no filter (audit.schema.ts).
  const filter = { actor: input.actor || undefined, action: input.action || undefined };
  const secret = await deps.cursorSecret.bytes();
  const list = `audit\n${input.workspaceId}\n${filter.actor ?? ""}\n${filter.action ?? ""}`;
  const after = decodeCursor(secret, list, input.cursor, AUDIT_SORT_KEY);
  const page = await deps.audit.list(input.workspaceId, { ...filter, ...(after ? { after } : {}), limit: AUDIT_PAGE_SIZE });
  const emails = await currentEmails(deps, page.items);
  return {
    items: page.items.map((entry): AuditEntryView => ({
      entryId: entry.entryId,
      at: entry.at,
      action: entry.action,
      actor: {
        userId: entry.actor.userId,
        email: entry.actor.email ?? emails.get(entry.actor.userId) ?? null,
        ip: entry.actor.ip ?? null,
        userAgentFamily: entry.actor.userAgentFamily ?? null,
      },
      target: entry.target ?? null,
      details: entry.details ?? {},
    })),
    nextCursor: encodeCursor(secret, list, page.after),
  };
}

/** The current address of each actor whose entry kept none: one read per distinct user of the page. */
async function currentEmails(deps: Pick<AuditDeps, "users">, entries: AuditEntry[]): Promise<Map<string, string>> {
  const missing = [...new Set(entries.filter((e) => !e.actor.email).map((e) => e.actor.userId))];
  const users = await Promise.all(missing.map((userId) => deps.users.get(userId)));
  return new Map(users.flatMap((user) => (user ? [[user.userId, user.email] as const] : [])));
}
