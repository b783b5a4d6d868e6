import { sendMail } from "../accounts/send-mail";
import { DependencyError } from "../errors/domain-errors";
import { hashSecret } from "../ids/random-ids";
import type { TesterToken } from "../ports";
import { testerJoinMail, testerSignInLink, testerSignInMail } from "./mail/tester-mails";
import type { TesterAccessDeps } from "./tester-access-deps";

/**
 * The mail side of a magic-link request and of a join request, handed to the background for
 * every address (as accounts' account-mail-task.ts does for sign-up and reset): the request does
 * the same work whatever the address (its limits, then this schedule), so neither its answer nor
 * its time can say whether the address is a tester. Only this step, after the answer, looks.
 */
export type TesterMailTask =
  | { kind: "tester-sign-in"; email: string; publicBaseUrl: string }
  | { kind: "tester-join"; email: string; publicBaseUrl: string; joinToken: string };

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A well-formed task, or undefined: what arrives in a background invocation is checked like any input. */
export function testerMailTaskOf(raw: unknown): TesterMailTask | undefined {
  const t = raw as Partial<Record<string, unknown>> | null;
  if (!t || typeof t.email !== "string" || t.email.length > 254 || !t.email.includes("@")) return undefined;
  if (typeof t.publicBaseUrl !== "string" || !/^https?:\/\/[^\s/]+$/.test(t.publicBaseUrl)) return undefined;
  const base = { email: t.email, publicBaseUrl: t.publicBaseUrl };
  if (t.kind === "tester-sign-in") return { kind: "tester-sign-in", ...base };
  if (t.kind === "tester-join" && typeof t.joinToken === "string" && TOKEN.test(t.joinToken)) return { kind: "tester-join", ...base, joinToken: t.joinToken };
  return undefined;
}

/** Mints a single-use tester token (15 minutes): the link carries it, the table only its SHA-256. */
async function issueTesterToken(deps: TesterAccessDeps, fields: Omit<TesterToken, "tokenHash" | "createdAt" | "expiresAt">): Promise<string> {
  const token = deps.secret();
  const now = deps.clock.now();
  await deps.tokens.create({
    ...fields,
    tokenHash: hashSecret(token),
    createdAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + deps.settings.tokenTtlSeconds,
  });
  return token;
}

/** A mail that could not be sent fails the step, so the platform retries it. */
async function send(deps: TesterAccessDeps, mail: Parameters<typeof sendMail>[1], what: string): Promise<void> {
  if ((await sendMail(deps, mail)) === "failed") throw new DependencyError("mail", `The ${what} mail could not be sent`);
}

/**
 * The background step. Sign-in: a magic link only to a known tester (in a group of any workspace,
 * or sent a build); an unknown address gets nothing. Join: a confirmation link only while the
 * invite link lets people in (a revoked, expired or full link ends here without a mail).
 */
export async function runTesterMailTask(deps: TesterAccessDeps, task: TesterMailTask): Promise<void> {
  const minutes = Math.round(deps.settings.tokenTtlSeconds / 60);
  if (task.kind === "tester-sign-in") {
    if (!(await deps.testers.isKnown(task.email))) return;
    const token = await issueTesterToken(deps, { purpose: "tester_sign_in", email: task.email });
    return send(deps, testerSignInMail(task.email, testerSignInLink(task.publicBaseUrl, token), minutes), "tester sign-in");
  }
  const link = await deps.joinLinks.preview(task.joinToken);
  if (!link?.open) return;
  const token = await issueTesterToken(deps, {
    purpose: "tester_join",
    email: task.email,
    groupId: link.groupId,
    ...(link.linkId ? { linkId: link.linkId } : {}),
    joinToken: task.joinToken,
  });
  return send(deps, testerJoinMail(task.email, testerSignInLink(task.publicBaseUrl, token), minutes, link), "tester join");
}
