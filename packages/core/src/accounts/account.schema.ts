// zod/mini, as everywhere in core: a fifth of zod's weight in the function's cold start.
import * as z from "zod/mini";
import { domainToASCII } from "node:url";
import { emailProblem, GivenPassword, MAX_EMAIL_LENGTH, NewPassword } from "./account-input.schema";
import { isSessionId } from "./sessions/session-token";

// The rules that need no Node module live in account-input.schema.ts (the dashboard imports them);
// what the API shows of an account, in account-views.ts. Both are re-exported here, as before.
export * from "./account-input.schema";
export type { AccountView, SessionView } from "./account-views";

/** Trimmed, lower-cased, Unicode domain turned to ASCII: the form that is stored and compared. */
export function normalizeEmail(raw: string): string {
  const trimmed = raw.trim().toLowerCase();
  // Bound before any further work: a megabyte of input costs nothing more than its length check.
  if (trimmed.length > MAX_EMAIL_LENGTH * 4) return trimmed;
  const at = trimmed.lastIndexOf("@");
  if (at < 0) return trimmed;
  const domain = trimmed.slice(at + 1);
  // ASCII domains pass through; domainToASCII answers "" for what is no valid domain name.
  const ascii = /^[\x00-\x7f]*$/.test(domain) ? domain : domainToASCII(domain) || domain;
  return `${trimmed.slice(0, at)}@${ascii}`;
}

export const Email = z.pipe(
  z.string().check(z.maxLength(MAX_EMAIL_LENGTH * 4, `must be at most ${MAX_EMAIL_LENGTH} characters`)),
  z.transform((s) => normalizeEmail(s)),
).check(
  z.refine((e) => emailProblem(e) === undefined, {
    error: (issue) => emailProblem(String(issue.input)) ?? "is invalid",
  }),
);

export const SignUp = z.object({ email: Email, password: NewPassword });
export type SignUp = z.infer<typeof SignUp>;

export const SignIn = z.object({ email: Email, password: GivenPassword });
export type SignIn = z.infer<typeof SignIn>;

export const EmailOnly = z.object({ email: Email });
export type EmailOnly = z.infer<typeof EmailOnly>;

/** `/api/account/sessions/{sessionId}`: an id this service could have issued, checked before any lookup. */
export const SessionRef = z.object({ sessionId: z.string().check(z.refine((id) => isSessionId(id), "is not a session id")) });
export type SessionRef = z.infer<typeof SessionRef>;
