export interface PasswordCheck {
  valid: boolean;
  /** The stored hash uses weaker parameters than today's: store a new one. */
  needsRehash: boolean;
}

export interface PasswordHasher {
  /** A self-describing string: algorithm, parameters, salt and hash. */
  hash(password: string): Promise<string>;
  /**
   * Verifies in constant time. With no stored hash (unknown user, no password yet) it still
   * does the full work against a dummy, so both failures take the same time.
   */
  verify(password: string, stored: string | undefined): Promise<PasswordCheck>;
}
