/**
 * A dashboard session, as Lucia designs them: the cookie carries the session id and a random
 * secret; only the secret's SHA-256 is stored, so a copy of the table cannot be replayed.
 */
export interface Session {
  sessionId: string;
  userId: string;
  /** Hex SHA-256 of the cookie's secret. */
  secretHash: string;
  createdAt: string;
  lastSeenAt: string;
  /** Epoch seconds: the session dies if unused until then (sliding, refreshed on use). */
  idleExpiresAt: number;
  /** Epoch seconds: the session dies then whatever its use. */
  absoluteExpiresAt: number;
  userAgent?: string;
  ip?: string;
}

export interface SessionRepository {
  create(session: Session): Promise<void>;
  get(userId: string, sessionId: string): Promise<Session | undefined>;
  /** Slides the idle expiry; does nothing if the session was deleted meanwhile. */
  touch(userId: string, sessionId: string, lastSeenAt: string, idleExpiresAt: number): Promise<void>;
  /** False when there was no such session of this user. */
  delete(userId: string, sessionId: string): Promise<boolean>;
  /** Every session of the user (strongly consistent), expired ones included. */
  list(userId: string): Promise<Session[]>;
  /** Ends every session of the user except `keep`. */
  deleteAll(userId: string, keep?: string): Promise<void>;
}
