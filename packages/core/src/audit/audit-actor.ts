import type { AuditActor } from "../ports/audit-log.port";
import type { Actor } from "../workspaces/actor";
import { userAgentFamily } from "./user-agent-family";

/**
 * The audit log's "who, from where" of an Actor: the user, the client's address as the HTTP
 * layer counted it (IPv6 already cut to its /64) and the family of its user agent, never the
 * full header. `email` when the use case has it at hand (the log then keeps the address of the
 * time); without it the list shows the account's current address.
 *
 *   await deps.audit.record({ workspaceId, actor: auditActor(actor), action: "key.revoked", target: {…} });
 */
export function auditActor(actor: Actor, email?: string): AuditActor {
  return {
    userId: actor.userId,
    ...(email ? { email } : {}),
    ...(actor.client ? { ip: actor.client.ip, userAgentFamily: userAgentFamily(actor.client.userAgent) } : {}),
  };
}
