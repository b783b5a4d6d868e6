import { randomBytes, randomInt } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (length: number) => Array.from({ length }, () => BASE62[randomInt(62)]).join("");

/** The random values the accounts use cases need, injectable so tests can pin them. */
export interface AccountIds {
  userId(): string;
  /** Public id of a session (shown in the session list, part of the cookie). */
  sessionId(): string;
  /** 32 random bytes, base64url (43 characters): session secrets and mailed tokens. */
  secret(): string;
}

export const randomAccountIds: AccountIds = {
  userId: () => `usr_${base62(16)}`,
  sessionId: () => `ses_${base62(20)}`,
  secret: () => randomBytes(32).toString("base64url"),
};
