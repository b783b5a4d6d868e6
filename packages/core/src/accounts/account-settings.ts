/** Lifetimes of the accounts API; defaults are what docs/accounts.md explains. */
export interface AccountSettings {
  /** Verification links: 24 h. */
  verifyTokenTtlSeconds: number;
  /** Password reset links: 1 h. */
  resetTokenTtlSeconds: number;
  /** A session unused this long is over (7 days, sliding). */
  sessionIdleSeconds: number;
  /** A session is over this long after sign-in whatever its use (30 days). */
  sessionAbsoluteSeconds: number;
  /** The idle expiry is pushed forward at most this often, so reads do not each cost a write. */
  sessionRefreshSeconds: number;
}

export const defaultAccountSettings: AccountSettings = {
  verifyTokenTtlSeconds: 24 * 3600,
  resetTokenTtlSeconds: 3600,
  sessionIdleSeconds: 7 * 24 * 3600,
  sessionAbsoluteSeconds: 30 * 24 * 3600,
  sessionRefreshSeconds: 3600,
};

/** Limits of the rate limiters the accounts API uses (each one its own RateLimiter instance). */
export const accountRateLimits = {
  /** Failed sign-ins (and wrong current passwords) per account. */
  loginPerAccount: { limit: 10, windowSeconds: 15 * 60 },
  /** Sign-in attempts per client address (IPv6: per /64); offices share an address, so higher. */
  loginPerIp: { limit: 100, windowSeconds: 15 * 60 },
  /** Sign-ups, resends and reset requests per e-mail address: Hangar must not flood an inbox. */
  mailPerAddress: { limit: 5, windowSeconds: 60 * 60 },
  /** The same per client address. */
  mailPerIp: { limit: 30, windowSeconds: 15 * 60 },
} as const;
