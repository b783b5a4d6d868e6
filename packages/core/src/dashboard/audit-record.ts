import { auditActor } from "../audit/audit-actor";
import type { AuditEntryInput, AuditLog } from "../ports";
import type { Actor } from "../workspaces/actor";

/** Records a change that succeeded, done by `actor` (the last step of every dashboard use case that changes something). */
export function recordChange(deps: { audit: Pick<AuditLog, "record"> }, actor: Actor, entry: Omit<AuditEntryInput, "actor">): Promise<void> {
  return deps.audit.record({ ...entry, actor: auditActor(actor) });
}
