import type { AccountCloser } from "@hangar/core";
import { addressSubject, enforce } from "@hangar/core/accounts";
import { DynamoAccountRemoval } from "@hangar/core/dynamo";
import { getAccountDeps } from "./accounts";
import { getRuntime } from "./root";

let closer: AccountCloser | undefined;

/**
 * Account deletion's view of the accounts side: the password check counts against the same
 * per-account limit as failed sign-ins (a stolen session must not become a password oracle),
 * sessions end through the session repository, and the user and e-mail items go together.
 */
export function getAccountCloser(): AccountCloser {
  if (closer) return closer;
  const { db, settings } = getRuntime();
  const removal = new DynamoAccountRemoval(db, settings.HANGAR_TABLE_NAME);
  closer = {
    verifyPassword: async (userId, password) => {
      const deps = getAccountDeps();
      const user = await deps.users.get(userId);
      if (!user) return false;
      const subject = addressSubject("login-addr", user.email);
      await enforce(deps, [[deps.limiters.loginPerAccount, subject]]);
      const check = await deps.hasher.verify(password, user.passwordHash);
      if (check.valid) await deps.limiters.loginPerAccount.refund(subject, deps.clock.now());
      return check.valid;
    },
    endSessions: (userId) => getAccountDeps().sessions.deleteAll(userId),
    removeUser: (userId) => removal.removeUser(userId),
  };
  return closer;
}

