import type { Role } from "../workspaces/roles";

/** A pending invitation to a workspace (docs/data-model.md: `INVITATION#<invitationId>` in the workspace's partition). */
export interface Invitation {
  workspaceId: string;
  /** `inv_` + 16 base62. */
  invitationId: string;
  /** Normalized like the accounts' addresses (trimmed, lower-cased, ASCII domain). */
  email: string;
  role: Role;
  /** userId of the member who invited (or last re-sent). */
  invitedBy: string;
  createdAt: string;
  /** Epoch seconds; the item's TTL is the same moment. */
  expiresAt: number;
  /** SHA-256 (hex) of the token the mail carries; the token itself is never stored. */
  tokenHash: string;
}

/** The mailed token's item (`TOKEN#<sha256>`, purpose `workspace_invitation`): what a link leads to. */
export interface InvitationToken {
  tokenHash: string;
  workspaceId: string;
  invitationId: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export type AcceptOutcome =
  /** Token consumed, invitation gone, member added, counters raised: one transaction. */
  | "accepted"
  /** The token or the invitation was used, revoked, replaced or expired meanwhile. */
  | "gone";

export interface InvitationRepository {
  /** The invitation and its token item in one transaction. */
  create(invitation: Invitation): Promise<void>;
  /** Strongly consistent (a revoke or an accept counts from the next request). */
  get(workspaceId: string, invitationId: string): Promise<Invitation | undefined>;
  /** Every invitation item of the workspace, expired ones included (TTL removes them lazily). */
  list(workspaceId: string): Promise<Invitation[]>;
  /** A token item by its hash, whatever its expiry (the caller decides): one strongly consistent read. */
  findToken(tokenHash: string): Promise<InvitationToken | undefined>;
  /** Deletes the invitation and its token in one transaction; false when it was already gone. */
  revoke(invitation: Invitation): Promise<boolean>;
  /**
   * A new token and expiry for the invitation: the old token deleted, the new one put, the
   * invitation updated only if it still holds the old token. False when it was gone meanwhile.
   */
  renew(invitation: Invitation, next: { tokenHash: string; expiresAt: number; invitedBy: string; at: string }): Promise<boolean>;
  /**
   * One transaction: add the member with the workspace's and the user's counters and limits
   * (exactly the WorkspaceCatalog's addMember), consume the token (it must exist, be this
   * invitation's and unexpired at `nowSeconds`) and delete the invitation. "gone" when the token
   * or invitation failed its condition; the member add's refusals are its domain errors
   * (ConflictError `already_member`, `limit_reached` with `{limit: "members" | "workspaces"}`).
   */
  accept(input: { invitation: Invitation; userId: string; joinedAt: string; nowSeconds: number }): Promise<AcceptOutcome>;
}
