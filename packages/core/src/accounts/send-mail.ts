import { DependencyError } from "../errors/domain-errors";
import type { MailMessage } from "../ports";
import type { AccountDeps } from "./account-deps";

/** `suppressed`: not sent because SES reported the address as bouncing or complaining. */
export type MailOutcome = "sent" | "failed" | "suppressed";

/**
 * Sends and says what happened. Only a mail outage (DependencyError) is swallowed: the
 * caller has already stored what matters and tells the client the mail is missing.
 * Every mail path goes through here, so the suppression check is here: an address SES reported
 * as bouncing or complaining gets nothing, account-security mails included (SES would only bounce
 * them again and count against the account's bounce rate). The account page says why.
 */
export async function sendMail(deps: Pick<AccountDeps, "mailer" | "suppressions" | "onMailSuppressed">, mail: MailMessage): Promise<MailOutcome> {
  const suppression = await deps.suppressions.get(mail.to);
  if (suppression) {
    deps.onMailSuppressed?.({ subject: mail.subject }, suppression);
    return "suppressed";
  }
  try {
    await deps.mailer.send(mail);
    return "sent";
  } catch (error) {
    if (error instanceof DependencyError) return "failed";
    throw error;
  }
}
