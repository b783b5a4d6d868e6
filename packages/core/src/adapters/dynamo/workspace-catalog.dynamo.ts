import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { ConflictError, DependencyError, NotFoundError, type HangarError } from "../../errors/domain-errors";
import type { Membership, NewWorkspace, Workspace, WorkspaceCatalog } from "../../ports";
import { MAX_MEMBERS, MAX_WORKSPACES_PER_USER } from "../../workspaces/limits";
import { isRole, type Role } from "../../workspaces/roles";
import { lastOwner } from "../../workspaces/workspace-errors";
// Transactions go through counted-limits' one `transact` (TransactionConflict retried with jitter).
import { transact, type TransactItem } from "./counted-limits.dynamo";
import { dynamoFailure, getItem, isConditionFailure, untilProcessed, queryAll } from "./dynamo-errors";
import { gsi1, keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/** lastActiveAt is refreshed at most this often: one write per member and hour, not per request. */
const TOUCH_EVERY_MS = 3_600_000;
/** Rounds of (read, conditional transaction) when a concurrent change moved what was read. */
const ATTEMPTS = 8;

const memberNotFound = () => new NotFoundError("member_not_found", "No member with this id in this workspace");
const workspaceGone = () => new NotFoundError("workspace_not_found", "No workspace with this id among yours");
const memberLimit = () =>
  new ConflictError("limit_reached", `A workspace can have at most ${MAX_MEMBERS} members; remove one to add another`, { limit: "members" });
const workspaceLimit = () =>
  new ConflictError("limit_reached", `An account can belong to at most ${MAX_WORKSPACES_PER_USER} workspaces; leave one to join another`, {
    limit: "workspaces",
  });
const changedMeanwhile = (what: string) => new DependencyError("dynamodb", `${what}: the workspace kept changing; retry`);

export function toWorkspace(item: Record<string, any>): Workspace {
  return {
    workspaceId: item.workspaceId,
    name: item.name,
    personal: item.personal === true,
    createdAt: item.createdAt,
    createdBy: item.createdBy,
    memberCount: Number(item.memberCount ?? 0),
    ownerCount: Number(item.ownerCount ?? 0),
    ...(item.deleting === true ? { deleting: true as const } : {}),
  };
}

export function toMembership(item: Record<string, any>): Membership {
  const membership: Membership = {
    workspaceId: item.workspaceId,
    userId: item.userId,
    role: isRole(item.role) ? item.role : "viewer",
    joinedAt: item.joinedAt,
  };
  if (typeof item.lastActiveAt === "string") membership.lastActiveAt = item.lastActiveAt;
  return membership;
}

/** The stored member item (docs/data-model.md): gsi1 lists a user's workspaces. */
export function memberItem(membership: Membership): Record<string, unknown> {
  return {
    ...keys.member(membership.workspaceId, membership.userId),
    type: "member",
    workspaceId: membership.workspaceId,
    userId: membership.userId,
    role: membership.role,
    joinedAt: membership.joinedAt,
    ...(membership.lastActiveAt ? { lastActiveAt: membership.lastActiveAt } : {}),
    gsi1pk: gsi1.userWorkspaces(membership.userId),
    gsi1sk: keys.workspace(membership.workspaceId).pk,
  };
}

/**
 * The items of a new workspace with its creator as only owner: what `create` writes, and what
 * sign-up (DynamoUserRepository.create) and the migration put beside a user. The creator's
 * `workspaceCount` is the caller's to count (sign-up writes the user with 1).
 */
export function newWorkspaceItems(tableName: string, workspace: NewWorkspace, projectCount = 0): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.workspace(workspace.workspaceId),
          type: "workspace",
          ...workspace,
          memberCount: 1,
          ownerCount: 1,
          projectCount,
        },
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: memberItem({ workspaceId: workspace.workspaceId, userId: workspace.createdBy, role: "owner", joinedAt: workspace.createdAt }),
        ConditionExpression: "attribute_not_exists(pk)",
      },
    },
  ];
}

/** `ADD workspaceCount 1` on an existing user, below the limit (an absent counter is 0). */
function countUserIn(tableName: string, userId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.user(userId),
      UpdateExpression: "ADD workspaceCount :one",
      ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(workspaceCount) OR workspaceCount < :max)",
      ExpressionAttributeValues: { ":one": 1, ":max": MAX_WORKSPACES_PER_USER },
    },
  };
}

/**
 * The three items of adding a member, for a caller that writes more in the same transaction (an
 * invitation's accept appends its own deletes after them): the member (not yet there), the
 * workspace's counters (`memberCount < MAX_MEMBERS`, `ownerCount` too for an owner) and the user's
 * `workspaceCount` (< MAX_WORKSPACES_PER_USER). When the transaction is cancelled, pass the first
 * three of its failed conditions to `memberAddFailure` for the domain error.
 */
export function memberAddItems(tableName: string, membership: Membership): TransactItem[] {
  return [
    { Put: { TableName: tableName, Item: memberItem(membership), ConditionExpression: "attribute_not_exists(pk)" } },
    {
      Update: {
        TableName: tableName,
        Key: keys.workspace(membership.workspaceId),
        UpdateExpression: membership.role === "owner" ? "ADD memberCount :one, ownerCount :one" : "ADD memberCount :one",
        // Nobody joins a workspace whose delete has started (its purge removes the members it lists).
        ConditionExpression: "attribute_exists(pk) AND memberCount < :max AND attribute_not_exists(deleting)",
        ExpressionAttributeValues: { ":one": 1, ":max": MAX_MEMBERS },
      },
    },
    countUserIn(tableName, membership.userId),
  ];
}

/** The domain error of a cancelled `memberAddItems` transaction (its first three failed conditions). */
export function memberAddFailure(failed: boolean[]): HangarError {
  if (failed[0]) return new ConflictError("already_member", "This account is a member of the workspace already");
  if (failed[1]) return memberLimit(); // or the workspace is gone or being deleted (an accept racing its delete)
  if (failed[2]) return workspaceLimit();
  return changedMeanwhile("add member");
}

/**
 * Workspaces and members in the workspace's partition `WORKSPACE#<workspaceId>` (docs/data-model.md):
 * the workspace item holds the counters every limit and the last-owner rule are checked against, in
 * the same transaction as the change, so they hold under any concurrency (two owners demoting each
 * other at once: one of the two transactions sees `ownerCount > 1` fail).
 */
export class DynamoWorkspaceCatalog implements WorkspaceCatalog {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async membership(workspaceId: string, userId: string): Promise<Membership | undefined> {
    // Strongly consistent: a removed member loses access from the very next request. The
    // workspace item is read beside it (one parallel round trip): a workspace whose delete has
    // started has no members any more, although its member items go only at the end of the purge.
    const [item, workspace] = await Promise.all([
      getItem(this.db, this.tableName, keys.member(workspaceId, userId), "member", { consistent: true }),
      getItem(this.db, this.tableName, keys.workspace(workspaceId), "workspace", { consistent: true }),
    ]);
    return item && workspace && workspace.deleting !== true ? toMembership(item) : undefined;
  }

  async get(workspaceId: string): Promise<Workspace | undefined> {
    const item = await getItem(this.db, this.tableName, keys.workspace(workspaceId), "workspace", { consistent: true });
    return item ? toWorkspace(item) : undefined;
  }

  async listForUser(userId: string): Promise<{ workspace: Workspace; membership: Membership }[]> {
    const members = (
      await queryAll(
        this.db,
        {
          TableName: this.tableName,
          IndexName: gsi1.name,
          KeyConditionExpression: "gsi1pk = :pk AND begins_with(gsi1sk, :prefix)",
          ExpressionAttributeValues: { ":pk": gsi1.userWorkspaces(userId), ":prefix": "WORKSPACE#" },
        },
        "user workspaces",
      )
    )
      .filter((item) => item.type === "member")
      .map(toMembership);
    const workspaces = new Map<string, Workspace>();
    // BatchGetItem takes 100 keys; MAX_WORKSPACES_PER_USER is 50.
    for (let i = 0; i < members.length; i += 100) {
      const chunk = members.slice(i, i + 100).map((m) => keys.workspace(m.workspaceId));
      try {
        await untilProcessed(chunk, async (pending) => {
          const out = await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }));
          for (const item of out.Responses?.[this.tableName] ?? []) workspaces.set(item.workspaceId, toWorkspace(item));
          return (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof pending;
        });
      } catch (error) {
        throw dynamoFailure("BatchGetItem(workspaces)", error);
      }
    }
    // A member item whose workspace is gone or being deleted is left out.
    return members.flatMap((membership) => {
      const workspace = workspaces.get(membership.workspaceId);
      return workspace && !workspace.deleting ? [{ workspace, membership }] : [];
    });
  }

  async listMembers(workspaceId: string): Promise<Membership[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":prefix": "MEMBER#" },
        ConsistentRead: true,
      },
      "members",
    );
    return items.map(toMembership);
  }

  async create(workspace: NewWorkspace): Promise<Workspace> {
    const failed = await transact(this.db, "create workspace", [
      ...newWorkspaceItems(this.tableName, workspace),
      countUserIn(this.tableName, workspace.createdBy),
    ]);
    if (failed?.[0] || failed?.[1]) throw new ConflictError("already_exists", "This workspace exists already");
    if (failed?.[2]) throw workspaceLimit();
    return { ...workspace, memberCount: 1, ownerCount: 1 };
  }

  async rename(workspaceId: string, name: string): Promise<Workspace | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.workspace(workspaceId),
          UpdateExpression: "SET #name = :name",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeNames: { "#name": "name" },
          ExpressionAttributeValues: { ":name": name },
          ReturnValues: "ALL_NEW",
        }),
      );
      return Attributes ? toWorkspace(Attributes) : undefined;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure("UpdateItem(workspace name)", error);
    }
  }

  async addMember(membership: Membership): Promise<void> {
    const failed = await transact(this.db, "add member", memberAddItems(this.tableName, membership));
    if (failed) throw memberAddFailure(failed);
  }

  async changeRole(workspaceId: string, userId: string, role: Role): Promise<Membership> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await this.membership(workspaceId, userId);
      if (!current) throw memberNotFound();
      if (current.role === role) return current;
      const ownerDelta = (role === "owner" ? 1 : 0) - (current.role === "owner" ? 1 : 0);
      const failed = await transact(this.db, "change role", [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.member(workspaceId, userId),
            UpdateExpression: "SET #role = :role",
            // The role it had when read: a concurrent change makes this round start over.
            ConditionExpression: "attribute_exists(pk) AND #role = :was",
            ExpressionAttributeNames: { "#role": "role" },
            ExpressionAttributeValues: { ":role": role, ":was": current.role },
          },
        },
        this.ownerCountChange(workspaceId, ownerDelta),
      ]);
      if (!failed) return { ...current, role };
      if (failed[1]) {
        if (ownerDelta < 0 && (await this.get(workspaceId))) throw lastOwner();
        throw workspaceGone();
      }
    }
    throw changedMeanwhile("change role");
  }

  async removeMember(workspaceId: string, userId: string): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await this.membership(workspaceId, userId);
      if (!current) throw memberNotFound();
      const owner = current.role === "owner";
      // The account may be gone already (account deletion removes its memberships this way):
      // then there is no counter of it to lower, and an update would make a half user item.
      const user = await getItem(this.db, this.tableName, keys.user(userId), "user", { consistent: true });
      const failed = await transact(this.db, "remove member", [
        {
          Delete: {
            TableName: this.tableName,
            Key: keys.member(workspaceId, userId),
            ConditionExpression: "attribute_exists(pk) AND #role = :was",
            ExpressionAttributeNames: { "#role": "role" },
            ExpressionAttributeValues: { ":was": current.role },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: keys.workspace(workspaceId),
            UpdateExpression: owner ? "ADD memberCount :minus, ownerCount :minus" : "ADD memberCount :minus",
            ConditionExpression: owner ? "attribute_exists(pk) AND ownerCount > :one" : "attribute_exists(pk)",
            ExpressionAttributeValues: owner ? { ":minus": -1, ":one": 1 } : { ":minus": -1 },
          },
        },
        ...(user
          ? [
              {
                Update: {
                  TableName: this.tableName,
                  Key: keys.user(userId),
                  UpdateExpression: "ADD workspaceCount :minus",
                  ConditionExpression: "attribute_exists(pk)",
                  ExpressionAttributeValues: { ":minus": -1 },
                },
              },
            ]
          : []),
      ]);
      if (!failed) return;
      if (failed[1]) {
        if (owner && (await this.get(workspaceId))) throw lastOwner();
        throw workspaceGone();
      }
      // The member's role changed, or the account went meanwhile: read again.
    }
    throw changedMeanwhile("remove member");
  }

  async transferOwnership(workspaceId: string, from: string, to: string): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const target = await this.membership(workspaceId, to);
      if (!target) throw memberNotFound();
      // The target gains the owner role (unless they hold it), the giver leaves it for admin: the
      // number of owners stays, or drops by one when the target was an owner already.
      const failed = await transact(this.db, "transfer ownership", [
        {
          Update: {
            TableName: this.tableName,
            Key: keys.member(workspaceId, to),
            UpdateExpression: "SET #role = :owner",
            ConditionExpression: "attribute_exists(pk) AND #role = :was",
            ExpressionAttributeNames: { "#role": "role" },
            ExpressionAttributeValues: { ":owner": "owner", ":was": target.role },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: keys.member(workspaceId, from),
            UpdateExpression: "SET #role = :admin",
            ConditionExpression: "attribute_exists(pk) AND #role = :owner",
            ExpressionAttributeNames: { "#role": "role" },
            ExpressionAttributeValues: { ":admin": "admin", ":owner": "owner" },
          },
        },
        this.ownerCountChange(workspaceId, target.role === "owner" ? -1 : 0),
      ]);
      if (!failed) return;
      if (failed[1]) {
        // The giver is no longer an owner (demoted or removed meanwhile).
        throw memberNotFound();
      }
      if (failed[2]) throw workspaceGone();
    }
    throw changedMeanwhile("transfer ownership");
  }

  async touch(membership: Membership): Promise<void> {
    const now = this.now();
    const last = membership.lastActiveAt ? Date.parse(membership.lastActiveAt) : Number.NaN;
    if (now.getTime() - last < TOUCH_EVERY_MS) return;
    const before = new Date(now.getTime() - TOUCH_EVERY_MS).toISOString();
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.member(membership.workspaceId, membership.userId),
          UpdateExpression: "SET lastActiveAt = :now",
          // Never recreate a removed member; of concurrent requests in one hour, one writes.
          ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(lastActiveAt) OR lastActiveAt < :before)",
          ExpressionAttributeValues: { ":now": now.toISOString(), ":before": before },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw dynamoFailure("UpdateItem(member lastActiveAt)", error);
    }
  }

  async markDeleting(workspaceId: string): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.workspace(workspaceId),
          UpdateExpression: "SET deleting = :yes",
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: { ":yes": true },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw dynamoFailure("UpdateItem(workspace deleting)", error);
    }
  }

  async remove(workspaceId: string): Promise<void> {
    const items = await queryAll(
      this.db,
      { TableName: this.tableName, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk }, ConsistentRead: true },
      "workspace items",
    );
    if (items.some((item) => item.type === "project")) throw new ConflictError("workspace_not_empty", "Delete the workspace's projects first");
    // Members one by one, each with its user's counter; the workspace item last, so a failure half
    // way leaves a workspace that is still there (and its delete can be asked again).
    for (const item of items) {
      if (item.type === "member") {
        for (let attempt = 0; ; attempt++) {
          const user = await getItem(this.db, this.tableName, keys.user(item.userId), "user", { consistent: true });
          const failed = await transact(this.db, "remove workspace member", [
            { Delete: { TableName: this.tableName, Key: { pk: item.pk, sk: item.sk } } },
            ...(user
              ? [
                  {
                    Update: {
                      TableName: this.tableName,
                      Key: keys.user(item.userId),
                      UpdateExpression: "ADD workspaceCount :minus",
                      ConditionExpression: "attribute_exists(pk)",
                      ExpressionAttributeValues: { ":minus": -1 },
                    },
                  },
                ]
              : []),
          ]);
          // Cancelled only when the account went between the read and the write: read again.
          if (!failed) break;
          if (attempt >= ATTEMPTS) throw changedMeanwhile("remove workspace member");
        }
      } else if (item.type === "group") {
        // A tester group (docs/testers.md): its testers' partition and its invite link go with it.
        await this.removePartition(`GROUP#${item.groupId}`, "group testers");
        await transact(this.db, "remove tester group", [
          { Delete: { TableName: this.tableName, Key: { pk: item.pk, sk: item.sk } } },
          ...(typeof item.inviteLink?.tokenHash === "string" ? [{ Delete: { TableName: this.tableName, Key: keys.groupInviteLink(item.inviteLink.tokenHash) } }] : []),
        ]);
      } else if (item.type !== "workspace") {
        // A webhook's delivery log (its partition) goes with it, not 30 days later by TTL.
        if (item.type === "webhook") await this.removePartition(`WEBHOOK#${item.webhookId}`, "webhook deliveries");
        // Invitations (with their mailed token), project and group names, testers' last installs and webhooks left behind.
        await transact(this.db, "remove workspace item", [
          { Delete: { TableName: this.tableName, Key: { pk: item.pk, sk: item.sk } } },
          ...(typeof item.tokenHash === "string" ? [{ Delete: { TableName: this.tableName, Key: keys.token(item.tokenHash) } }] : []),
        ]);
      }
    }
    // The audit log goes too: nobody can read it once the workspace is gone, and it holds
    // members' addresses and client IPs (kept 400 days otherwise).
    await this.removePartition(keys.auditEntry(workspaceId, "", "").pk, "audit entries");
    await transact(this.db, "remove workspace", [{ Delete: { TableName: this.tableName, Key: keys.workspace(workspaceId) } }]);
  }

  /** Every item of a partition, in pages of 25 (BatchWriteItem's size). */
  private async removePartition(pk: string, what: string): Promise<void> {
    try {
      for (;;) {
        const page = await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: "pk = :pk",
            ExpressionAttributeValues: { ":pk": pk },
            ProjectionExpression: "pk, sk",
            ConsistentRead: true,
            Limit: 100,
          }),
        );
        const found = (page.Items ?? []).map((item) => ({ pk: item.pk as string, sk: item.sk as string }));
        if (found.length === 0) return;
        for (let i = 0; i < found.length; i += 25) {
          await untilProcessed(
            found.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } })),
            async (pending) => {
              const out = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
              return (out.UnprocessedItems?.[this.tableName] ?? []) as typeof pending;
            },
          );
        }
      }
    } catch (error) {
      throw dynamoFailure(`BatchWriteItem(${what})`, error);
    }
  }

  /** The workspace must exist; lowering the owner count needs another owner to remain. */
  private ownerCountChange(workspaceId: string, delta: number): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.workspace(workspaceId),
        UpdateExpression: "ADD ownerCount :delta",
        ConditionExpression: delta < 0 ? "attribute_exists(pk) AND ownerCount > :one" : "attribute_exists(pk)",
        ExpressionAttributeValues: delta < 0 ? { ":delta": delta, ":one": 1 } : { ":delta": delta },
      },
    };
  }
}
