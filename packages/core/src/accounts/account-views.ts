/**
 * What the accounts API shows: the one definition of these shapes, for the use cases that build
 * them and for the dashboard that reads them (types only, through `@hangar/core/account-views`).
 */

/** What the API shows of an account (never the hash). */
export interface AccountView {
  userId: string;
  email: string;
  emailVerified: boolean;
  displayName?: string;
  organization?: string;
  createdAt: string;
  /**
   * Present when SES reported the address as bouncing permanently (or a complaint) on `since`:
   * Hangar sends it no more mail (verification, reset, notices), so the page says so.
   */
  mailSuppressed?: { reason: "bounce" | "complaint"; since: string };
}

export interface SessionView {
  sessionId: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  userAgent?: string;
  ip?: string;
}
