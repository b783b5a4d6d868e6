import type { Role } from "../workspaces/roles";

/** A workspace: the owner of projects (and through them keys, files, links). */
export interface Workspace {
  workspaceId: string;
  name: string;
  /** The workspace sign-up made for its user (id derived from the user's: workspace-ids.ts). */
  personal: boolean;
  createdAt: string;
  /** userId of who created it. */
  createdBy: string;
  memberCount: number;
  ownerCount: number;
  /** Set when its delete has started: from then on nobody has access (membership reads nothing). */
  deleting?: true;
}

/** One person's place in one workspace. */
export interface Membership {
  workspaceId: string;
  userId: string;
  role: Role;
  joinedAt: string;
  /** Last dashboard request in this workspace (refreshed at most once an hour). */
  lastActiveAt?: string;
}

/** What creating a workspace needs; the counters start at one member, one owner, no projects. */
export interface NewWorkspace {
  workspaceId: string;
  name: string;
  personal: boolean;
  createdAt: string;
  /** The creator, who becomes its first owner. */
  createdBy: string;
}

/**
 * Workspaces and their members (docs/data-model.md). `membership` is what every access check
 * reads: strongly consistent, so a removal or a role change counts from the next request.
 *
 * Refusals are domain errors: ConflictError `limit_reached` (details `{limit: "members" |
 * "workspaces"}`, MAX_MEMBERS / MAX_WORKSPACES_PER_USER of workspaces/limits.ts), `already_member`,
 * `last_owner` (a change that would leave the workspace without an owner: exact under
 * concurrency, the workspace's `ownerCount > 1` is the transaction's condition); NotFoundError
 * `member_not_found` / `workspace_not_found` for what is not there (any more).
 */
export interface WorkspaceCatalog {
  /** Undefined for a non-member, and for everyone once the workspace's delete has started. */
  membership(workspaceId: string, userId: string): Promise<Membership | undefined>;
  /** The workspace, also while it is being deleted (`deleting`). */
  get(workspaceId: string): Promise<Workspace | undefined>;
  /** The user's workspaces with their membership, in no particular order (gsi1, then one BatchGet); none being deleted. */
  listForUser(userId: string): Promise<{ workspace: Workspace; membership: Membership }[]>;
  /** Every member of a workspace (at most MAX_MEMBERS), strongly consistent. */
  listMembers(workspaceId: string): Promise<Membership[]>;
  /** The workspace, its creator as owner and the creator's workspace counter, in one transaction. */
  create(workspace: NewWorkspace): Promise<Workspace>;
  /** The renamed workspace; undefined when it is gone. */
  rename(workspaceId: string, name: string): Promise<Workspace | undefined>;
  /**
   * A new member: the member item, the workspace's counters and the user's, in one transaction
   * (the limits' conditions in it). A caller that must write more in the same transaction (an
   * invitation's accept) builds it from the DynamoDB adapter's `memberAddItems`.
   */
  addMember(membership: Membership): Promise<void>;
  /** The member with the new role. */
  changeRole(workspaceId: string, userId: string, role: Role): Promise<Membership>;
  /** Removes a member (leaving is removing oneself). */
  removeMember(workspaceId: string, userId: string): Promise<void>;
  /** `to` becomes owner, `from` (an owner) becomes admin, in one transaction. */
  transferOwnership(workspaceId: string, from: string, to: string): Promise<void>;
  /** Refreshes the member's lastActiveAt when it is older than an hour (else writes nothing). */
  touch(membership: Membership): Promise<void>;
  /**
   * Starts a delete: the workspace reads as gone to every member from the next request, and no
   * project can be created in it. False when it is gone already. Idempotent.
   */
  markDeleting(workspaceId: string): Promise<boolean>;
  /**
   * The workspace item, its members (and their counters), invitations and their tokens, and its
   * audit log (`AUDIT#<workspaceId>`). Its projects must be gone (ConflictError
   * `workspace_not_empty` otherwise: purge.ts purges them first). Idempotent.
   */
  remove(workspaceId: string): Promise<void>;
}
