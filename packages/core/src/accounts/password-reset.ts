import { hashSecret } from "../ids/random-ids";
import { accountSubject, assertNotCommon, enforceMailLimits, nowSeconds, type AccountDeps, type AccountLinks, type ClientInfo } from "./account-deps";
import { InvalidTokenError } from "./account-errors";
import type { EmailOnly, ResetConfirm } from "./account.schema";

/**
 * Asks for a reset link (valid 1 h). Every address gets the same 202 after the same work: the
 * limits are counted and the rest (the lookup, the token, the mail) runs in the background,
 * where an unknown address ends without a mail. So neither the answer nor its time says
 * whether the address has an account (issue 17, M1).
 */
export async function requestPasswordReset(deps: AccountDeps, input: EmailOnly, client: ClientInfo, links: AccountLinks): Promise<void> {
  await enforceMailLimits(deps, input.email, client);
  await deps.background.schedule({ kind: "password-reset", email: input.email, publicBaseUrl: links.publicBaseUrl });
}

/**
 * Sets a new password with a reset token and ends every session of the account. The password
 * is checked before the token is consumed, so a refused password does not burn the link. A
 * link issued before the password last changed is dead, even within its hour. Following the
 * link proves the mailbox is the person's, so the address counts as verified from then on. It
 * also clears the account's sign-in ceiling (and this client's failures), so the owner is not
 * kept out by what a guesser did before.
 */
export async function confirmPasswordReset(deps: AccountDeps, input: ResetConfirm, client?: ClientInfo): Promise<void> {
  await assertNotCommon(deps, input.newPassword, "newPassword");
  const token = await deps.tokens.consume(hashSecret(input.token), "reset_password", nowSeconds(deps.clock));
  if (!token) throw new InvalidTokenError();
  const user = await deps.users.get(token.userId);
  if (!user || (user.passwordChangedAt !== undefined && token.createdAt < user.passwordChangedAt)) throw new InvalidTokenError();

  const passwordHash = await deps.hasher.hash(input.newPassword);
  await deps.users.setPasswordHash(user.userId, passwordHash, { changedAt: deps.clock.now().toISOString(), verified: true });
  await deps.sessions.deleteAll(user.userId);
  const now = deps.clock.now();
  const account = accountSubject(user.email);
  await Promise.all([
    deps.limiters.signInCeiling.clear(account, now),
    ...(client ? [deps.limiters.signInFailures.clear(`${account}:${client.ip}`, now)] : []),
  ]);
}
