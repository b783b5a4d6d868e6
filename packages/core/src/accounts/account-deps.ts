import { createHash } from "node:crypto";
import { ValidationError } from "../errors/domain-errors";
import { hashSecret } from "../ids/random-ids";
import type {
  BackgroundTasks,
  Clock,
  Mailer,
  MailSuppression,
  MailSuppressionRepository,
  OneTimeToken,
  PasswordHasher,
  RateLimitDecision,
  RateLimiter,
  SessionRepository,
  AccountTokenPurpose,
  TokenRepository,
  UserAccount,
  UserRepository,
} from "../ports";
import type { AccountMailTask } from "./account-mail-task";
import type { AccountIds } from "./account-ids";
import type { AccountSettings } from "./account-settings";
import type { AccountView } from "./account.schema";
import { TooManyAttemptsError } from "./account-errors";
import { isCommonPassword } from "./passwords/common-passwords";

/** The accounts' rules of the one limiter, by name (numbers: core's limits/rate-rules.ts). */
export interface AccountLimiters {
  /** Sign-in attempts per client. */
  signIn: RateLimiter;
  /** Failed sign-ins per account and client; wrong current passwords per session. */
  signInFailures: RateLimiter;
  /** Failed sign-ins per device cookie. */
  signInDevice: RateLimiter;
  /** Sign-in attempts per account from browsers without its device cookie. */
  signInCeiling: RateLimiter;
  mailPerRecipient: RateLimiter;
  mailPerClient: RateLimiter;
}

export interface AccountDeps {
  users: UserRepository;
  sessions: SessionRepository;
  tokens: TokenRepository;
  hasher: PasswordHasher;
  mailer: Mailer;
  /** Checked before every mail: an address SES reported as bouncing or complaining gets none. */
  suppressions: Pick<MailSuppressionRepository, "get">;
  /** Told when a mail was not sent to a suppressed address (the functions log it). */
  onMailSuppressed?: (mail: { subject: string }, suppression: MailSuppression) => void;
  limiters: AccountLimiters;
  /** Where the mail side of sign-up, resend and reset runs: after the answer (account-mail-task.ts). */
  background: BackgroundTasks<AccountMailTask>;
  clock: Clock;
  ids: AccountIds;
  settings: AccountSettings;
  /** Injectable for tests; defaults to the zxcvbn-ts list. */
  isCommonPassword?: (password: string) => Promise<boolean>;
}

/** Who is asking, as the HTTP layer saw it: for rate limits and the session list. */
export interface ClientInfo {
  /** Client address (IPv6 reduced to its /64 by the HTTP layer). */
  ip: string;
  userAgent?: string;
}

/** Where links in mails point: the dashboard's public origin. */
export interface AccountLinks {
  publicBaseUrl: string;
}

export const nowSeconds = (clock: Clock) => Math.floor(clock.now().getTime() / 1000);

/**
 * Rate-limit subjects never hold an e-mail address in clear: counters are keyed by a hash of
 * the normalized address (they live in the table until their TTL).
 */
export const addressSubject = (prefix: string, email: string) =>
  `${prefix}:${createHash("sha256").update(email, "utf8").digest("hex").slice(0, 32)}`;

/** Counts one attempt against every limiter; the first refusal becomes a 429 with Retry-After. */
export async function enforce(deps: Pick<AccountDeps, "clock">, checks: [RateLimiter, string][]): Promise<RateLimitDecision[]> {
  const now = deps.clock.now();
  const decisions = await Promise.all(checks.map(([limiter, subject]) => limiter.hit(subject, now)));
  const refused = decisions.filter((d) => !d.allowed).sort((a, b) => b.state.resetAt - a.state.resetAt)[0];
  if (refused) {
    const retryAfter = Math.max(1, refused.state.resetAt - Math.floor(now.getTime() / 1000));
    throw new TooManyAttemptsError(refused.state, retryAfter);
  }
  return decisions;
}

/** Sign-up, resend and reset requests: per address and per client, so nobody can flood an inbox. */
export function enforceMailLimits(deps: AccountDeps, email: string, client: ClientInfo) {
  return enforce(deps, [
    [deps.limiters.mailPerRecipient, addressSubject("mail", email)],
    [deps.limiters.mailPerClient, client.ip],
  ]);
}

/** The subject of an account's sign-in counters: a hash of its address, known before any lookup. */
export const accountSubject = (email: string) => addressSubject("account", email);

/** Refuses a new password found on the common-password list; the password is never echoed. */
export async function assertNotCommon(deps: AccountDeps, password: string, field: string): Promise<void> {
  const common = await (deps.isCommonPassword ?? isCommonPassword)(password);
  if (common) {
    throw new ValidationError([{ field, message: "is too common: it appears in lists of leaked passwords. Choose another" }]);
  }
}

/** Mints a single-use token: the link carries it, the table only its SHA-256. */
export async function issueToken(deps: AccountDeps, userId: string, purpose: AccountTokenPurpose): Promise<string> {
  const token = deps.ids.secret();
  const now = deps.clock.now();
  const ttl = purpose === "verify_email" ? deps.settings.verifyTokenTtlSeconds : deps.settings.resetTokenTtlSeconds;
  const record: OneTimeToken = {
    tokenHash: hashSecret(token),
    purpose,
    userId,
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + ttl,
  };
  await deps.tokens.create(record);
  return token;
}

export function accountView(user: UserAccount, suppression?: MailSuppression): AccountView {
  return {
    userId: user.userId,
    email: user.email,
    emailVerified: user.emailVerified,
    ...(user.displayName ? { displayName: user.displayName } : {}),
    ...(user.organization ? { organization: user.organization } : {}),
    createdAt: user.createdAt,
    ...(suppression ? { mailSuppressed: { reason: suppression.reason, since: suppression.since } } : {}),
  };
}
