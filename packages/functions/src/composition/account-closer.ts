import type { AccountCloser } from "@hangar/core";
import { enforce, ScryptPasswordHasher } from "@hangar/core/accounts";
import { DynamoAccountRemoval, DynamoUserRepository } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";
import { sessionDeps } from "./sessions";

/**
 * Account deletion's view of the accounts side: the password check counts against the failed
 * sign-ins' rule, per account (a stolen session must not become a password oracle),
 * sessions end through the session repository, and the user and e-mail items go together.
 */
export const accountCloser = once((): AccountCloser => {
  const { db, settings, clock, limits } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  const removal = new DynamoAccountRemoval(db, table);
  // The pieces of the accounts function's dependencies a password check needs, built here so the
  // projects function (which serves DELETE /api/account) bundles no mailer.
  const users = new DynamoUserRepository(db, table);
  const failures = limits.rule("signInFailures");
  const hasher = new ScryptPasswordHasher();
  return {
    verifyPassword: async (userId, password) => {
      const user = await users.get(userId);
      if (!user) return false;
      const subject = `close:${userId}`;
      await enforce({ clock }, [[failures, subject]]);
      const check = await hasher.verify(password, user.passwordHash);
      if (check.valid) await failures.refund(subject, clock.now());
      return check.valid;
    },
    endSessions: (userId) => sessionDeps().sessions.deleteAll(userId),
    removeUser: (userId) => removal.removeUser(userId),
  };
});

