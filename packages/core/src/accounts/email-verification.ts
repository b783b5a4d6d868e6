import { hashSecret } from "../ids/random-ids";
import { parseInput } from "../validation/parse-input";
import { enforceMailLimits, issueToken, nowSeconds, type AccountDeps, type AccountLinks, type ClientInfo } from "./account-deps";
import { InvalidTokenError } from "./account-errors";
import { EmailOnly, TokenOnly } from "./account.schema";
import { verificationMail, verifyLink } from "./mail/account-mails";
import { sendMail } from "./send-mail";
import { DependencyError } from "../errors/domain-errors";

/**
 * Consumes a verification token (single use: a conditional delete) and marks the address
 * verified. Unknown, used, expired and tampered tokens get one answer.
 */
export async function verifyEmail(deps: AccountDeps, raw: unknown): Promise<{ emailVerified: true }> {
  const input = parseInput(TokenOnly, raw);
  const token = await deps.tokens.consume(hashSecret(input.token), "verify_email", nowSeconds(deps.clock));
  if (!token) throw new InvalidTokenError();
  const user = await deps.users.get(token.userId);
  if (!user) throw new InvalidTokenError();
  if (!user.emailVerified) await deps.users.markVerified(user.userId);
  return { emailVerified: true };
}

/**
 * A new verification link, only for an account that exists and is not verified yet. Every
 * address gets the same 202, so the answer reveals nothing; a mail that could not be sent is a
 * 503 (the client may retry), which only an outage can cause.
 */
export async function resendVerification(deps: AccountDeps, raw: unknown, client: ClientInfo, links: AccountLinks): Promise<void> {
  const input = parseInput(EmailOnly, raw);
  await enforceMailLimits(deps, input.email, client);
  const user = await deps.users.findByEmail(input.email);
  if (!user || user.emailVerified) return;
  const token = await issueToken(deps, user.userId, "verify_email");
  const hours = Math.round(deps.settings.verifyTokenTtlSeconds / 3600);
  // A suppressed address gets the same 202 as any other: the answer must not say it has an account.
  if ((await sendMail(deps, verificationMail(user.email, verifyLink(links.publicBaseUrl, token), hours))) === "failed") {
    throw new DependencyError("mail", "The verification mail could not be sent");
  }
}
