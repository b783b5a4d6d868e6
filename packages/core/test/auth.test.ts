import { describe, expect, it } from "vitest";
import { InvalidCredentialsError, MissingCredentialsError, RateLimitedError, authenticate } from "../src";
import { CountingRateLimiter, MemoryApiKeyGate, MemoryApiKeys, SECRET, apiKey, fixedClock } from "./support/fakes";

function setup(limit = 3) {
  const apiKeys = new MemoryApiKeys();
  apiKeys.keys.set("hgr_client1", apiKey());
  apiKeys.keys.set("hgr_revoked", apiKey({ clientId: "hgr_revoked", status: "revoked" }));
  const rateLimiter = new CountingRateLimiter(limit);
  const keyGate = new MemoryApiKeyGate(apiKeys, rateLimiter);
  return { apiKeys, rateLimiter, keyGate, deps: { keyGate, clock: fixedClock("2026-11-21T23:00:30.000Z") } };
}

describe("authenticate", () => {
  it("admits a valid key and reports the window", async () => {
    const { deps } = setup();
    const { apiKey: key, rateLimit } = await authenticate(deps, { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` });
    expect(key.projectId).toBe("prj_A");
    expect(rateLimit).toEqual({ limit: 3, remaining: 2, resetAt: Date.parse("2026-11-21T23:01:00Z") / 1000 });
  });

  it.each(["bearer", "BEARER", "bEaReR"])("accepts the scheme written %s (scheme names are case-insensitive, RFC 7235)", async (scheme) => {
    const { deps } = setup();
    const { apiKey: key } = await authenticate(deps, { clientId: "hgr_client1", authorization: `${scheme} ${SECRET}` });
    expect(key.projectId).toBe("prj_A");
  });

  it.each([
    [{ clientId: undefined, authorization: `Bearer ${SECRET}` }],
    [{ clientId: "hgr_client1", authorization: undefined }],
    [{ clientId: "hgr_client1", authorization: SECRET }],
    [{ clientId: "hgr_client1", authorization: "Basic abc" }],
    [{ clientId: "has space", authorization: `Bearer ${SECRET}` }],
  ])("answers missing_credentials for %j without touching storage", async (credentials) => {
    const { deps, rateLimiter, keyGate } = setup();
    await expect(authenticate(deps, credentials)).rejects.toBeInstanceOf(MissingCredentialsError);
    expect(rateLimiter.counts.size).toBe(0);
    expect(keyGate.admissions).toBe(0);
  });

  it.each(["hgr_client1", "hgr_unknown", "hgr_revoked"])(
    "answers the same invalid_credentials for %s with a wrong or revoked secret, counting nothing",
    async (clientId) => {
      const { deps, rateLimiter, keyGate } = setup();
      const secret = clientId === "hgr_revoked" ? SECRET : `${SECRET}x`;
      const error = await authenticate(deps, { clientId, authorization: `Bearer ${secret}` }).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidCredentialsError);
      expect(error.message).toBe(new InvalidCredentialsError().message);
      // One storage call, as for a right secret, and no counter touched (so nothing to give back).
      expect(keyGate.admissions).toBe(1);
      expect(rateLimiter.counts.size).toBe(0);
      expect(rateLimiter.refunds).toBe(0);
    },
  );

  it("never lets wrong secrets take the key's slots, even all at once past the limit", async () => {
    const { deps } = setup(3);
    const good = { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` };
    const wrong = { clientId: "hgr_client1", authorization: `Bearer ${SECRET}-wrong` };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => authenticate(deps, i % 2 ? wrong : good).then(() => "ok", (e: Error) => e.constructor.name)),
    );
    expect(answers.filter((a) => a === "ok")).toHaveLength(3);
    expect(answers.filter((a) => a === "RateLimitedError")).toHaveLength(2);
    expect(answers.filter((a) => a === "InvalidCredentialsError")).toHaveLength(5);
  });

  it("answers rate_limited past the limit with the seconds left in the window", async () => {
    const { deps } = setup(2);
    const creds = { clientId: "hgr_client1", authorization: `Bearer ${SECRET}` };
    await authenticate(deps, creds);
    await authenticate(deps, creds);
    const error = await authenticate(deps, creds).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterSeconds).toBe(30);
    expect(error.rateLimit.remaining).toBe(0);
  });
});
