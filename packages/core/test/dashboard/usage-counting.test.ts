import { describe, expect, it } from "vitest";
import { InvalidCredentialsError, RateLimitedError, authenticate, type UsageCounter } from "../../src";
import { CountingRateLimiter, MemoryApiKeyGate, MemoryApiKeys, SECRET, apiKey, fixedClock } from "../support/fakes";
import { MemoryUsage } from "./memory-dashboard";

const DAY = "2026-11-21";

function setup(limit = 2) {
  const apiKeys = new MemoryApiKeys();
  apiKeys.keys.set("hgr_client1", apiKey());
  const usage = new MemoryUsage();
  const rateLimiter = new CountingRateLimiter(limit);
  const clock = fixedClock("2026-11-21T23:00:30.000Z");
  const keyGate = new MemoryApiKeyGate(apiKeys, rateLimiter, usage);
  return { usage, apiKeys, rateLimiter, deps: { keyGate, usage, clock }, off: { keyGate: new MemoryApiKeyGate(apiKeys, rateLimiter), clock } };
}

const today = async (usage: MemoryUsage) => (await usage.days("hgr_client1", DAY, DAY))[0];

describe("usage counting on the API-key path", () => {
  it("counts accepted and rate-limited requests of the key, with the last use", async () => {
    const { deps, usage } = setup(2);
    const ok = { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` };
    await authenticate(deps, ok);
    await authenticate(deps, ok);
    await expect(authenticate(deps, ok)).rejects.toBeInstanceOf(RateLimitedError);
    expect(await today(usage)).toMatchObject({ requests: 3, rateLimited: 1, lastUsedAt: "2026-11-21T23:00:30.000Z" });
  });

  it("counts nothing for a wrong secret, keeping the previous last use", async () => {
    const { deps, usage } = setup(10);
    await usage.request("hgr_client1", new Date("2026-11-21T08:00:00.000Z"));
    await expect(authenticate(deps, { clientId: "hgr_client1", authorization: "Bearer hgs_wrong-secret-of-enough-length" })).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    expect(await today(usage)).toMatchObject({ requests: 1, rateLimited: 0, lastUsedAt: "2026-11-21T08:00:00.000Z" });
  });

  it("counts an accepted request in the one write that admits it, with no usage write of its own", async () => {
    const { deps } = setup();
    const calls: string[] = [];
    const spyUsage: UsageCounter = {
      rateLimited: async () => void calls.push("rateLimited"),
    };
    const keyGate = deps.keyGate as MemoryApiKeyGate;
    await expect(authenticate({ ...deps, usage: spyUsage }, { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` })).resolves.toMatchObject({
      apiKey: { clientId: "hgr_client1" },
    });
    expect(keyGate.admissions).toBe(1);
    expect(calls).toEqual([]);
  });

  it("counts nothing when counting is off (no usage port)", async () => {
    const { off, usage } = setup();
    await authenticate(off, { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` });
    expect(usage.days_.size).toBe(0);
  });
});
