import { hashSecret } from "../ids/random-ids";
import { enforceMailLimits, nowSeconds, type AccountDeps, type AccountLinks, type ClientInfo } from "./account-deps";
import { InvalidTokenError } from "./account-errors";
import type { EmailOnly, TokenOnly } from "./account.schema";

/**
 * Consumes a verification token (single use: a conditional delete) and marks the address
 * verified. Unknown, used, expired and tampered tokens get one answer.
 */
export async function verifyEmail(deps: AccountDeps, input: TokenOnly): Promise<{ emailVerified: true }> {
  const token = await deps.tokens.consume(hashSecret(input.token), "verify_email", nowSeconds(deps.clock));
  if (!token) throw new InvalidTokenError();
  const user = await deps.users.get(token.userId);
  if (!user) throw new InvalidTokenError();
  if (!user.emailVerified) await deps.users.markVerified(user.userId);
  return { emailVerified: true };
}

/**
 * A new verification link, only for an account that exists and is not verified yet. Every
 * address gets the same 202 after the same work: the lookup, the token and the mail run in the
 * background (account-mail-task.ts), so neither the answer nor its time reveals anything.
 */
export async function resendVerification(deps: AccountDeps, input: EmailOnly, client: ClientInfo, links: AccountLinks): Promise<void> {
  await enforceMailLimits(deps, input.email, client);
  await deps.background.schedule({ kind: "resend-verification", email: input.email, publicBaseUrl: links.publicBaseUrl });
}
