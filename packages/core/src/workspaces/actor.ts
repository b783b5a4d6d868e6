import type { ClientInfo } from "../accounts/account-deps";

/**
 * Who asks, for the use cases on a workspace's data: the signed-in user, and how the HTTP layer
 * saw their client (for the audit log's "from where"). The session middleware builds it.
 */
export interface Actor {
  userId: string;
  client?: ClientInfo;
}
