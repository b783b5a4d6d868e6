import { DependencyError } from "../errors/domain-errors";
import type { MailMessage } from "../ports";
import type { AccountDeps } from "./account-deps";

/**
 * Sends and says whether it worked. Only a mail outage (DependencyError) is swallowed: the
 * caller has already stored what matters and tells the client the mail is missing.
 */
export async function sendMail(deps: Pick<AccountDeps, "mailer">, mail: MailMessage): Promise<boolean> {
  try {
    await deps.mailer.send(mail);
    return true;
  } catch (error) {
    if (error instanceof DependencyError) return false;
    throw error;
  }
}
