import type { ClientInfo } from "../accounts/account-deps";
import type {
  AuditLog,
  Clock,
  InvitationRepository,
  Mailer,
  MailSuppression,
  MailSuppressionRepository,
  RateLimiter,
  UserRepository,
  WorkspaceCatalog,
} from "../ports";

/** The invitations' rules of the one limiter, by name (numbers: core's limits/rate-rules.ts). */
export interface InvitationLimiters {
  /** Invitation mails (new and re-sent) per workspace. */
  perWorkspace: RateLimiter;
  /** Invitation mails (new and re-sent) per inviting member, whatever the workspace. */
  perInviter: RateLimiter;
  /** Previews of a link (the accept page, before sign-in) per client. */
  preview: RateLimiter;
}

export interface InvitationSettings {
  /** How long a mailed link works: 7 days. */
  ttlSeconds: number;
  /** Pending (unexpired) invitations per workspace (MAX_PENDING_INVITATIONS). */
  maxPending: number;
}

/** The random values of the invitations, injectable so tests can pin them. */
export interface InvitationIds {
  /** `inv_` + 16 base62. */
  invitationId(): string;
  /** 32 random bytes, base64url (43 characters): the mailed token. */
  secret(): string;
}

export interface InvitationDeps {
  invitations: InvitationRepository;
  workspaces: Pick<WorkspaceCatalog, "membership" | "get">;
  users: Pick<UserRepository, "get" | "findByEmail">;
  mailer: Mailer;
  /** An address SES reported as bouncing or complaining gets no invitation either. */
  suppressions: Pick<MailSuppressionRepository, "get">;
  onMailSuppressed?: (mail: { subject: string }, suppression: MailSuppression) => void;
  /** Every change is recorded after it succeeded (record only: the invitations never read the log). */
  audit: Pick<AuditLog, "record">;
  limiters: InvitationLimiters;
  clock: Clock;
  ids: InvitationIds;
  settings: InvitationSettings;
}

/** Where the mail's link points: the dashboard's public origin. */
export interface InvitationLinks {
  publicBaseUrl: string;
}

/** The preview is asked for without a session: the client is all there is to count. */
export type PreviewClient = ClientInfo;
