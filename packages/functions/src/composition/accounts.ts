import {
  defaultAccountSettings,
  randomAccountIds,
  runAccountMailTask,
  ScryptPasswordHasher,
  type AccountDeps,
  type AccountMailTask,
} from "@hangar/core/accounts";
import type { MailMessage, Mailer } from "@hangar/core";
import { DynamoMailSuppressions, DynamoSessionRepository, DynamoTokenRepository, DynamoUserRepository } from "@hangar/core/dynamo";
import { logger } from "../observability/logger";
import { record } from "../observability/metrics";
import { backgroundTasks } from "./background";
import { once } from "./once";
import { getRuntime } from "./root";
import type { Settings } from "./settings.schema";

/** The sender when HANGAR_MAIL_FROM is unset (the local stack; a deployed stage sets it). */
export const DEFAULT_MAIL_FROM = "Hangar <no-reply@hangar.localhost>";

/**
 * SMTP when HANGAR_SMTP_URL is set (the local stack's MailDev, or any relay), SES otherwise.
 * Each adapter is imported on the first mail, so neither SDK is loaded for requests that send
 * none (sign-in, profile, sessions). The invitations function sends its mails through it too.
 */
export function lazyMailer(settings: Settings): Mailer {
  const from = settings.HANGAR_MAIL_FROM ?? DEFAULT_MAIL_FROM;
  const mailer = once(async (): Promise<Mailer> => {
    if (settings.HANGAR_SMTP_URL) {
      const { SmtpMailer } = await import("@hangar/core/mail-smtp");
      return new SmtpMailer(settings.HANGAR_SMTP_URL, from);
    }
    const { sesMailer } = await import("@hangar/core/mail-ses");
    return sesMailer({ region: settings.AWS_REGION, from, configurationSet: settings.HANGAR_SES_CONFIGURATION_SET });
  });
  return {
    send: async (message: MailMessage) => {
      await (await mailer()).send(message);
      record.mailSent();
    },
  };
}

/** The payload key of the accounts function's background invocations (composition/background.ts). */
export const ACCOUNT_MAIL_KEY = "hangarAccountMail";

/**
 * What only the accounts function needs, built on first use from the shared runtime (its
 * DynamoDB client and its limiter): users, sessions, tokens, the accounts' rate rules of
 * docs/accounts.md, the scrypt hasher, the mailer, the suppressed addresses it must skip and
 * the background step of the mails.
 */
export const accountDeps = once((): AccountDeps => {
  const { db, settings, clock, limits } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  const built: AccountDeps = {
    users: new DynamoUserRepository(db, table),
    sessions: new DynamoSessionRepository(db, table),
    tokens: new DynamoTokenRepository(db, table),
    hasher: new ScryptPasswordHasher(),
    mailer: lazyMailer(settings),
    suppressions: new DynamoMailSuppressions(db, table),
    // Never the address itself in the log: the account's own page says it bounced.
    onMailSuppressed: (mail, suppression) =>
      logger.warn("mail not sent: the address is suppressed", { subject: mail.subject, reason: suppression.reason, since: suppression.since }),
    limiters: {
      signIn: limits.rule("signIn"),
      signInFailures: limits.rule("signInFailures"),
      signInDevice: limits.rule("signInDevice"),
      signInCeiling: limits.rule("signInCeiling"),
      mailPerRecipient: limits.rule("mailPerRecipient"),
      mailPerClient: limits.rule("mailPerClient"),
    },
    background: backgroundTasks<AccountMailTask>(settings.AWS_LAMBDA_FUNCTION_NAME, ACCOUNT_MAIL_KEY, (task) => runAccountMailTask(built, task), (task) => ({ kind: task.kind })),
    clock,
    ids: randomAccountIds,
    settings: defaultAccountSettings,
  };
  return built;
});
