import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { ApiKey, ApiKeyGate, KeyAdmission } from "../../ports";
import { updateExpression, type DynamoRateLimiter } from "./rate-limiter.dynamo";
import type { DynamoUsage } from "./usage.dynamo";
import { dynamoFailure, isConditionFailure } from "./dynamo-errors";
import { keys } from "./table-keys";
import type { DocumentClient } from "./document-client";

const toKey = (item: Record<string, any>): ApiKey => {
  const { clientId, secretHash, name, projectId, userId, workspaceId, status, createdAt } = item;
  return { clientId, secretHash, name, projectId, userId, ...(typeof workspaceId === "string" ? { workspaceId } : {}), status, createdAt };
};

/** Rollovers (a new window, a new day) that met another request's rollover; each costs one retry. */
const ATTEMPTS = 4;

/**
 * An API-key request in one UpdateItem on the key's own item: its condition is the presented
 * secret's hash and the active status, its update counts the API keys' rate window
 * (DynamoRateLimiter.onItem, the one limiter's rule and fixed-window arithmetic) and the day's
 * usage (DynamoUsage.onItem), and it returns the key. Before, the key read, the rate counter and
 * the usage counter were three calls sent together: each DynamoDB call costs the Lambda about
 * half a millisecond of SDK CPU, and presign's latency was mostly that (docs/api-keys.md).
 *
 * Nothing is counted for a wrong secret, an unknown id or a revoked key: the condition fails and
 * the update writes nothing, so a stranger who knows a client id can spend neither its quota nor
 * its usage, not even for a moment (no refunds). Unknown and known ids cost the same one failed
 * call; authenticate hashes and compares in constant time in both cases. Comparing hashes in the
 * condition leaks nothing a caller could use: SHA-256 of a guessed secret is not steerable.
 *
 * The hot path is one call. An update expression cannot branch, so the first request of a new
 * window (or day) fails the `same` condition; the item that comes back with the failure
 * (ReturnValuesOnConditionCheckFailure) tells a full window (429) from an old one, and a second
 * update starts the new one under the opposite condition. Concurrent rollovers are serialized by
 * those conditions: the loser retries `same`.
 */
export class DynamoApiKeyGate implements ApiKeyGate {
  constructor(
    private readonly db: DocumentClient,
    private readonly tableName: string,
    private readonly limits: Pick<DynamoRateLimiter<"apiKey">, "onItem">,
    /** Undefined when usage counting is off (HANGAR_USAGE_COUNTING=off). */
    private readonly usage: Pick<DynamoUsage, "onItem" | "carryOver"> | undefined,
  ) {}

  async admit(clientId: string, secretHash: string, now: Date): Promise<KeyAdmission> {
    const rate = this.limits.onItem("apiKey", now);
    const usage = this.usage?.onItem(now);
    // Until an item says otherwise, assume the common case: the key already counts this window and day.
    let seen: Record<string, unknown> | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const parts = [seen === undefined || rate.isCurrent(seen) ? rate.same : rate.fresh];
      const freshDay = usage !== undefined && seen !== undefined && !usage.isCurrent(seen);
      if (usage) parts.push(freshDay ? usage.fresh : usage.same);
      try {
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: keys.apiKey(clientId),
            UpdateExpression: updateExpression(parts),
            ConditionExpression: ["secretHash = :secretHash AND #status = :active", ...parts.map((p) => p.condition)].join(" AND "),
            ExpressionAttributeNames: { "#status": "status" },
            ExpressionAttributeValues: Object.assign({ ":secretHash": secretHash, ":active": "active" }, ...parts.map((p) => p.values)),
            // The item before the update: the key (unchanged by it) and the counts it replaced.
            ReturnValues: "ALL_OLD",
            ReturnValuesOnConditionCheckFailure: "ALL_OLD",
          }),
        );
        if (freshDay) await this.usage?.carryOver(clientId, Attributes);
        return { apiKey: toKey(Attributes!), decision: rate.decide(Attributes) };
      } catch (error) {
        if (!isConditionFailure(error)) throw dynamoFailure("UpdateItem(api key admission)", error);
        // The item a failed condition hands back comes with the error, not converted by the document client.
        const raw = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
        const item = raw ? unmarshall(raw) : undefined;
        if (!item) return { apiKey: undefined };
        if (item.secretHash !== secretHash || item.status !== "active") return { apiKey: toKey(item) };
        // The right secret: a full current window refuses it; anything else is a rollover to make.
        if (rate.isCurrent(item) && !rate.decide(item).allowed) return { apiKey: toKey(item), decision: rate.decide(item) };
        seen = item;
      }
    }
    throw dynamoFailure("UpdateItem(api key admission)", new Error(`no admission after ${ATTEMPTS} attempts`));
  }
}
