import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { db, newKey, presign, stack, type Key } from "./support/api";

const body = { fileName: "a.apk", fileSize: 1, fileType: "application/zip" }; // cheap: refused after auth

/** Start right after a window boundary so a burst lands in one window. */
async function atWindowStart() {
  const msIntoWindow = Date.now() % 60_000;
  if (msIntoWindow > 30_000) await new Promise((r) => setTimeout(r, 60_000 - msIntoWindow + 50));
}

/** The key's rate window, kept on its own item (api-key-gate.dynamo.ts): its start and count. */
async function counter(key: Key) {
  const { Item } = await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk: `APIKEY#${key.clientId}`, sk: "APIKEY" }, ConsistentRead: true }));
  return { start: Item?.rateWindow, count: Item?.rateCount };
}

describe("rate limit", () => {
  it("admits exactly 100 of 300 concurrent requests from one key in a window", async () => {
    const key = await newKey();
    await atWindowStart();

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

    expect(await counter(key)).toEqual({ count: 100, start: reset - 60 });
  });

  it("admits exactly 100 of 200 right-secret requests sent together with 200 wrong-secret ones: a wrong secret never takes a slot", async () => {
    const key = await newKey();
    const wrong = { ...key, clientSecret: `${key.clientSecret.slice(0, -4)}XXXX` };
    await atWindowStart();
    const sent = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? { right: true, p: presign(key, body) } : { right: false, p: presign(wrong, body) }));
    const replies = await Promise.all(sent.map(async ({ right, p }) => ({ right, status: (await p).status })));
    const right = replies.filter((r) => r.right).map((r) => r.status);
    expect(right.filter((s) => s === 415)).toHaveLength(100);
    expect(right.filter((s) => s === 429)).toHaveLength(100);
    expect(replies.filter((r) => !r.right).every((r) => r.status === 401)).toBe(true);
    expect(await counter(key)).toMatchObject({ count: 100 });
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
