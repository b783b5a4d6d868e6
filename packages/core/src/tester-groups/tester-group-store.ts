import type { TesterGroupDirectory } from "../ports/tester-groups.port";
import type { LastInstall } from "./tester-groups.schema";

/**
 * How the tester groups' use cases read and write storage (implemented by DynamoTesterGroups,
 * tester-groups.dynamo.ts; an in-memory one in the unit tests). Every rule that must hold under
 * concurrency is the store's: unique names, the 100-group and 1,000-tester caps, one live invite
 * link, a join counted against the link's cap.
 */

export interface StoredInviteLink {
  linkId: string;
  /** SHA-256 (hex) of the link's token: the key of its `groupInviteLink` item. */
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
  maxMembers: number | null;
  joinedCount: number;
}

export interface StoredGroup {
  groupId: string;
  workspaceId: string;
  name: string;
  testerCount: number;
  createdAt: string;
  createdBy: string;
  inviteLink?: StoredInviteLink;
  /** Set by a delete under way (its testers are being removed): the group is gone for every reader. */
  deleting?: true;
}

export interface StoredTester {
  groupId: string;
  workspaceId: string;
  email: string;
  addedAt: string;
  source: "added" | "joined";
  /** The member who added them; null for a join through the invite link. */
  addedBy: string | null;
}

/** What a join through an invite link came to. */
export type JoinOutcome = "joined" | "already" | "gone";

export interface TesterGroupStore extends TesterGroupDirectory {
  /** Puts a group and its name item if the name is free and the workspace has fewer than `maxGroups`: GroupConflictError otherwise. */
  create(group: StoredGroup, maxGroups: number): Promise<void>;
  /** A live group (strongly consistent), or undefined (unknown, or being deleted unless `evenDeleting`: a delete resumes from it). */
  get(workspaceId: string, groupId: string, options?: { evenDeleting?: boolean }): Promise<StoredGroup | undefined>;
  /** The workspace of a group id (gsi1 `GROUP#<id>`), or undefined. */
  workspaceOf(groupId: string): Promise<string | undefined>;
  /** The workspace's live groups, in no particular order. */
  list(workspaceId: string): Promise<StoredGroup[]>;
  /** Renames a live group, moving its name item (GroupConflictError `group_name_taken`); the group after it. */
  rename(group: StoredGroup, name: string): Promise<StoredGroup | undefined>;
  /** Removes the group, its name, its invite link and every tester of it (idempotent; resumes a delete under way). */
  delete(group: StoredGroup): Promise<void>;
  /** Every tester of the group. */
  testers(groupId: string): Promise<StoredTester[]>;
  /**
   * Adds these (distinct, normalized) testers to a live group, each at most once, while the group
   * stays at most `maxTesters`: the ones that were there already come back in `already`. When the
   * cap leaves no place for the rest, GroupConflictError `limit_reached` (what was added before it
   * stays, and is named in its details).
   */
  addTesters(group: StoredGroup, testers: StoredTester[], maxTesters: number): Promise<{ added: string[]; already: string[] }>;
  /** Removes one tester; false when they were not in the group. */
  removeTester(group: StoredGroup, email: string): Promise<boolean>;
  /** Makes `link` the group's one live link: the previous one's item goes in the same transaction. */
  setInviteLink(group: StoredGroup, link: StoredInviteLink): Promise<StoredGroup | undefined>;
  /** Revokes the group's live link; false when it had none. */
  removeInviteLink(group: StoredGroup): Promise<boolean>;
  /** The group an invite link token's hash names, or undefined. */
  inviteLinkOf(tokenHash: string): Promise<{ groupId: string; workspaceId: string; linkId: string } | undefined>;
  /**
   * Adds `tester` through the link `linkId` in one transaction: only while it is the group's live
   * link, unexpired at `now`, under its member cap and under the group's; counted on the link.
   */
  join(group: StoredGroup, linkId: string, tester: StoredTester, now: string, maxTesters: number): Promise<JoinOutcome>;
  /** The workspace's `lastInstall` items of these addresses (absent ones are not in the map). */
  lastInstalls(workspaceId: string, emails: readonly string[]): Promise<Map<string, LastInstall>>;
}
