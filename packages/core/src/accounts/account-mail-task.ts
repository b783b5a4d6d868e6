import { issueToken, type AccountDeps } from "./account-deps";
import { accountExistsMail, passwordResetMail, resetLink, verificationMail, verifyLink } from "./mail/account-mails";
import { sendMail } from "./send-mail";
import { DependencyError } from "../errors/domain-errors";

/**
 * The mail side of sign-up, resend and reset, handed to the background for every address
 * (issue 17, M1): the request does the same work whatever the address, and only this step,
 * after the answer, finds out whether the address has an account. `publicBaseUrl` is the base
 * the request's links would have used.
 */
export type AccountMailTask =
  | { kind: "sign-up"; email: string; publicBaseUrl: string; /** Set when this request created the account. */ userId?: string }
  | { kind: "password-reset"; email: string; publicBaseUrl: string }
  | { kind: "resend-verification"; email: string; publicBaseUrl: string };

const KINDS = new Set(["sign-up", "password-reset", "resend-verification"]);
const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;

/** A well-formed task, or undefined: what arrives in a background invocation is checked like any input. */
export function accountMailTaskOf(raw: unknown): AccountMailTask | undefined {
  const t = raw as Partial<Record<string, unknown>> | null;
  if (!t || typeof t.kind !== "string" || !KINDS.has(t.kind) || typeof t.email !== "string" || t.email.length > 254) return undefined;
  if (typeof t.publicBaseUrl !== "string" || !/^https?:\/\/[^\s/]+$/.test(t.publicBaseUrl)) return undefined;
  if (t.userId !== undefined && (t.kind !== "sign-up" || typeof t.userId !== "string" || !USER_ID.test(t.userId))) return undefined;
  const base = { email: t.email, publicBaseUrl: t.publicBaseUrl };
  if (t.kind === "sign-up") return { kind: "sign-up", ...base, ...(typeof t.userId === "string" ? { userId: t.userId } : {}) };
  return { kind: t.kind as "password-reset" | "resend-verification", ...base };
}

/** A mail that could not be sent fails the step, so the platform retries it (and keeps it when it keeps failing). */
async function send(deps: AccountDeps, mail: Parameters<typeof sendMail>[1], what: string): Promise<void> {
  // "suppressed" is not a failure: SES reported the address, nothing more is to be done.
  if ((await sendMail(deps, mail)) === "failed") throw new DependencyError("mail", `The ${what} mail could not be sent`);
}

/**
 * The background step: looks the address up, writes a token where one is due, sends the mail.
 * An unknown address (reset, resend) or a verified one (resend) gets nothing.
 */
export async function runAccountMailTask(deps: AccountDeps, task: AccountMailTask): Promise<void> {
  const base = task.publicBaseUrl;
  if (task.kind === "sign-up") {
    if (task.userId) {
      const token = await issueToken(deps, task.userId, "verify_email");
      const hours = Math.round(deps.settings.verifyTokenTtlSeconds / 3600);
      return send(deps, verificationMail(task.email, verifyLink(base, token), hours), "verification");
    }
    return send(deps, accountExistsMail(task.email, { signIn: `${base}/login`, forgotPassword: `${base}/forgot-password` }), "account notice");
  }
  const user = await deps.users.findByEmail(task.email);
  if (!user) return;
  if (task.kind === "password-reset") {
    const token = await issueToken(deps, user.userId, "reset_password");
    const minutes = Math.round(deps.settings.resetTokenTtlSeconds / 60);
    return send(deps, passwordResetMail(user.email, resetLink(base, token), minutes), "password reset");
  }
  if (user.emailVerified) return;
  const token = await issueToken(deps, user.userId, "verify_email");
  const hours = Math.round(deps.settings.verifyTokenTtlSeconds / 3600);
  return send(deps, verificationMail(user.email, verifyLink(base, token), hours), "verification");
}

