import type { RateLimiter, Session } from "../ports";
import { accountSubject, accountView, enforce, type AccountDeps, type ClientInfo } from "./account-deps";
import { EmailNotVerifiedError, LoginFailedError } from "./account-errors";
import type { AccountView, SignIn } from "./account.schema";
import { deviceOf, newDeviceKey, signDeviceToken } from "./sessions/device-token";
import { startSession } from "./sessions/sessions";

export interface SignedIn {
  account: AccountView;
  /** The cookie's value; shown to the client once, only its secret's hash is stored. */
  sessionToken: string;
  session: Session;
  /** This browser's device cookie for the account (sessions/device-token.ts), new or renewed. */
  deviceToken?: string;
}

/**
 * Sign-in. Counted before the (expensive) hash, so a client over its limits costs no CPU; the
 * failure counts are given back on success, so only failures add up:
 * - every attempt per client (`signIn`);
 * - a browser with this account's device cookie: its own failures only (`signInDevice`);
 * - any other: failures per account and client (`signInFailures`) and the account-wide ceiling
 *   (`signInCeiling`), which a guesser spread over many addresses fills, and which then holds
 *   only browsers that never signed in to the account. A completed reset clears it.
 * An unknown address and a wrong password both hash (against a dummy) and get the same 401.
 * Every sign-in starts a new session with a new id (no fixation). The input arrives parsed (the
 * HTTP layer validates it with `SignIn` before the use case runs), so nothing here re-checks it.
 */
export async function signIn(deps: AccountDeps, input: SignIn, client: ClientInfo, deviceToken?: string): Promise<SignedIn> {
  const now = deps.clock.now();
  const account = accountSubject(input.email);
  const [user] = await Promise.all([deps.users.findByEmail(input.email), enforce(deps, [[deps.limiters.signIn, client.ip]])]);
  const device = deviceOf(user, deviceToken, now);
  const counted: [RateLimiter, string][] = device
    ? [[deps.limiters.signInDevice, `${account}:${device}`]]
    : [
        [deps.limiters.signInFailures, `${account}:${client.ip}`],
        [deps.limiters.signInCeiling, account],
      ];
  await enforce(deps, counted);

  const check = await deps.hasher.verify(input.password, user?.passwordHash);
  if (!user || !check.valid) throw new LoginFailedError();
  await Promise.all(counted.map(([limiter, subject]) => limiter.refund(subject, now)));
  // Only someone who knows the password learns that the address is unconfirmed.
  if (!user.emailVerified) throw new EmailNotVerifiedError();

  if (check.needsRehash) {
    // Parameters rose since this hash was made: store one made with today's, while we have the password.
    await deps.users.setPasswordHash(user.userId, await deps.hasher.hash(input.password));
  }
  const [{ token, session }, deviceKey] = await Promise.all([
    startSession(deps, user.userId, client),
    user.deviceKey ?? deps.users.ensureDeviceKey(user.userId, newDeviceKey()),
  ]);
  return {
    account: accountView(user),
    sessionToken: token,
    session,
    ...(deviceKey ? { deviceToken: signDeviceToken(deviceKey, user.userId, now, device) } : {}),
  };
}
