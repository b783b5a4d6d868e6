import { personalWorkspaceId } from "../workspaces/workspace-ids";

export type ApiKeyStatus = "active" | "revoked";

export interface ApiKey {
  clientId: string;
  /** Hex SHA-256 of the secret; the secret itself is never stored. */
  secretHash: string;
  name: string;
  projectId: string;
  /** Who created the key. The key belongs to its project's workspace, not to this person. */
  userId: string;
  /**
   * The workspace of the key's project. Absent on keys written before workspaces existed: those
   * belong to their creator's personal workspace (keyWorkspaceId).
   */
  workspaceId?: string;
  status: ApiKeyStatus;
  createdAt: string;
}

export interface ApiKeyRepository {
  get(clientId: string): Promise<ApiKey | undefined>;
  /**
   * Fails with ConflictError(already_exists) if the client id is taken, ConflictError(limit_reached)
   * when its project has MAX_ACTIVE_KEYS active keys, ConflictError(project_deleting) when the
   * project is gone or being deleted. The limit holds under concurrent creates.
   */
  create(key: ApiKey): Promise<void>;
}

/** The workspace a key belongs to (a key from before workspaces: its creator's personal one). */
export function keyWorkspaceId(key: Pick<ApiKey, "userId" | "workspaceId">): string {
  return key.workspaceId ?? personalWorkspaceId(key.userId);
}
