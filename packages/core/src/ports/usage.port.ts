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

/** What a counted request changed, so a request that turns out unauthenticated can be given back. */
export interface UsageMark {
  previousLastUsedAt?: string;
}

/**
 * Per-key-per-day counters, written on the request path (presign, complete). Each call is one
 * storage write that runs beside the rate-limit update, never after it.
 */
export interface UsageCounter {
  request(clientId: string, at: Date): Promise<UsageMark>;
  /** Gives back a request counted for credentials that turned out wrong. */
  refund(clientId: string, at: Date, mark: UsageMark): Promise<void>;
  rateLimited(clientId: string, at: Date): Promise<void>;
  uploadCompleted(clientId: string, at: Date, bytes: number): Promise<void>;
}

export interface UsageReader {
  /** Days in [fromDay, toDay] that have counters, oldest first. */
  days(clientId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;
  /** The last time the key was used, from its newest day item. */
  lastUsedAt(clientId: string): Promise<string | undefined>;
  /** Deletes every usage item of the key (project and account purges). */
  removeAll(clientId: string): Promise<void>;
}
