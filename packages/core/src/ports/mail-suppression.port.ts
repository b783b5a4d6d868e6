/** Why mail to an address stopped: SES reported a permanent bounce, or the recipient marked a mail as spam. */
export type SuppressionReason = "bounce" | "complaint";

/** An address Hangar no longer mails. Stored in the one table by the normalized address. */
export interface MailSuppression {
  email: string;
  reason: SuppressionReason;
  /** When the first bounce or complaint happened (what the account page shows). */
  since: string;
  /** The latest one. */
  lastEventAt: string;
}

export interface MailSuppressionRepository {
  get(email: string): Promise<MailSuppression | undefined>;
  /** Records one event; `since` keeps the first event's time. Idempotent (SNS may deliver twice). */
  record(email: string, reason: SuppressionReason, at: string): Promise<void>;
}
