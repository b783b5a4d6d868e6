import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { db, newKey, presign, stack } from "./support/api";

const body = { fileName: "a.apk", fileSize: 1, fileType: "application/zip" }; // cheap: refused after auth

describe("rate limit", () => {
  it("admits exactly 100 of 300 concurrent requests from one key in a window", async () => {
    const key = await newKey();
    // Start right after a window boundary so all 300 land in one window.
    const msIntoWindow = Date.now() % 60_000;
    if (msIntoWindow > 30_000) await new Promise((r) => setTimeout(r, 60_000 - msIntoWindow + 50));

    const replies = await Promise.all(Array.from({ length: 300 }, () => presign(key, body)));
    const admitted = replies.filter((r) => r.status === 415);
    const limited = replies.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(100);
    expect(limited).toHaveLength(200);

    const reset = Number(limited[0]!.headers.get("x-ratelimit-reset"));
    expect(reset % 60).toBe(0);
    for (const r of limited) {
      expect(r.json.error.code).toBe("rate_limited");
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    }
    const remaining = admitted.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i));

    const { Items } = await db().send(
      new QueryCommand({
        TableName: stack().tableName,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `RATE#apiKey#${key.clientId}` },
      }),
    );
    expect(Items).toHaveLength(1);
    expect(Items![0]).toMatchObject({ count: 100, ttl: reset + 60 });
  });

  it("keeps separate windows per key, and wrong secrets do not spend a key's quota", async () => {
    const [a, b] = await Promise.all([newKey(), newKey()]);
    const wrong = { ...a, clientSecret: `${a.clientSecret}x` };
    const failures = await Promise.all(Array.from({ length: 5 }, () => presign(wrong, body)));
    expect(failures.every((r) => r.status === 401)).toBe(true);
    const first = await presign(a, body);
    const other = await presign(b, body);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(other.headers.get("x-ratelimit-remaining")).toBe("99");
  });
});
