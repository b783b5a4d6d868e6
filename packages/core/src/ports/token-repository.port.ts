export type TokenPurpose = "verify_email" | "reset_password";

/** A single-use token mailed to a person: only its SHA-256 is stored. */
export interface OneTimeToken {
  /** Hex SHA-256 of the token in the link. */
  tokenHash: string;
  purpose: TokenPurpose;
  userId: string;
  createdAt: string;
  /** Epoch seconds. */
  expiresAt: number;
}

export interface TokenRepository {
  create(token: OneTimeToken): Promise<void>;
  /**
   * Deletes the token with a conditional write and returns it, if it exists, has this purpose
   * and has not expired at `nowSeconds`; undefined otherwise. Two concurrent consumers: one wins.
   */
  consume(tokenHash: string, purpose: TokenPurpose, nowSeconds: number): Promise<OneTimeToken | undefined>;
}
