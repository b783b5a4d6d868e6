import { describe, expect, it } from "vitest";
import { InvalidCredentialsError, RateLimitedError, authenticate, type UsageCounter, type UsageMark } from "../../src";
import { CountingRateLimiter, MemoryApiKeys, SECRET, apiKey, fixedClock } from "../support/fakes";
import { MemoryUsage } from "./memory-dashboard";

const DAY = "2026-11-21";

function setup(limit = 2) {
  const apiKeys = new MemoryApiKeys();
  apiKeys.keys.set("hgr_client1", apiKey());
  const usage = new MemoryUsage();
  const rateLimiter = new CountingRateLimiter(limit);
  return { usage, deps: { apiKeys, rateLimiter, usage, clock: fixedClock("2026-11-21T23:00:30.000Z") } };
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

  it("gives back what a wrong secret counted, restoring the previous last use", async () => {
    const { deps, usage } = setup(10);
    await usage.request("hgr_client1", new Date("2026-11-21T08:00:00.000Z"));
    await expect(authenticate(deps, { clientId: "hgr_client1", authorization: "Bearer hgs_wrong-secret-of-enough-length" })).rejects.toBeInstanceOf(
      InvalidCredentialsError,
    );
    expect(await today(usage)).toMatchObject({ requests: 1, rateLimited: 0, lastUsedAt: "2026-11-21T08:00:00.000Z" });
  });

  it("sends the usage write together with the key lookup and the rate-limit update, not after them", async () => {
    const { deps } = setup();
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slowUsage: UsageCounter = {
      request: async (): Promise<UsageMark> => {
        started.push("usage");
        await gate;
        return {};
      },
      refund: async () => undefined,
      rateLimited: async () => undefined,
      uploadCompleted: async () => undefined,
    };
    const apiKeys = { get: async (id: string) => (started.push("key"), deps.apiKeys.get(id)), create: async () => undefined };
    const pending = authenticate({ ...deps, apiKeys, usage: slowUsage }, { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` });
    await new Promise((r) => setTimeout(r, 10));
    expect(started.sort()).toEqual(["key", "usage"]);
    release();
    await expect(pending).resolves.toMatchObject({ apiKey: { clientId: "hgr_client1" } });
  });

  it("counts nothing when counting is off (no usage port)", async () => {
    const { deps, usage } = setup();
    const { usage: _off, ...withoutUsage } = deps;
    await authenticate(withoutUsage, { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` });
    expect(usage.days_.size).toBe(0);
  });
});
