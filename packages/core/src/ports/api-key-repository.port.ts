import { personalWorkspaceId } from "../workspaces/workspace-ids";
import type { RateLimitDecision } from "./rate-limiter.port";

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

/** What one admission found: the stored key (if any) and, when it admitted the secret, its rate decision. */
export interface KeyAdmission {
  /** The stored key, whatever the secret: authenticate compares its hash itself (constant time). */
  apiKey: ApiKey | undefined;
  /**
   * Present only when `secretHash` was the active key's: the API keys' rate rule applied to this
   * request (counted when allowed). Absent for unknown ids, wrong secrets and revoked keys, which
   * counted nothing at all.
   */
  decision?: RateLimitDecision;
}

/**
 * The API-key request path in one storage write: checks the presented secret's hash and the key's
 * status, counts the request on the key's rate window and its day's usage, and returns the key
 * (api-key-gate.dynamo.ts). Nothing is counted unless the secret is the key's.
 */
export interface ApiKeyGate {
  admit(clientId: string, secretHash: string, now: Date): Promise<KeyAdmission>;
}

/** The workspace a key belongs to (a key from before workspaces: its creator's personal one). */
export function keyWorkspaceId(key: Pick<ApiKey, "userId" | "workspaceId">): string {
  return key.workspaceId ?? personalWorkspaceId(key.userId);
}
