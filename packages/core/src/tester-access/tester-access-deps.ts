import type { ClientInfo } from "../accounts/account-deps";
import type { EventPublisher } from "../ports/events.port";
import type { BackgroundTasks, Clock, Mailer, MailSuppression, MailSuppressionRepository, RateLimiter, StageSecret, TokenRepository, UrlSigner } from "../ports";
import type { FileRecord } from "../ports";
import type { JoinedGroup } from "./tester-access.schema";
import type { TesterMailTask } from "./tester-mail-task";
import type { BuildVerdictDeps } from "../devices/build-verdicts";

export type { ClientInfo };

/** A tester session as stored: `TESTER#<email>` / `SESSION#<sha256(token)>` (docs/data-model.md). */
export interface TesterSessionRecord {
  /** Hex SHA-256 of the cookie's token. */
  sessionId: string;
  email: string;
  createdAt: string;
  /** ISO; the item's `ttl` is the same instant in epoch seconds. */
  expiresAt: string;
}

export interface TesterSessionStore {
  create(session: TesterSessionRecord): Promise<void>;
  get(email: string, sessionId: string): Promise<TesterSessionRecord | undefined>;
  delete(email: string, sessionId: string): Promise<void>;
}

/** Whether an address is a tester anywhere: in a group of any workspace, or sent a build (gsi1 `TESTER#<email>`). */
export interface KnownTesters {
  isKnown(email: string): Promise<boolean>;
}

/** One build sent to the tester with what the portal shows of it, as the store joined it. */
export interface SentBuild {
  /** The recipient item's time: when the build was first sent to this tester. */
  sentAt: string;
  file: FileRecord;
  project: { projectId: string; name: string; status: string };
  workspace: { workspaceId: string; name: string };
  /** The message of the distribution that first sent it. */
  message: string | null;
  /** The build's share link expiry (ISO), when its owner set one. */
  linkExpiresAt?: string;
}

/**
 * The builds sent to a tester (recipient items on gsi1 `TESTER#<email>`, `BUILD#…`, newest first),
 * joined with their file, project, workspace and distribution. A recipient whose file, project or
 * workspace item is gone is left out by the store.
 */
export interface TesterPortalReader {
  sentBuilds(email: string, projectId?: string): Promise<SentBuild[]>;
}

/** A group's invite link as the join page sees it (implemented by tester-groups). */
export interface JoinLinkView {
  groupId: string;
  /** The link's id (a replaced link has a new one): recorded on the join confirmation's token. */
  linkId?: string;
  groupName: string;
  workspaceName: string;
  /** ISO, or null when the link does not expire. */
  expiresAt: string | null;
  /** False when it lets nobody in now (expired or full); a revoked or unknown link is undefined. */
  open: boolean;
}

/**
 * The invite links of tester groups, as tester access uses them: owned by tester-groups
 * (`previewJoinLink`, `joinGroupByLink`), handed in by the composition so this module does not
 * know how groups are stored.
 */
export interface JoinLinks {
  /** The link's group and state, or undefined when no link has this token (revoked, replaced, unknown). */
  preview(token: string): Promise<JoinLinkView | undefined>;
  /**
   * Adds the address to the link's group (`source: "joined"`, counted against the cap); an address
   * already in the group stays as it is. Throws JoinLinkGoneError when the link lets nobody in.
   */
  join(input: { token: string; email: string; now: Date }): Promise<JoinOutcome>;
}

/** What a join did: the group the session's answer names, and for the `tester.joined` event its workspace and whether the address is new there. */
export interface JoinOutcome extends JoinedGroup {
  workspaceId: string;
  /** False when the address was in the group already (a second click on the mail): no event then. */
  joined: boolean;
}

/** The rules of the one limiter tester access counts (numbers: core's limits/rate-rules.ts). */
export interface TesterLimiters {
  /** Magic-link requests per client. */
  signInPerClient: RateLimiter;
  /** Magic-link requests per address (sign-in and join together): nobody floods an inbox. */
  mailPerAddress: RateLimiter;
  /** Join requests and previews per client. */
  joinPerClient: RateLimiter;
  /** Join requests per invite link, from all clients together. */
  joinPerLink: RateLimiter;
}

export interface TesterAccessSettings {
  /** Life of a magic link (sign-in and join): 15 minutes. */
  tokenTtlSeconds: number;
  /** Life of a tester session: 30 days, not extended by use. */
  sessionTtlSeconds: number;
  /** Life of the presigned icon addresses in the portal's answers. */
  iconUrlSeconds: number;
}

export const defaultTesterAccessSettings: TesterAccessSettings = {
  tokenTtlSeconds: 15 * 60,
  sessionTtlSeconds: 30 * 24 * 3600,
  iconUrlSeconds: 3600,
};

export interface TesterAccessDeps {
  sessions: TesterSessionStore;
  tokens: TokenRepository;
  testers: KnownTesters;
  portal: TesterPortalReader;
  joinLinks: JoinLinks;
  mailer: Mailer;
  /** Checked before every mail (sendMail): an address SES reported gets none. */
  suppressions: Pick<MailSuppressionRepository, "get">;
  onMailSuppressed?: (mail: { subject: string }, suppression: MailSuppression) => void;
  limiters: TesterLimiters;
  /** Where the lookup and the mail of a sign-in or join request run: after the answer (tester-mail-task.ts). */
  background: BackgroundTasks<TesterMailTask>;
  signer: Pick<UrlSigner, "presignGet">;
  /** The stage secret named `install-link` (testers/install-link.ts). */
  installLinkSecret: StageSecret;
  /** The builds' device verdicts (devices/build-verdicts.ts); without it every verdict is `not-applicable`. */
  devices?: BuildVerdictDeps;
  /** Where `tester.joined` goes (docs/webhooks.md); absent: no event. */
  events?: EventPublisher | undefined;
  clock: Clock;
  /** 32 random bytes, base64url (43 characters): magic-link and session tokens. */
  secret: () => string;
  settings: TesterAccessSettings;
}
