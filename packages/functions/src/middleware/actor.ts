import type { Actor } from "@hangar/core";
import type { ClientInfo, SessionContext } from "@hangar/core/accounts";

/**
 * The caller of a session route as core's use cases on workspace data take it: the signed-in
 * user and how their client reached us (session-auth.ts puts both on the context). One helper so
 * that no handler builds an Actor by hand and forgets the client the audit log records.
 *
 *   "DELETE /api/keys/{clientId}": { handler: (_e, c) => revokeKey(deps(), actorOf(c), c.params) }
 */
export function actorOf(context: { session: SessionContext; client?: ClientInfo }): Actor {
  return { userId: context.session.userId, ...(context.client ? { client: context.client } : {}) };
}
