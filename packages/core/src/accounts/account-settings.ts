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
