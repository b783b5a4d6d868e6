import { ConflictError, type BackgroundTasks, type MailMessage, type Mailer, type MailSuppression, type MailSuppressionRepository, type SuppressionReason, type OneTimeToken, type PasswordHasher, type Session, type SessionRepository, type TokenOf, type TokenPurpose, type TokenRepository, type UserAccount, type UserRepository, type Profile, DependencyError } from "../../src";
import { defaultAccountSettings, runAccountMailTask, type AccountDeps, type AccountIds, type AccountMailTask } from "../../src/accounts";
import { defaultRateRules } from "../../src/limits/rate-rules";
import { CountingRateLimiter, fixedClock } from "../support/fakes";

/** In-memory ports with the contracts of the DynamoDB adapters. */
export class MemoryUsers implements UserRepository {
  readonly byId = new Map<string, UserAccount>();
  readonly byEmail = new Map<string, string>();
  async findByEmail(email: string) {
    const id = this.byEmail.get(email);
    return id ? this.get(id) : undefined;
  }
  async get(userId: string) {
    const u = this.byId.get(userId);
    return u ? structuredClone(u) : undefined;
  }
  async create(user: UserAccount) {
    if (this.byEmail.has(user.email) || this.byId.has(user.userId)) throw new ConflictError("already_exists", "taken");
    this.byId.set(user.userId, structuredClone(user));
    this.byEmail.set(user.email, user.userId);
  }
  async markVerified(userId: string) {
    const u = this.byId.get(userId);
    if (u) u.emailVerified = true;
  }
  async updateProfile(userId: string, profile: Profile) {
    const u = this.byId.get(userId);
    if (!u) return undefined;
    u.displayName = profile.displayName;
    if (profile.organization) u.organization = profile.organization;
    else delete u.organization;
    return structuredClone(u);
  }
  async setPasswordHash(userId: string, passwordHash: string, options: { changedAt?: string; verified?: boolean } = {}) {
    const u = this.byId.get(userId);
    if (!u) return;
    u.passwordHash = passwordHash;
    if (options.changedAt) u.passwordChangedAt = options.changedAt;
    if (options.verified) u.emailVerified = true;
  }
  async ensureDeviceKey(userId: string, candidate: string) {
    const u = this.byId.get(userId);
    if (!u) return undefined;
    u.deviceKey ??= candidate;
    return u.deviceKey;
  }
}

export class MemorySessions implements SessionRepository {
  readonly items = new Map<string, Session>();
  touches = 0;
  private key = (u: string, s: string) => `${u}/${s}`;
  async create(session: Session) {
    this.items.set(this.key(session.userId, session.sessionId), structuredClone(session));
  }
  async get(userId: string, sessionId: string) {
    const s = this.items.get(this.key(userId, sessionId));
    return s ? structuredClone(s) : undefined;
  }
  async touch(userId: string, sessionId: string, lastSeenAt: string, idleExpiresAt: number) {
    this.touches++;
    const s = this.items.get(this.key(userId, sessionId));
    if (s) Object.assign(s, { lastSeenAt, idleExpiresAt });
  }
  async delete(userId: string, sessionId: string) {
    return this.items.delete(this.key(userId, sessionId));
  }
  async list(userId: string) {
    return [...this.items.values()].filter((s) => s.userId === userId).map((s) => structuredClone(s));
  }
  async deleteAll(userId: string, keep?: string) {
    for (const s of await this.list(userId)) if (s.sessionId !== keep) await this.delete(userId, s.sessionId);
  }
}

export class MemoryTokens implements TokenRepository {
  readonly items = new Map<string, OneTimeToken>();
  async create(token: OneTimeToken) {
    this.items.set(token.tokenHash, structuredClone(token));
  }
  async consume<P extends TokenPurpose>(tokenHash: string, purpose: P | readonly P[], nowSeconds: number) {
    const t = this.items.get(tokenHash);
    const purposes: readonly TokenPurpose[] = typeof purpose === "string" ? [purpose] : purpose;
    if (!t || !purposes.includes(t.purpose) || t.expiresAt <= nowSeconds) return undefined;
    this.items.delete(tokenHash);
    return t as TokenOf<P>;
  }
}

/**
 * A fast stand-in for scrypt with the same contract: `fake:v<version>:<password>`. Records every
 * verify, so tests can see that unknown addresses are verified against a dummy too.
 */
export class FakeHasher implements PasswordHasher {
  verifies: (string | undefined)[] = [];
  hashes = 0;
  constructor(public version = 2) {}
  async hash(password: string) {
    this.hashes++;
    return `fake:v${this.version}:${password.normalize("NFKC")}`;
  }
  async verify(password: string, stored: string | undefined) {
    this.verifies.push(stored);
    const m = stored ? /^fake:v(\d+):(.*)$/s.exec(stored) : null;
    const valid = !!m && m[2] === password.normalize("NFKC");
    return { valid, needsRehash: valid && Number(m![1]) < this.version };
  }
}

/** Suppressed addresses in memory, with the DynamoDB adapter's contract (first `since` kept). */
export class MemorySuppressions implements MailSuppressionRepository {
  readonly items = new Map<string, MailSuppression>();
  async get(email: string) {
    const s = this.items.get(email);
    return s ? { ...s } : undefined;
  }
  async record(email: string, reason: SuppressionReason, at: string) {
    const old = this.items.get(email);
    this.items.set(email, { email, reason, since: old?.since ?? at, lastEventAt: at });
  }
}

export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failing = false;
  async send(message: MailMessage) {
    if (this.failing) throw new DependencyError("mail", "SMTP delivery failed (ECONNREFUSED)");
    this.sent.push(message);
  }
  to(address: string) {
    return this.sent.filter((m) => m.to === address);
  }
}

/** Deterministic ids; secrets are 43 base64url characters like the real ones. */
export function accountIds(): AccountIds {
  let n = 0;
  const next = () => String(++n).padStart(4, "0");
  return {
    userId: () => `usr_${next()}`,
    sessionId: () => `ses_${next()}`,
    secret: () => `S${next()}`.padEnd(43, "x"),
  };
}

export function accountWorld(overrides: Partial<AccountDeps> = {}) {
  const clock = fixedClock("2026-11-21T12:00:00.000Z");
  const users = new MemoryUsers();
  const sessions = new MemorySessions();
  const tokens = new MemoryTokens();
  const hasher = new FakeHasher();
  const mailer = new RecordingMailer();
  const suppressions = new MemorySuppressions();
  // The default numbers of core's limits/rate-rules.ts.
  const limiters = {
    signIn: new CountingRateLimiter(defaultRateRules.signIn.limit),
    signInFailures: new CountingRateLimiter(defaultRateRules.signInFailures.limit),
    signInDevice: new CountingRateLimiter(defaultRateRules.signInDevice.limit),
    signInCeiling: new CountingRateLimiter(defaultRateRules.signInCeiling.limit),
    mailPerRecipient: new CountingRateLimiter(defaultRateRules.mailPerRecipient.limit),
    mailPerClient: new CountingRateLimiter(defaultRateRules.mailPerClient.limit),
  };
  const background = new InlineBackground((task) => runAccountMailTask(deps, task));
  const deps: AccountDeps = {
    users,
    sessions,
    tokens,
    hasher,
    mailer,
    suppressions,
    limiters,
    background,
    clock,
    ids: accountIds(),
    settings: defaultAccountSettings,
    isCommonPassword: async (p) => ["password1234", "qwerty123456"].includes(p.toLowerCase()),
    ...overrides,
  };
  return { deps, clock, users, sessions, tokens, hasher, mailer, suppressions, limiters, background };
}

/**
 * Runs each task as soon as it is scheduled, as the local stack does right after the answer, and
 * keeps what a task threw (on AWS: a retried, then dead-lettered invocation) instead of failing the request.
 */
export class InlineBackground implements BackgroundTasks<AccountMailTask> {
  readonly tasks: AccountMailTask[] = [];
  readonly failures: unknown[] = [];
  constructor(private readonly run: (task: AccountMailTask) => Promise<void>) {}
  async schedule(task: AccountMailTask) {
    this.tasks.push(task);
    await this.run(task).catch((error: unknown) => this.failures.push(error));
  }
}

export const client = { ip: "203.0.113.7", userAgent: "Vitest" };
export const links = { publicBaseUrl: "https://hangar.example" };
export const PASSWORD = "correct horse battery";

/** The token in the last mail's link to `page`. */
export function tokenFrom(mail: MailMessage | undefined, page: "verify-email" | "reset-password"): string {
  const m = mail ? new RegExp(`/${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text) : null;
  if (!m) throw new Error(`no ${page} link in ${mail?.text}`);
  return m[1]!;
}
