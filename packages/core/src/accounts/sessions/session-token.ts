/**
 * The session cookie's value: `<userId>.<sessionId>.<secret>`. The ids locate the item (the
 * session lives in its user's partition, so listing and ending all of a user's sessions is one
 * strongly consistent Query); the secret is 32 random bytes of which only the SHA-256 is stored.
 */
const TOKEN = /^(usr_[A-Za-z0-9]{1,40})\.(ses_[A-Za-z0-9]{1,40})\.([A-Za-z0-9_-]{43})$/;
const SESSION_ID = /^ses_[A-Za-z0-9]{1,40}$/;

export interface SessionTokenParts {
  userId: string;
  sessionId: string;
  secret: string;
}

export const formatSessionToken = (p: SessionTokenParts) => `${p.userId}.${p.sessionId}.${p.secret}`;

/** undefined for anything this service could not have issued (checked before any lookup). */
export function parseSessionToken(token: string | undefined): SessionTokenParts | undefined {
  const m = token ? TOKEN.exec(token) : null;
  return m ? { userId: m[1]!, sessionId: m[2]!, secret: m[3]! } : undefined;
}

export const isSessionId = (id: string | undefined): id is string => id !== undefined && SESSION_ID.test(id);
