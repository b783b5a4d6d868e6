import { ConflictError } from "../errors/domain-errors";
import { parseInput } from "../validation/parse-input";
import {
  assertNotCommon,
  enforceMailLimits,
  issueToken,
  type AccountDeps,
  type AccountLinks,
  type ClientInfo,
} from "./account-deps";
import { SignUp } from "./account.schema";
import { accountExistsMail, verificationMail, verifyLink } from "./mail/account-mails";
import { sendMail } from "./send-mail";

export interface SignUpResult {
  /** False when the mail could not be sent: the account exists, and resend works later. */
  mailSent: boolean;
}

/**
 * Creates an unverified account and mails a verification link. An address that already has an
 * account gets the same answer, after the same work (a password hash, a write attempt, one
 * mail), and its owner is told by mail instead: the answer never says whether an address is
 * registered. The password of the existing account is left untouched.
 */
export async function signUp(deps: AccountDeps, raw: unknown, client: ClientInfo, links: AccountLinks): Promise<SignUpResult> {
  const input = parseInput(SignUp, raw);
  await assertNotCommon(deps, input.password, "password");
  await enforceMailLimits(deps, input.email, client);

  const passwordHash = await deps.hasher.hash(input.password);
  const now = deps.clock.now().toISOString();
  const userId = deps.ids.userId();
  try {
    await deps.users.create({ userId, email: input.email, emailVerified: false, passwordHash, createdAt: now, passwordChangedAt: now });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    const mail = accountExistsMail(input.email, {
      signIn: `${links.publicBaseUrl}/login`,
      forgotPassword: `${links.publicBaseUrl}/forgot-password`,
    });
    return { mailSent: (await sendMail(deps, mail)) === "sent" };
  }

  const token = await issueToken(deps, userId, "verify_email");
  const hours = Math.round(deps.settings.verifyTokenTtlSeconds / 3600);
  return { mailSent: (await sendMail(deps, verificationMail(input.email, verifyLink(links.publicBaseUrl, token), hours))) === "sent" };
}
