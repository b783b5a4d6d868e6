/** One UTC day of one key's usage. `requests` counts accepted and rate-limited requests. */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  requests: number;
  rateLimited: number;
  uploads: number;
  bytes: number;
  lastUsedAt?: string;
}

/**
 * Per-key-per-day counters written on the request path (presign, complete). An accepted request
 * is counted by the write that admits it (ApiKeyGate), not here.
 */
export interface UsageCounter {
  /** A request refused by the rate limit: counts as a request and as rate-limited. */
  rateLimited(clientId: string, at: Date): Promise<void>;
}

export interface UsageReader {
  /** Days in [fromDay, toDay] that have counters, oldest first. */
  days(clientId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  /** The last time the key was used, from its newest day item. */
  lastUsedAt(clientId: string): Promise<string | undefined>;
  /** Deletes every usage item of the key (project and account purges). */
  removeAll(clientId: string): Promise<void>;
}
