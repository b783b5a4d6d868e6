/** Mailed tokens of accounts: the address check of sign-up and the password reset. */
export type AccountTokenPurpose = "verify_email" | "reset_password";
/**
 * Mailed tokens of testers (docs/testers.md): the portal's magic link, and the one that confirms a
 * self-service join through a group's invite link. Both end in a tester session, not an account.
 */
export type TesterTokenPurpose = "tester_sign_in" | "tester_join";
export type TokenPurpose = AccountTokenPurpose | TesterTokenPurpose;

interface TokenCommon {
  /** Hex SHA-256 of the token in the link. */
  tokenHash: string;
  createdAt: string;
  /** Epoch seconds. */
  expiresAt: number;
}

/** A single-use token mailed to an account holder: only its SHA-256 is stored. */
export interface AccountToken extends TokenCommon {
  purpose: AccountTokenPurpose;
  userId: string;
}

/** A single-use token mailed to a tester (an address, not an account). */
export interface TesterToken extends TokenCommon {
  purpose: TesterTokenPurpose;
  /** The tester's normalized address: whom the session is for. */
  email: string;
  /** `tester_join` only: the group and the invite link (its id) the mail was sent for. */
  groupId?: string;
  linkId?: string;
  /**
   * `tester_join` only: the invite link's own token, which the join redeems. It is no secret the
   * tester lacks (they opened the link), and it lives as long as this item (15 minutes).
   */
  joinToken?: string;
}

/** A single-use token mailed to a person: only its SHA-256 is stored. */
export type OneTimeToken = AccountToken | TesterToken;

/** The token a consume of these purposes returns. */
export type TokenOf<P extends TokenPurpose> = P extends AccountTokenPurpose ? AccountToken : TesterToken;

export interface TokenRepository {
  create(token: OneTimeToken): Promise<void>;
  /**
   * Deletes the token with a conditional write and returns it, if it exists, has this purpose (or
   * one of these) and has not expired at `nowSeconds`; undefined otherwise. Two concurrent
   * consumers: one wins.
   */
  consume<P extends TokenPurpose>(tokenHash: string, purpose: P | readonly P[], nowSeconds: number): Promise<TokenOf<P> | undefined>;
}
