/** A person who can sign in to the dashboard. The e-mail address is stored trimmed and lower-cased. */
export interface UserAccount {
  userId: string;
  email: string;
  emailVerified: boolean;
  /** Self-describing password hash (`$scrypt$…`); absent for users made by key:create until a reset. */
  passwordHash?: string;
  displayName?: string;
  organization?: string;
  createdAt: string;
  /** When the password was last set; reset links issued before it are dead. */
  passwordChangedAt?: string;
  /** Random key of the account's device cookies (sessions/device-token.ts); made at the first sign-in. Never leaves the server. */
  deviceKey?: string;
}

export interface Profile {
  displayName: string;
  organization?: string;
}

export interface UserRepository {
  /** By the normalized address (EMAIL# item, then USER#). */
  findByEmail(email: string): Promise<UserAccount | undefined>;
  get(userId: string): Promise<UserAccount | undefined>;
  /**
   * The user, its EMAIL# uniqueness item and its personal workspace (personalWorkspaceId, the user
   * its owner) in one transaction; ConflictError(already_exists) if the address is taken.
   */
  create(user: UserAccount): Promise<void>;
  markVerified(userId: string): Promise<void>;
  /** Returns the updated account; undefined when the user no longer exists. */
  updateProfile(userId: string, profile: Profile): Promise<UserAccount | undefined>;
  /** Sets a new hash. `changedAt` is given when the person chose a new password (not for a rehash). */
  setPasswordHash(userId: string, passwordHash: string, options?: { changedAt?: string; verified?: boolean }): Promise<void>;
  /** The account's device key: `candidate` stored if it has none yet (first writer wins). Undefined when the user is gone. */
  ensureDeviceKey(userId: string, candidate: string): Promise<string | undefined>;
}
