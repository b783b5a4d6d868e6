import {
  InvalidCredentialsError,
  MissingCredentialsError,
  RateLimitedError,
  type RateLimitState,
} from "../errors/domain-errors";
import { hashSecret, secretMatches } from "../ids/random-ids";
import type { ApiKey, ApiKeyRepository, Clock, RateLimiter, UsageCounter } from "../ports";

export interface AuthenticateDeps {
  apiKeys: ApiKeyRepository;
  rateLimiter: RateLimiter;
  clock: Clock;
  /** Per-key daily usage; absent when counting is turned off (HANGAR_USAGE_COUNTING=off). */
  usage?: UsageCounter | undefined;
}

export interface Credentials {
  clientId: string | undefined;
  authorization: string | undefined;
}

export interface Authenticated {
  apiKey: ApiKey;
  rateLimit: RateLimitState;
}

// Shapes are checked before any I/O so garbage never costs a DynamoDB call or a counter item.
const CLIENT_ID = /^[A-Za-z0-9_-]{4,128}$/;
// The scheme name is case-insensitive (RFC 7235 §2.1): `bearer` and `BEARER` are the same scheme.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{16,512})$/i;
const DUMMY_HASH = hashSecret("hangar-dummy-secret");

/**
 * The rate-limit subject of a request: the client id and a tag of the secret it presented. Only
 * holders of the right secret count on the key's own counter; a wrong secret counts on a counter
 * of its own, so it never takes one of the key's slots, not even for the moment a refund would
 * take to land, and the key lookup can still run beside the counter update. 64 bits of a
 * domain-separated SHA-256: not the stored hash, and no wrong secret shares the key's counter in
 * practice. A regenerated secret starts a new counter, as a new key would.
 */
export const rateSubject = (clientId: string, secret: string) => `${clientId}#${hashSecret(`rate-limit:${secret}`).slice(0, 16)}`;

/**
 * Authenticates an API key and counts the request against its rate limit. The key lookup and the
 * counter update run together (one storage round trip instead of two); the counter is the one of
 * the presented secret (rateSubject), so a stranger who knows a client id cannot spend that key's
 * quota. Usage counted for a wrong secret is given back.
 */
export async function authenticate(deps: AuthenticateDeps, credentials: Credentials): Promise<Authenticated> {
  const clientId = credentials.clientId?.trim();
  const match = credentials.authorization ? BEARER.exec(credentials.authorization.trim()) : null;
  if (!clientId || !CLIENT_ID.test(clientId) || !match) throw new MissingCredentialsError();
  const secret = match[1]!;

  const now = deps.clock.now();
  // The usage counter is written beside the rate-limit update, so counting adds no round trip.
  const [apiKey, decision, mark] = await Promise.all([
    deps.apiKeys.get(clientId),
    deps.rateLimiter.hit(rateSubject(clientId, secret), now),
    deps.usage?.request(clientId, now),
  ]);

  // Hash and compare even for unknown ids, so both failures cost the same.
  const valid = secretMatches(secret, apiKey?.secretHash ?? DUMMY_HASH) && apiKey?.status === "active";
  if (!apiKey || !valid) {
    // The usage of a key may not be spent by someone without its secret (its quota never was).
    if (mark) await deps.usage?.refund(clientId, now, mark);
    throw new InvalidCredentialsError();
  }
  if (!decision.allowed) {
    await deps.usage?.rateLimited(clientId, now);
    const retryAfter = Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000));
    throw new RateLimitedError(decision.state, retryAfter);
  }
  return { apiKey, rateLimit: decision.state };
}
