import { UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { RateLimitDecision, RateLimiter } from "../../ports";
import { rateDecision, rateWindow, type RateLimitSettings } from "../../rate-limit/fixed-window";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";

export type { RateLimitSettings };

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

  async hit(subject: string, now: Date): Promise<RateLimitDecision> {
    const { limit } = this.settings;
    const window = rateWindow(this.settings, now);
    const { start } = window;
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.rateWindow(subject, start),
          UpdateExpression: "ADD #count :one SET #ttl = if_not_exists(#ttl, :ttl), #type = :type",
          ConditionExpression: "attribute_not_exists(#count) OR #count < :limit",
          ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl", "#type": "type" },
          // The condition is fixed-window's `admits`: the count before this hit below the limit.
          ExpressionAttributeValues: { ":one": 1, ":limit": limit, ":ttl": window.expiresAt, ":type": "rate" },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return rateDecision(this.settings, window, Number(Attributes?.count ?? limit));
    } catch (error) {
      if (isConditionFailure(error)) return rateDecision(this.settings, window, undefined);
      throw dynamoFailure("UpdateItem(rate limit)", error);
    }
  }

  async refund(subject: string, now: Date): Promise<void> {
    const { start } = rateWindow(this.settings, now);
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
