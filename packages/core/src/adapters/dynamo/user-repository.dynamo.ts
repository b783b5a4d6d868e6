import { TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError } from "../../errors/domain-errors";
import type { Profile, UserAccount, UserRepository } from "../../ports";
import { personalWorkspaceName } from "../../workspaces/personal";
import { personalWorkspaceId } from "../../workspaces/workspace-ids";
import { cancelledConditions, dynamoFailure, getItem, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import { newWorkspaceItems } from "./workspace-catalog.dynamo";
import type { DocumentClient } from "./document-client";

function toUser(item: Record<string, any>): UserAccount {
  const user: UserAccount = {
    userId: item.userId,
    email: item.email,
    // Users written by key:create before accounts existed carry no flag: unverified until a reset.
    emailVerified: item.emailVerified === true,
    createdAt: item.createdAt,
  };
  if (typeof item.passwordHash === "string") user.passwordHash = item.passwordHash;
  if (typeof item.displayName === "string") user.displayName = item.displayName;
  if (typeof item.organization === "string") user.organization = item.organization;
  if (typeof item.passwordChangedAt === "string") user.passwordChangedAt = item.passwordChangedAt;
  if (typeof item.deviceKey === "string") user.deviceKey = item.deviceKey;
  return user;
}

/**
 * Users in the shared `USER#<userId>` / `USER` item (the one key:create writes), found by
 * address through the `EMAIL#<email>` uniqueness item. Reads are strongly consistent: a
 * sign-in right after a reset must see the new hash.
 */
export class DynamoUserRepository implements UserRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async findByEmail(email: string): Promise<UserAccount | undefined> {
    const link = await getItem(this.db, this.tableName, keys.email(email), "e-mail", { consistent: true });
    return typeof link?.userId === "string" ? this.get(link.userId) : undefined;
  }

  async get(userId: string): Promise<UserAccount | undefined> {
    const item = await getItem(this.db, this.tableName, keys.user(userId), "user", { consistent: true });
    return item ? toUser(item) : undefined;
  }

  /**
   * Every account is made with its personal workspace (docs/teams.md), in the same transaction:
   * there is no moment, and no failure, that leaves an account without one. Its `workspaceCount`
   * (the MAX_WORKSPACES_PER_USER counter) starts at that one membership.
   */
  async create(user: UserAccount): Promise<void> {
    const personal = newWorkspaceItems(this.tableName, {
      workspaceId: personalWorkspaceId(user.userId),
      name: personalWorkspaceName(user),
      personal: true,
      createdAt: user.createdAt,
      createdBy: user.userId,
    });
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.user(user.userId), type: "user", ...user, workspaceCount: 1 },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...keys.email(user.email), type: "email", userId: user.userId },
                ConditionExpression: "attribute_not_exists(pk)",
              },
            },
            ...personal,
          ],
        }),
      );
    } catch (error) {
      if (cancelledConditions(error)?.some(Boolean)) throw new ConflictError("already_exists", "This e-mail address has an account");
      throw dynamoFailure("TransactWriteItems(user)", error);
    }
  }

  async markVerified(userId: string): Promise<void> {
    await this.update("verify", userId, "SET emailVerified = :true", { ":true": true });
  }

  async updateProfile(userId: string, profile: Profile): Promise<UserAccount | undefined> {
    const set = profile.organization ? "SET displayName = :name, organization = :org" : "SET displayName = :name REMOVE organization";
    const attributes = await this.update("profile", userId, set, {
      ":name": profile.displayName,
      ...(profile.organization ? { ":org": profile.organization } : {}),
    });
    return attributes ? toUser(attributes) : undefined;
  }

  async setPasswordHash(userId: string, passwordHash: string, options: { changedAt?: string; verified?: boolean } = {}): Promise<void> {
    const sets = ["passwordHash = :hash"];
    const values: Record<string, unknown> = { ":hash": passwordHash };
    if (options.changedAt) {
      sets.push("passwordChangedAt = :changed");
      values[":changed"] = options.changedAt;
    }
    if (options.verified) {
      sets.push("emailVerified = :true");
      values[":true"] = true;
    }
    await this.update("password", userId, `SET ${sets.join(", ")}`, values);
  }

  async ensureDeviceKey(userId: string, candidate: string): Promise<string | undefined> {
    const attributes = await this.update("device key", userId, "SET deviceKey = if_not_exists(deviceKey, :key)", { ":key": candidate });
    return typeof attributes?.deviceKey === "string" ? attributes.deviceKey : undefined;
  }

  /** An update of an existing user only (never creates a half user); undefined when it is gone. */
  private async update(what: string, userId: string, expression: string, values: Record<string, unknown>) {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.user(userId),
          UpdateExpression: expression,
          ConditionExpression: "attribute_exists(pk)",
          ExpressionAttributeValues: values,
          ReturnValues: "ALL_NEW",
        }),
      );
      return Attributes;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure(`UpdateItem(user ${what})`, error);
    }
  }
}
