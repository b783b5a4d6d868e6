import type { ApiKey } from "./api-key-repository.port";

/** The dashboard's view of API keys. Keys are listed per project (gsi1). */
export interface KeyCatalog {
  /** Strongly consistent: a regenerate or revoke must be seen by the next read. */
  get(clientId: string): Promise<ApiKey | undefined>;
  listByProject(projectId: string): Promise<ApiKey[]>;
  /** active → revoked, only for the owner, freeing a place under the project's limit; false when not the owner's or not active. */
  revoke(userId: string, key: Pick<ApiKey, "clientId" | "projectId">, at: string): Promise<boolean>;
  /** Replaces the secret hash of an active key of the owner; false otherwise. */
  replaceSecret(userId: string, clientId: string, secretHash: string): Promise<boolean>;
  /** Removes the key item (project and account purges only). */
  remove(clientId: string): Promise<void>;
}
