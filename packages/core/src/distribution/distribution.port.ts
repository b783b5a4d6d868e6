import type { RecipientStatus } from "./distribution.schema";

/** Who sent a build to testers: a member from the dashboard, or an API key from CI (complete). */
export type DistributionCreator = { userId: string; email: string | null } | { clientId: string };

/** One distribution: a send of a build to groups and addresses (docs/testers.md). */
export interface DistributionRecord {
  distributionId: string;
  fileId: string;
  projectId: string;
  workspaceId: string;
  /** Snapshot of the workspace's name for the mail's "why you got this" (the sender reads no workspace). */
  workspaceName: string;
  groups: { groupId: string; name: string }[];
  testers: string[];
  message: string | null;
  notify: boolean;
  recipients: number;
  createdAt: string;
  createdBy: DistributionCreator;
}

/** One tester's copy of one build (at most one per tester per build). */
export interface Recipient {
  email: string;
  fileId: string;
  projectId: string;
  workspaceId: string;
  /** The first distribution that named this tester for this build. */
  distributionId: string;
  createdAt: string;
  status: RecipientStatus;
  sentAt?: string;
  /** The names of the groups that brought the tester in (the mail's "why"); empty when named by address. */
  viaGroups: string[];
  /** While `sending`: the ISO time the sender's claim lapses and another attempt may take it over. */
  leaseUntil?: string;
  /** Send attempts so far (claims). */
  attempts: number;
}

/** A recipient about to be written; `status` is queued, or why no mail goes (silent, unsubscribed, suppressed, capped). */
export type NewRecipient = Omit<Recipient, "sentAt" | "leaseUntil" | "attempts">;

/**
 * Storage of distributions, recipients, personal install links, unsubscribes and a project's
 * default groups (one table; docs/data-model.md).
 */
export interface DistributionStore {
  /**
   * Writes each recipient with a condition (no item yet for this tester and build) and, for each
   * one written, its personal install link item (`installLinkHashes` by address). Answers the
   * addresses that were new: a tester who already has this build is left as is.
   */
  addRecipients(recipients: readonly NewRecipient[], installLinkHashes: ReadonlyMap<string, string>): Promise<Set<string>>;
  /** The addresses of `emails` that already have a recipient item for this build, with its status (no write). */
  existingRecipients(fileId: string, emails: readonly string[]): Promise<Map<string, RecipientStatus>>;
  putDistribution(record: DistributionRecord): Promise<void>;
  getDistribution(fileId: string, distributionId: string): Promise<DistributionRecord | undefined>;
  listDistributions(fileId: string): Promise<DistributionRecord[]>;
  listRecipients(fileId: string): Promise<Recipient[]>;
  /** Of `emails`, those that unsubscribed from the project's build mail. */
  unsubscribed(projectId: string, emails: readonly string[]): Promise<Set<string>>;
  /** Of `emails`, those SES reported as bouncing or complaining (the production issue's suppression). */
  suppressed(emails: readonly string[]): Promise<Set<string>>;
  unsubscribe(projectId: string, email: string, at: string): Promise<void>;
  /**
   * queued → sending under a lease until `leaseUntil`, or a `sending` whose lease lapsed before
   * `now` taken over; undefined when the recipient is in no such state (sent, or claimed by a live lease).
   */
  claim(fileId: string, email: string, now: string, leaseUntil: string): Promise<Recipient | undefined>;
  /** sending → `status` (sent, failed, unsubscribed, suppressed) when the lease is still `leaseUntil` (ours). */
  settle(fileId: string, email: string, leaseUntil: string, status: RecipientStatus, at: string): Promise<boolean>;
  /** sending → queued (a send failed and will be retried by the queue). */
  release(fileId: string, email: string, leaseUntil: string): Promise<void>;
  defaultGroups(workspaceId: string, projectId: string): Promise<string[]>;
  setDefaultGroups(workspaceId: string, projectId: string, groupIds: readonly string[]): Promise<boolean>;
}

/**
 * One build mail to send: the recipient's keys (everything else is read when it is sent) and the
 * bases of the links the request would have used (as the accounts' mail tasks carry theirs: the
 * sender has no request to read a host from).
 */
export interface BuildMailJob {
  fileId: string;
  email: string;
  publicBaseUrl: string;
  shareBaseUrl: string;
}

/**
 * The build-mail queue: an SQS queue on AWS (consumed by the distribution-mail function at SES's
 * rate), an in-process worker on the local stack. Delivery may repeat a job; the recipient's
 * claim makes a repeat harmless (deliver-build-mail.ts).
 */
export interface MailQueue {
  enqueue(jobs: readonly BuildMailJob[]): Promise<void>;
}
