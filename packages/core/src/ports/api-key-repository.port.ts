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
  /** Fails with ConflictError(already_exists) if the client id is taken. */
  create(key: ApiKey): Promise<void>;
}
