import type { AccountCloser } from "@hangar/core";
import { accountRateLimits, addressSubject, enforce, ScryptPasswordHasher } from "@hangar/core/accounts";
import { DynamoAccountRemoval, DynamoRateLimiter, DynamoUserRepository } from "@hangar/core/dynamo";
import { getRuntime } from "./root";
import { getSessionDeps } from "./sessions";

let closer: AccountCloser | undefined;

/**
 * Account deletion's view of the accounts side: the password check counts against the same
 * per-account limit as failed sign-ins (a stolen session must not become a password oracle),
 * sessions end through the session repository, and the user and e-mail items go together.
 */
export function getAccountCloser(): AccountCloser {
  if (closer) return closer;
  const { db, settings, clock } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  const removal = new DynamoAccountRemoval(db, table);
  // The pieces of the accounts function's dependencies a password check needs, built here so the
  // projects function (which serves DELETE /api/account) bundles no mailer.
  const users = new DynamoUserRepository(db, table);
  const loginPerAccount = new DynamoRateLimiter(db, table, accountRateLimits.loginPerAccount);
  const hasher = new ScryptPasswordHasher();
  closer = {
    verifyPassword: async (userId, password) => {
      const user = await users.get(userId);
      if (!user) return false;
      const subject = addressSubject("login-addr", user.email);
      await enforce({ clock }, [[loginPerAccount, subject]]);
      const check = await hasher.verify(password, user.passwordHash);
      if (check.valid) await loginPerAccount.refund(subject, clock.now());
      return check.valid;
    },
    endSessions: (userId) => getSessionDeps().sessions.deleteAll(userId),
    removeUser: (userId) => removal.removeUser(userId),
  };
  return closer;
}

