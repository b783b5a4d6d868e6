import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { OneTimeToken, TokenPurpose, TokenRepository } from "../../ports";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";

/**
 * Mailed tokens as `TOKEN#<sha256>` items with `ttl` = their expiry. Consuming is one
 * conditional DeleteItem: of two requests with the same token only one gets the item back.
 */
export class DynamoTokenRepository implements TokenRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
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

  async consume(tokenHash: string, purpose: TokenPurpose, nowSeconds: number): Promise<OneTimeToken | undefined> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.token(tokenHash),
          // TTL deletes lazily (up to days late): an expired token must fail here, not linger usable.
          ConditionExpression: "attribute_exists(pk) AND purpose = :purpose AND expiresAt > :now",
          ExpressionAttributeValues: { ":purpose": purpose, ":now": nowSeconds },
          ReturnValues: "ALL_OLD",
        }),
      );
      if (!Attributes) return undefined;
      const { userId, createdAt, expiresAt } = Attributes;
      return { tokenHash, purpose, userId, createdAt, expiresAt };
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw dynamoFailure("DeleteItem(token)", error);
    }
  }
}
