import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { DependencyError } from "../../errors/domain-errors";
import type { AcceptOutcome, Invitation, InvitationRepository, InvitationToken } from "../../ports";
import { isRole } from "../../workspaces/roles";
import { dynamoFailure, queryAll } from "./dynamo-errors";
import { keys } from "./table-keys";
import { transact } from "./counted-limits.dynamo";
import { memberAddFailure, memberAddItems } from "./workspace-catalog.dynamo";
import type { DocumentClient } from "./document-client";

/** The token items of invitations carry this purpose; the accounts' token consumer never matches it. */
export const INVITATION_TOKEN_PURPOSE = "workspace_invitation";

/**
 * Invitations as `WORKSPACE#<wsId>` / `INVITATION#<invitationId>` items, and their mailed tokens
 * as `TOKEN#<sha256>` items beside the accounts' ones (docs/data-model.md). Both carry `ttl` =
 * their expiry; since TTL deletes lazily, every read and every condition compares `expiresAt`
 * with the clock instead of trusting an item's presence.
 *
 * An invitation and its token are always written and removed together (transactions), and the
 * invitation names its current token (`tokenHash`): a re-sent invitation's old token is deleted
 * in the same transaction that stores the new one, and an accept whose token is no longer the
 * invitation's fails its condition, so a link is single-use and the latest one is the only one.
 */
export class DynamoInvitationRepository implements InvitationRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  private invitationItem(invitation: Invitation) {
    return { ...keys.invitation(invitation.workspaceId, invitation.invitationId), type: "invitation", ...invitation, ttl: invitation.expiresAt };
  }

  private tokenItem(invitation: Pick<Invitation, "tokenHash" | "workspaceId" | "invitationId" | "expiresAt">, createdAt: string) {
    return {
      ...keys.token(invitation.tokenHash),
      type: "token",
      tokenHash: invitation.tokenHash,
      purpose: INVITATION_TOKEN_PURPOSE,
      workspaceId: invitation.workspaceId,
      invitationId: invitation.invitationId,
      createdAt,
      expiresAt: invitation.expiresAt,
      ttl: invitation.expiresAt,
    };
  }

  async create(invitation: Invitation): Promise<void> {
    const failed = await transact(this.db, "invitation create", [
      { Put: { TableName: this.tableName, Item: this.invitationItem(invitation), ConditionExpression: "attribute_not_exists(pk)" } },
      { Put: { TableName: this.tableName, Item: this.tokenItem(invitation, invitation.createdAt), ConditionExpression: "attribute_not_exists(pk)" } },
    ]);
    // Fresh random ids and 256-bit tokens do not collide; if they ever did, nothing was written.
    if (failed) throw new DependencyError("dynamodb", "invitation create: an id was taken; retry");
  }

  async get(workspaceId: string, invitationId: string): Promise<Invitation | undefined> {
    try {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.invitation(workspaceId, invitationId), ConsistentRead: true }));
      return Item ? invitationOf(Item) : undefined;
    } catch (error) {
      throw dynamoFailure("GetItem(invitation)", error);
    }
  }

  async list(workspaceId: string): Promise<Invitation[]> {
    // At most MAX_PENDING_INVITATIONS live items (plus expired ones TTL has not removed yet): a page or two.
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues: { ":pk": keys.workspace(workspaceId).pk, ":prefix": "INVITATION#" },
        ConsistentRead: true,
      },
      "invitations",
    );
    return items.flatMap((item) => invitationOf(item) ?? []);
  }

  async findToken(tokenHash: string): Promise<InvitationToken | undefined> {
    try {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.token(tokenHash), ConsistentRead: true }));
      if (!Item || Item.purpose !== INVITATION_TOKEN_PURPOSE) return undefined;
      return { tokenHash, workspaceId: String(Item.workspaceId), invitationId: String(Item.invitationId), expiresAt: Number(Item.expiresAt) };
    } catch (error) {
      throw dynamoFailure("GetItem(invitation token)", error);
    }
  }

  async revoke(invitation: Invitation): Promise<boolean> {
    const failed = await transact(this.db, "invitation revoke", [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.invitation(invitation.workspaceId, invitation.invitationId),
          // Only the invitation as read: one re-sent meanwhile is revoked with its new token by a new request.
          ConditionExpression: "tokenHash = :hash",
          ExpressionAttributeValues: { ":hash": invitation.tokenHash },
        },
      },
      // The invitation's current token: gone with it, whatever its state.
      { Delete: { TableName: this.tableName, Key: keys.token(invitation.tokenHash) } },
    ]);
    return !failed;
  }

  async renew(invitation: Invitation, next: { tokenHash: string; expiresAt: number; invitedBy: string; at: string }): Promise<boolean> {
    const failed = await transact(this.db, "invitation resend", [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.invitation(invitation.workspaceId, invitation.invitationId),
          UpdateExpression: "SET tokenHash = :new, expiresAt = :exp, #ttl = :exp, invitedBy = :by",
          // Only from the token this request read: of two concurrent re-sends one wins, and the
          // loser's token is never stored.
          ConditionExpression: "tokenHash = :old",
          ExpressionAttributeNames: { "#ttl": "ttl" },
          ExpressionAttributeValues: { ":new": next.tokenHash, ":old": invitation.tokenHash, ":exp": next.expiresAt, ":by": next.invitedBy },
        },
      },
      { Delete: { TableName: this.tableName, Key: keys.token(invitation.tokenHash) } },
      {
        Put: {
          TableName: this.tableName,
          Item: this.tokenItem({ ...invitation, tokenHash: next.tokenHash, expiresAt: next.expiresAt }, next.at),
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ]);
    return !failed;
  }

  async accept(input: { invitation: Invitation; userId: string; joinedAt: string; nowSeconds: number }): Promise<AcceptOutcome> {
    const { invitation, userId, joinedAt, nowSeconds } = input;
    const failed = await transact(this.db, "invitation accept", [
      // 0-2: adding a member, exactly as the workspace catalog's addMember writes it (its counters and limits).
      ...memberAddItems(this.tableName, { workspaceId: invitation.workspaceId, userId, role: invitation.role, joinedAt }),
      // 3: the token, single use: it must still exist, be this invitation's and not have expired.
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.token(invitation.tokenHash),
          ConditionExpression: "attribute_exists(pk) AND purpose = :purpose AND invitationId = :inv AND expiresAt > :now",
          ExpressionAttributeValues: { ":purpose": INVITATION_TOKEN_PURPOSE, ":inv": invitation.invitationId, ":now": nowSeconds },
        },
      },
      // 4: the invitation, only while this is its token (not revoked, not re-sent).
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.invitation(invitation.workspaceId, invitation.invitationId),
          ConditionExpression: "tokenHash = :hash",
          ExpressionAttributeValues: { ":hash": invitation.tokenHash },
        },
      },
    ]);
    if (!failed) return "accepted";
    // A dead link says so first, whatever else failed beside it.
    if (failed[3] || failed[4]) return "gone";
    throw memberAddFailure(failed.slice(0, 3));
  }
}

function invitationOf(item: Record<string, unknown>): Invitation | undefined {
  if (!isRole(item.role)) return undefined;
  return {
    workspaceId: String(item.workspaceId),
    invitationId: String(item.invitationId),
    email: String(item.email),
    role: item.role,
    invitedBy: String(item.invitedBy),
    createdAt: String(item.createdAt),
    expiresAt: Number(item.expiresAt),
    tokenHash: String(item.tokenHash),
  };
}
