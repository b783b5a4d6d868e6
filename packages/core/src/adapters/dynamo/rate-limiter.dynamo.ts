import { UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { RateLimitDecision, RateLimiter } from "../../ports";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";

export interface RateLimitSettings {
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window counter: one item per subject and window, incremented with a conditional ADD so
 * that concurrent requests can never admit more than `limit` (DynamoDB serializes updates of one
 * item). The item carries a TTL a window past its end, so counters clean themselves up.
 */
export class DynamoRateLimiter implements RateLimiter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly settings: RateLimitSettings,
  ) {}

  private window(now: Date) {
    const seconds = Math.floor(now.getTime() / 1000);
    const start = seconds - (seconds % this.settings.windowSeconds);
    return { start, resetAt: start + this.settings.windowSeconds };
  }

  async hit(subject: string, now: Date): Promise<RateLimitDecision> {
    const { limit } = this.settings;
    const { start, resetAt } = this.window(now);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.rateWindow(subject, start),
          UpdateExpression: "ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl), #type = :type",
          ConditionExpression: "attribute_not_exists(#count) OR #count < :limit",
          ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl", "#type": "type" },
          ExpressionAttributeValues: { ":one": 1, ":limit": limit, ":ttl": resetAt + this.settings.windowSeconds, ":type": "rate" },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      const count = Number(Attributes?.count ?? limit);
      return { allowed: true, state: { limit, remaining: Math.max(0, limit - count), resetAt } };
    } catch (error) {
      if (isConditionFailure(error)) return { allowed: false, state: { limit, remaining: 0, resetAt } };
      throw dynamoFailure("UpdateItem(rate limit)", error);
    }
  }

  async refund(subject: string, now: Date): Promise<void> {
    const { start } = this.window(now);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.rateWindow(subject, start),
          UpdateExpression: "ADD #count :minusOne",
          ConditionExpression: "#count > :zero",
          ExpressionAttributeNames: { "#count": "count" },
          ExpressionAttributeValues: { ":minusOne": -1, ":zero": 0 },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return;
      throw dynamoFailure("UpdateItem(rate refund)", error);
    }
  }
}
