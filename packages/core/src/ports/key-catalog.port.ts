import type { ApiKey } from "./api-key-repository.port";

/**
 * The dashboard's view of API keys. Keys are listed per project (gsi1). Who may change a key is
 * decided before (the workspace's policy, keys.manage); the writes check only that the key is
 * still the one that was read: active, and of the project (in the workspace) it names.
 */
export interface KeyCatalog {
  /** Strongly consistent: a regenerate or revoke must be seen by the next read. */
  get(clientId: string): Promise<ApiKey | undefined>;
  listByProject(projectId: string): Promise<ApiKey[]>;
  /** active → revoked, freeing a place under the project's limit (its item in `workspaceId`); false when not active. */
  revoke(workspaceId: string, key: Pick<ApiKey, "clientId" | "projectId">, at: string): Promise<boolean>;
  /** Replaces the secret hash of an active key of the project; false otherwise. */
  replaceSecret(key: Pick<ApiKey, "clientId" | "projectId">, secretHash: string): Promise<boolean>;
  /** Removes the key item (project and workspace purges only). */
  remove(clientId: string): Promise<void>;
}
