import { DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { RateLimitDecision, RateLimiter, RateRule } from "../../ports";
import { rateDecision, rateWindow } from "../../rate-limit/fixed-window";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";

/**
 * Fixed-window counters for every rate rule of the service, one limiter with per-rule settings:
 * one item per rule, subject and window, incremented with a conditional ADD so that concurrent
 * requests can never admit more than the rule's limit (DynamoDB serializes updates of one item).
 * The item carries a TTL a window past its end, so counters clean themselves up. The rule's name
 * is part of the key (`RATE#<rule>#<subject>`), so two rules never share a counter.
 *
 * `rule(name)` hands out the RateLimiter port bound to one rule; the use cases see only that.
 */
export class DynamoRateLimiter<Rule extends string = string> {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly rules: Readonly<Record<Rule, RateRule>>,
  ) {}

  /** The limiter of one rule, as the use cases take it. */
  rule(name: Rule): RateLimiter {
    return {
      hit: (subject, now, cost) => this.hit(name, subject, now, cost),
      refund: (subject, now) => this.refund(name, subject, now),
      clear: (subject, now) => this.clear(name, subject, now),
    };
  }

  settingsOf(name: Rule): RateRule {
    return this.rules[name];
  }

  private key(name: Rule, subject: string, now: Date) {
    return keys.rateWindow(`${name}#${subject}`, rateWindow(this.rules[name], now).start);
  }

  async hit(name: Rule, subject: string, now: Date, cost = 1): Promise<RateLimitDecision> {
    const settings = this.rules[name];
    const window = rateWindow(settings, now);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(name, subject, now),
          UpdateExpression: "ADD #count :cost SET #ttl = if_not_exists(#ttl, :ttl), #type = :type",
          ConditionExpression: "attribute_not_exists(#count) OR #count < :limit",
          ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl", "#type": "type" },
          // The condition is fixed-window's `admits`: the count before this hit below the limit.
          ExpressionAttributeValues: { ":cost": Math.max(1, Math.floor(cost)), ":limit": settings.limit, ":ttl": window.expiresAt, ":type": "rate" },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return rateDecision(settings, window, Number(Attributes?.count ?? settings.limit));
    } catch (error) {
      if (isConditionFailure(error)) return rateDecision(settings, window, undefined);
      throw dynamoFailure("UpdateItem(rate limit)", error);
    }
  }

  async refund(name: Rule, subject: string, now: Date): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(name, subject, now),
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

  async clear(name: Rule, subject: string, now: Date): Promise<void> {
    try {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(name, subject, now) }));
    } catch (error) {
      throw dynamoFailure("DeleteItem(rate clear)", error);
    }
  }
}
