export type ApiKeyStatus = "active" | "revoked";

export interface ApiKey {
  clientId: string;
  /** Hex SHA-256 of the secret; the secret itself is never stored. */
  secretHash: string;
  name: string;
  projectId: string;
  userId: string;
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
