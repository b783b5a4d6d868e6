import { ValidationError } from "../errors/domain-errors";
import { assertNotCommon, enforce, type AccountDeps } from "./account-deps";
import { NotSignedInError } from "./account-errors";
import type { ChangePassword } from "./account.schema";
import type { SessionContext } from "./sessions/sessions";

/**
 * Changes the password of a signed-in person, who must give the current one (a session left
 * open on a shared computer is not enough), and ends every other session. Wrong current
 * passwords count against the failed sign-ins' rule, per session: a stolen session is no
 * password oracle, and it cannot fill the account-wide ceiling either.
 */
export async function changePassword(deps: AccountDeps, session: SessionContext, input: ChangePassword): Promise<void> {
  const user = await deps.users.get(session.userId);
  if (!user) throw new NotSignedInError();
  if (input.currentPassword === input.newPassword) {
    throw new ValidationError([{ field: "newPassword", message: "must differ from the current password" }]);
  }
  await assertNotCommon(deps, input.newPassword, "newPassword");

  const subject = `session:${session.sessionId}`;
  await enforce(deps, [[deps.limiters.signInFailures, subject]]);
  const check = await deps.hasher.verify(input.currentPassword, user.passwordHash);
  if (!check.valid) throw new ValidationError([{ field: "currentPassword", message: "is not your current password" }]);
  await deps.limiters.signInFailures.refund(subject, deps.clock.now());

  const passwordHash = await deps.hasher.hash(input.newPassword);
  await deps.users.setPasswordHash(user.userId, passwordHash, { changedAt: deps.clock.now().toISOString() });
  await deps.sessions.deleteAll(user.userId, session.sessionId);
}
