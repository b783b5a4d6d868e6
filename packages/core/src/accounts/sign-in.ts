import { parseInput } from "../validation/parse-input";
import type { Session } from "../ports";
import { accountView, addressSubject, enforce, type AccountDeps, type ClientInfo } from "./account-deps";
import { EmailNotVerifiedError, LoginFailedError } from "./account-errors";
import { SignIn, type AccountView } from "./account.schema";
import { startSession } from "./sessions/sessions";

export interface SignedIn {
  account: AccountView;
  /** The cookie's value; shown to the client once, only its secret's hash is stored. */
  sessionToken: string;
  session: Session;
}

/**
 * Sign-in. Counted per account and per client before the (expensive) hash, so a locked-out
 * guesser costs no CPU; the account's count is given back on success, so only failures add up.
 * An unknown address and a wrong password both hash (against a dummy) and get the same 401.
 * Every sign-in starts a new session with a new id (no fixation).
 */
export async function signIn(deps: AccountDeps, raw: unknown, client: ClientInfo): Promise<SignedIn> {
  const input = parseInput(SignIn, raw);
  const accountSubject = addressSubject("login-addr", input.email);
  const [user] = await Promise.all([
    deps.users.findByEmail(input.email),
    enforce(deps, [
      [deps.limiters.loginPerAccount, accountSubject],
      [deps.limiters.loginPerIp, `login-ip:${client.ip}`],
    ]),
  ]);

  const check = await deps.hasher.verify(input.password, user?.passwordHash);
  if (!user || !check.valid) throw new LoginFailedError();
  await deps.limiters.loginPerAccount.refund(accountSubject, deps.clock.now());
  // Only someone who knows the password learns that the address is unconfirmed.
  if (!user.emailVerified) throw new EmailNotVerifiedError();

  if (check.needsRehash) {
    // Parameters rose since this hash was made: store one made with today's, while we have the password.
    await deps.users.setPasswordHash(user.userId, await deps.hasher.hash(input.password));
  }
  const { token, session } = await startSession(deps, user.userId, client);
  return { account: accountView(user), sessionToken: token, session };
}
