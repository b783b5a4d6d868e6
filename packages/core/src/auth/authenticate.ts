import {
  InvalidCredentialsError,
  MissingCredentialsError,
  RateLimitedError,
  type RateLimitState,
} from "../errors/domain-errors";
import { hashSecret, secretMatches } from "../ids/random-ids";
import type { ApiKey, ApiKeyGate, Clock, UsageCounter } from "../ports";

export interface AuthenticateDeps {
  /** Checks the secret, counts the request (rate window and usage) and returns the key: one write. */
  keyGate: ApiKeyGate;
  clock: Clock;
  /** Per-key daily usage, for refused requests; absent when counting is turned off (HANGAR_USAGE_COUNTING=off). */
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
 * Authenticates an API key and counts the request against its rate limit and its day's usage, in
 * one storage write (ApiKeyGate): the write is conditioned on the presented secret's hash, so a
 * stranger who knows a client id spends neither the key's quota nor its usage. The decision is
 * still made here, by a constant-time compare against the stored hash (a dummy one for unknown
 * ids), so unknown and known ids answer the same 401 at the same cost.
 */
export async function authenticate(deps: AuthenticateDeps, credentials: Credentials): Promise<Authenticated> {
  const clientId = credentials.clientId?.trim();
  const match = credentials.authorization ? BEARER.exec(credentials.authorization.trim()) : null;
  if (!clientId || !CLIENT_ID.test(clientId) || !match) throw new MissingCredentialsError();
  const secret = match[1]!;

  const now = deps.clock.now();
  const { apiKey, decision } = await deps.keyGate.admit(clientId, hashSecret(secret), now);

  // Hash and compare even for unknown ids, so both failures cost the same.
  const valid = secretMatches(secret, apiKey?.secretHash ?? DUMMY_HASH) && apiKey?.status === "active";
  if (!apiKey || !valid || !decision) throw new InvalidCredentialsError();
  if (!decision.allowed) {
    await deps.usage?.rateLimited(clientId, now);
    const retryAfter = Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000));
    throw new RateLimitedError(decision.state, retryAfter);
  }
  return { apiKey, rateLimit: decision.state };
}
