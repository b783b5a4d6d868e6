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

/**
 * Workspaces and their members (docs/data-model.md). `membership` is what every access check
 * reads: strongly consistent, so a removal or a role change counts from the next request.
 */
export interface WorkspaceCatalog {
  membership(workspaceId: string, userId: string): Promise<Membership | undefined>;
  get(workspaceId: string): Promise<Workspace | undefined>;
}
