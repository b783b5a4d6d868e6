/**
 * Projects an account can have. Lists are one page and the key list reads every project, so this
 * bounds what one account's dashboard costs; far above what a team shipping apps needs.
 */
export const MAX_PROJECTS = 100;

/** Active keys per project: one per CI system and environment is plenty, and each is a secret to guard. */
export const MAX_ACTIVE_KEYS = 20;
