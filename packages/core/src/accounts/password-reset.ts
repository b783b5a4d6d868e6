import { DependencyError } from "../errors/domain-errors";
import { hashSecret } from "../ids/random-ids";
import { parseInput } from "../validation/parse-input";
import { assertNotCommon, enforceMailLimits, issueToken, nowSeconds, type AccountDeps, type AccountLinks, type ClientInfo } from "./account-deps";
import { InvalidTokenError } from "./account-errors";
import { EmailOnly, ResetConfirm } from "./account.schema";
import { passwordResetMail, resetLink } from "./mail/account-mails";
import { sendMail } from "./send-mail";

/**
 * Mails a reset link (valid 1 h) when the address has an account; an unknown address gets the
 * same 202 and no mail is sent to it.
 */
export async function requestPasswordReset(deps: AccountDeps, raw: unknown, client: ClientInfo, links: AccountLinks): Promise<void> {
  const input = parseInput(EmailOnly, raw);
  await enforceMailLimits(deps, input.email, client);
  const user = await deps.users.findByEmail(input.email);
  if (!user) return;
  const token = await issueToken(deps, user.userId, "reset_password");
  const minutes = Math.round(deps.settings.resetTokenTtlSeconds / 60);
  // A suppressed address gets the same 202 as any other: the answer must not say it has an account.
  if ((await sendMail(deps, passwordResetMail(user.email, resetLink(links.publicBaseUrl, token), minutes))) === "failed") {
    throw new DependencyError("mail", "The password reset mail could not be sent");
  }
}

/**
 * Sets a new password with a reset token and ends every session of the account. The password
 * is checked before the token is consumed, so a refused password does not burn the link. A
 * link issued before the password last changed is dead, even within its hour. Following the
 * link proves the mailbox is the person's, so the address counts as verified from then on.
 */
export async function confirmPasswordReset(deps: AccountDeps, raw: unknown): Promise<void> {
  const input = parseInput(ResetConfirm, raw);
  await assertNotCommon(deps, input.newPassword, "newPassword");
  const token = await deps.tokens.consume(hashSecret(input.token), "reset_password", nowSeconds(deps.clock));
  if (!token) throw new InvalidTokenError();
  const user = await deps.users.get(token.userId);
  if (!user || (user.passwordChangedAt !== undefined && token.createdAt < user.passwordChangedAt)) throw new InvalidTokenError();

  const passwordHash = await deps.hasher.hash(input.newPassword);
  await deps.users.setPasswordHash(user.userId, passwordHash, { changedAt: deps.clock.now().toISOString(), verified: true });
  await deps.sessions.deleteAll(user.userId);
}
