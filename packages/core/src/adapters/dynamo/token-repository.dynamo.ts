import { DeleteCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { OneTimeToken, TokenOf, TokenPurpose, TokenRepository } from "../../ports";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * Mailed tokens as `TOKEN#<sha256>` items with `ttl` = their expiry. Consuming is one
 * conditional DeleteItem: of two requests with the same token only one gets the item back.
 */
export class DynamoTokenRepository implements TokenRepository {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
  ) {}

  async create(token: OneTimeToken): Promise<void> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.token(token.tokenHash), type: "token", ...token, ttl: token.expiresAt },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      );
    } catch (error) {
      throw dynamoFailure("PutItem(token)", error);
    }
  }

  async consume<P extends TokenPurpose>(tokenHash: string, purpose: P | readonly P[], nowSeconds: number): Promise<TokenOf<P> | undefined> {
    const purposes: readonly TokenPurpose[] = typeof purpose === "string" ? [purpose] : purpose;
    const names = purposes.map((_, i) => `:purpose${i}`);
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.token(tokenHash),
          // TTL deletes lazily (up to days late): an expired token must fail here, not linger usable.
          ConditionExpression: `attribute_exists(pk) AND purpose IN (${names.join(", ")}) AND expiresAt > :now`,
          ExpressionAttributeValues: { ...Object.fromEntries(purposes.map((p, i) => [names[i]!, p])), ":now": nowSeconds },
          ReturnValues: "ALL_OLD",
        }),
      );
      if (!Attributes) return undefined;
      return tokenOf(tokenHash, Attributes) as TokenOf<P>;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure("DeleteItem(token)", error);
    }
  }
}

/** The stored item as the port's token: an account's names its user, a tester's its address (and a join its link). */
function tokenOf(tokenHash: string, item: Record<string, unknown>): OneTimeToken {
  const { createdAt, expiresAt } = item as { createdAt: string; expiresAt: number };
  const purpose = item.purpose as TokenPurpose;
  if (purpose === "verify_email" || purpose === "reset_password") {
    return { tokenHash, purpose, userId: item.userId as string, createdAt, expiresAt };
  }
  const text = (name: string) => (typeof item[name] === "string" ? { [name]: item[name] as string } : {});
  return { tokenHash, purpose, email: item.email as string, createdAt, expiresAt, ...text("groupId"), ...text("linkId"), ...text("joinToken") };
}
