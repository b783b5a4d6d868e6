import { DeleteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { RateLimitDecision, RateLimiter, RateRule } from "../../ports";
import { admits, rateDecision, rateWindow, type RateWindow } from "../../rate-limit/fixed-window";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

/**
 * Fixed-window counters for every rate rule of the service, one limiter with per-rule settings:
 * one item per rule, subject and window, incremented with a conditional ADD so that concurrent
 * requests can never admit more than the rule's limit (DynamoDB serializes updates of one item).
 * The item carries a TTL a window past its end, so counters clean themselves up. The rule's name
 * is part of the key (`RATE#<rule>#<subject>`), so two rules never share a counter.
 *
 * `rule(name)` hands out the RateLimiter port bound to one rule; the use cases see only that.
 * `onItem(name, now)` keeps a rule's counter on an item the caller updates anyway (the API key's
 * own item, api-key-gate.dynamo.ts), so counting costs no write of its own.
 */
export class DynamoRateLimiter<Rule extends string = string> {
  constructor(
    private readonly db: DocumentClient,
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

  /**
   * The rule's fixed window kept as two attributes of another item (`rateWindow`, the window's
   * start, and `rateCount`), for a caller that folds the count into its own conditional update.
   * An update expression cannot branch, so there are two forms: `same` counts in the item's
   * current window (admitted below the limit, as `hit`'s condition), `fresh` starts this window
   * at one when the item's window is an older one (or absent). The caller sends `same` and, when
   * its condition fails, looks at the item to tell a full window (refused) from an old one.
   */
  onItem(name: Rule, now: Date): ItemCounter {
    const settings = this.rules[name];
    const window = rateWindow(settings, now);
    // DynamoDB refuses values an expression does not use: each form carries its own.
    const values = { ":rateWindow": window.start, ":rateOne": 1 };
    // A window the item holds that is later than ours (another container's clock a little ahead)
    // is taken as ours: the request counts there, never in an older window of its own.
    const itemWindow = (item: Record<string, unknown> | undefined) => Number(item?.rateWindow ?? Number.NaN);
    const isCurrent = (item: Record<string, unknown> | undefined) => itemWindow(item) >= window.start;
    return {
      window,
      same: { add: ["rateCount :rateOne"], condition: "rateWindow >= :rateWindow AND rateCount < :rateLimit", values: { ...values, ":rateLimit": settings.limit } },
      fresh: { set: ["rateWindow = :rateWindow", "rateCount = :rateOne"], condition: "(attribute_not_exists(rateWindow) OR rateWindow < :rateWindow)", values },
      isCurrent,
      decide: (item) => {
        // `item` is the one before this update: its count of this window, or none (a fresh window).
        if (!isCurrent(item)) return rateDecision(settings, window, 1);
        const start = itemWindow(item);
        const its = start === window.start ? window : { ...window, start, resetAt: start + settings.windowSeconds };
        const before = Number(item?.rateCount ?? 0);
        return rateDecision(settings, its, admits(settings, before) ? before + 1 : undefined);
      },
    };
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

/**
 * Parts of an UpdateItem that several counters share: their ADD and SET actions, their condition
 * (parenthesized if it has an OR: DynamoDB refuses redundant parentheses) and their values.
 */
export interface UpdateParts {
  add?: string[];
  set?: string[];
  condition: string;
  values: Record<string, unknown>;
}

/** The update expression of several parts: one ADD clause and one SET clause. */
export function updateExpression(parts: readonly UpdateParts[]): string {
  const add = parts.flatMap((p) => p.add ?? []);
  const set = parts.flatMap((p) => p.set ?? []);
  return [add.length > 0 ? `ADD ${add.join(", ")}` : "", set.length > 0 ? `SET ${set.join(", ")}` : ""].filter(Boolean).join(" ");
}

/** One rule's counter kept on another item (DynamoRateLimiter.onItem). */
export interface ItemCounter {
  window: RateWindow;
  /** Counts one more in the item's current window, below the limit. */
  same: UpdateParts;
  /** Starts this window at one when the item's window is an older one. */
  fresh: UpdateParts;
  /** Whether the item (as read) already counts this window (or a later one). */
  isCurrent(item: Record<string, unknown> | undefined): boolean;
  /** The decision for one more hit on `item` as it was before it: refused when its window is full. */
  decide(item: Record<string, unknown> | undefined): RateLimitDecision;
}
