import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { hashSecret } from "@hangar/core";
import { DynamoApiKeyGate, DynamoKeyCatalog, DynamoRateLimiter, DynamoUsage, keys, usageUploadCount } from "@hangar/core/dynamo";
import { describe, expect, it } from "vitest";
import { db, newKey, stack } from "./support/api";

/**
 * The API-key request path's one write (api-key-gate.dynamo.ts) on DynamoDB Local, with the clock
 * in the test's hands: window and day rollovers, what a wrong secret leaves behind, and that the
 * dashboard's usage reader sees the same numbers as when every request wrote its day item.
 */
const rules = { apiKey: { limit: 3, windowSeconds: 60 } };

function gateOf(counting = true) {
  const usage = new DynamoUsage(db(), stack().tableName);
  return { usage, gate: new DynamoApiKeyGate(db(), stack().tableName, new DynamoRateLimiter(db(), stack().tableName, rules), counting ? usage : undefined) };
}

async function keyItem(clientId: string) {
  const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: keys.apiKey(clientId), ConsistentRead: true }));
  return Item!;
}

const at = (iso: string) => new Date(iso);

describe("API-key gate", () => {
  it("admits up to the limit per window, starts the next window at one, and returns the key", async () => {
    const key = await newKey();
    const { gate } = gateOf();
    const hash = hashSecret(key.clientSecret);
    const answers = [];
    for (const s of ["10", "20", "30", "40"]) answers.push(await gate.admit(key.clientId, hash, at(`2031-05-01T10:00:${s}Z`)));
    expect(answers.map((a) => a.decision?.allowed)).toEqual([true, true, true, false]);
    expect(answers.map((a) => a.decision?.state.remaining)).toEqual([2, 1, 0, 0]);
    expect(answers[0]!.apiKey).toMatchObject({ clientId: key.clientId, projectId: key.projectId, status: "active", secretHash: hash });
    const next = await gate.admit(key.clientId, hash, at("2031-05-01T10:01:05Z"));
    expect(next.decision).toEqual({ allowed: true, state: { limit: 3, remaining: 2, resetAt: Date.parse("2031-05-01T10:02:00Z") / 1000 } });
  });

  it("starts a fresh window for a regenerated secret, as for a new key", async () => {
    const key = await newKey();
    const { gate } = gateOf();
    for (let i = 0; i < 3; i++) await gate.admit(key.clientId, hashSecret(key.clientSecret), at("2031-05-01T10:00:10Z"));
    const newHash = hashSecret(`${key.clientSecret}-regenerated`);
    expect(await new DynamoKeyCatalog(db(), stack().tableName).replaceSecret(key, newHash)).toBe(true);
    expect((await gate.admit(key.clientId, newHash, at("2031-05-01T10:00:20Z"))).decision).toMatchObject({ allowed: true, state: { remaining: 2 } });
    expect((await gate.admit(key.clientId, hashSecret(key.clientSecret), at("2031-05-01T10:00:30Z"))).decision).toBeUndefined();
  });

  it("admits exactly the limit of 20 requests sent together at a new window's start", async () => {
    const key = await newKey();
    const { gate } = gateOf();
    const hash = hashSecret(key.clientSecret);
    await gate.admit(key.clientId, hash, at("2031-05-01T10:00:10Z"));
    const answers = await Promise.all(Array.from({ length: 20 }, () => gate.admit(key.clientId, hash, at("2031-05-01T10:01:01Z"))));
    expect(answers.filter((a) => a.decision?.allowed)).toHaveLength(3);
    expect((await keyItem(key.clientId)).rateCount).toBe(3);
  });

  it("counts nothing for a wrong secret, an unknown id or a revoked key, and still returns what is stored", async () => {
    const key = await newKey();
    const { gate, usage } = gateOf();
    const wrong = await gate.admit(key.clientId, hashSecret(`${key.clientSecret}x`), at("2031-05-01T10:00:10Z"));
    expect(wrong.decision).toBeUndefined();
    expect(wrong.apiKey?.clientId).toBe(key.clientId);
    expect(await gate.admit("hgr_nobody_at_all", hashSecret(key.clientSecret), at("2031-05-01T10:00:10Z"))).toEqual({ apiKey: undefined });
    const item = await keyItem(key.clientId);
    expect(item.rateCount).toBeUndefined();
    expect(item.usageRequests).toBeUndefined();
    expect(await usage.days(key.clientId, "2031-05-01", "2031-05-01")).toEqual([]);

    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: keys.apiKey(key.clientId),
        UpdateExpression: "SET #status = :revoked",
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: { ":revoked": "revoked" },
      }),
    );
    const revoked = await gate.admit(key.clientId, hashSecret(key.clientSecret), at("2031-05-01T10:00:20Z"));
    expect(revoked.decision).toBeUndefined();
    expect(revoked.apiKey?.status).toBe("revoked");
    expect((await keyItem(key.clientId)).rateCount).toBeUndefined();
  });

  it("keeps each day's requests when the day changes, as the dashboard reads them", async () => {
    const key = await newKey();
    const { gate, usage } = gateOf();
    const hash = hashSecret(key.clientSecret);
    await gate.admit(key.clientId, hash, at("2031-05-01T23:58:00Z"));
    await gate.admit(key.clientId, hash, at("2031-05-01T23:59:30Z"));
    // A completed upload, counted as complete's transaction counts it.
    await db().send(new UpdateCommand(usageUploadCount(stack().tableName, key.clientId, at("2031-05-01T23:59:40Z"), 100)));
    await gate.admit(key.clientId, hash, at("2031-05-02T00:00:10Z"));
    await usage.rateLimited(key.clientId, at("2031-05-02T00:00:20Z"));

    expect(await usage.days(key.clientId, "2031-04-30", "2031-05-02")).toEqual([
      { day: "2031-05-01", requests: 2, rateLimited: 0, uploads: 1, bytes: 100, lastUsedAt: "2031-05-01T23:59:40.000Z" },
      { day: "2031-05-02", requests: 2, rateLimited: 1, uploads: 0, bytes: 0, lastUsedAt: "2031-05-02T00:00:20.000Z" },
    ]);
    expect(await usage.lastUsedAt(key.clientId)).toBe("2031-05-02T00:00:20.000Z");
    // The day still on the key item counts too: without a refused request, its last use is the key item's.
    await gate.admit(key.clientId, hash, at("2031-05-02T08:00:00Z"));
    expect(await usage.lastUsedAt(key.clientId)).toBe("2031-05-02T08:00:00.000Z");
    expect((await usage.days(key.clientId, "2031-05-02", "2031-05-02"))[0]).toMatchObject({ requests: 3 });
  });

  it("with usage counting off, counts the rate window only", async () => {
    const key = await newKey();
    const { gate, usage } = gateOf(false);
    const answer = await gate.admit(key.clientId, hashSecret(key.clientSecret), at("2031-05-01T10:00:10Z"));
    expect(answer.decision?.allowed).toBe(true);
    expect((await keyItem(key.clientId)).usageRequests).toBeUndefined();
    expect(await usage.days(key.clientId, "2031-05-01", "2031-05-01")).toEqual([]);
  });
});
