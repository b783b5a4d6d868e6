import { sendMail } from "../accounts/send-mail";
import { DependencyError } from "../errors/domain-errors";
import type { Clock, FileRecord, MailSuppression, Mailer, StageSecret } from "../ports";
import { installLinkToken, installLinkUrl } from "../testers/install-link";
import { buildMail } from "./build-mail";
import type { BuildMailJob, DistributionStore } from "./distribution.port";
import { unsubscribeToken, unsubscribeUrl } from "./unsubscribe";

export interface BuildMailSettings {
  /** How long a claim holds a recipient: longer than one send can take (SES ~0.1 s, SMTP bounded to 10 s). */
  leaseSeconds: number;
  /** Claims after which a recipient whose mail keeps failing is marked `failed` instead of retried. */
  maxAttempts: number;
}

export const defaultBuildMailSettings: BuildMailSettings = { leaseSeconds: 60, maxAttempts: 5 };

export interface BuildMailDeps {
  distributions: DistributionStore;
  files: { get(fileId: string): Promise<FileRecord | undefined> };
  mailer: Mailer;
  suppressions: { get(email: string): Promise<MailSuppression | undefined> };
  installLinkSecret: StageSecret;
  unsubscribeSecret: StageSecret;
  clock: Clock;
  settings: BuildMailSettings;
}

const BASE = /^https?:\/\/[^\s/]+$/;
const FILE_ID = /^[A-Za-z0-9_]{1,64}$/;

/** A well-formed job, or undefined: what arrives from a queue is checked like any input. */
export function buildMailJobOf(raw: unknown): BuildMailJob | undefined {
  const j = raw as Partial<Record<string, unknown>> | null;
  if (!j || typeof j.fileId !== "string" || !FILE_ID.test(j.fileId) || typeof j.email !== "string" || j.email.length > 254 || !j.email.includes("@")) return undefined;
  if (typeof j.publicBaseUrl !== "string" || !BASE.test(j.publicBaseUrl) || typeof j.shareBaseUrl !== "string" || !BASE.test(j.shareBaseUrl)) return undefined;
  return { fileId: j.fileId, email: j.email, publicBaseUrl: j.publicBaseUrl, shareBaseUrl: j.shareBaseUrl };
}

/** What became of one job: the queue acknowledges all of these; a thrown DependencyError is retried. */
export type DeliveryOutcome = "sent" | "skipped" | "suppressed" | "unsubscribed" | "failed" | "gone";

/**
 * Sends one build mail, exactly once as far as a mail service allows (docs/testers.md):
 *
 * 1. claim: the recipient goes `queued` → `sending` with a lease, in one conditional update. A
 *    second message for the same recipient (a queue's redelivery, a re-queue by a later
 *    distribution) finds it `sending` under a live lease, or `sent`, and does nothing.
 * 2. send, then settle: `sending` → `sent` under the same lease.
 *
 * A send that fails (SMTP/SES down) releases the claim (back to `queued`) and throws, so the queue
 * retries it; after `maxAttempts` claims it is `failed`. A worker that dies between the two
 * steps leaves `sending` with a lease that lapses; the retry re-claims only a lapsed lease. The
 * one window left: a crash after the mail service accepted the mail and before `sent` was
 * written sends it again on the retry (at most once more, after the lease).
 */
export async function deliverBuildMail(deps: BuildMailDeps, job: BuildMailJob): Promise<DeliveryOutcome> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + deps.settings.leaseSeconds * 1000).toISOString();
  const recipient = await deps.distributions.claim(job.fileId, job.email, now.toISOString(), leaseUntil);
  if (!recipient) return "skipped";
  const settle = async (status: "sent" | "failed" | "suppressed" | "unsubscribed") => {
    await deps.distributions.settle(job.fileId, job.email, leaseUntil, status, deps.clock.now().toISOString());
  };
  if (recipient.attempts > deps.settings.maxAttempts) {
    await settle("failed");
    return "failed";
  }
  const [file, distribution, unsubscribed, installSecret, unsubscribeSecret] = await Promise.all([
    deps.files.get(job.fileId),
    deps.distributions.getDistribution(job.fileId, recipient.distributionId),
    deps.distributions.unsubscribed(recipient.projectId, [job.email]),
    deps.installLinkSecret.bytes(),
    deps.unsubscribeSecret.bytes(),
  ]);
  // Deleted since it was queued: nothing to install, nothing to say.
  if (!file || file.status !== "completed" || !distribution) {
    await settle("failed");
    return "gone";
  }
  if (unsubscribed.has(job.email)) {
    await settle("unsubscribed");
    return "unsubscribed";
  }
  const meta: Record<string, unknown> = { ...file.metadata };
  const str = (v: unknown) => (typeof v === "string" && v.length > 0 ? v : null);
  const mail = buildMail({
    to: job.email,
    appName: str(meta.appName) ?? file.fileName,
    version: str(meta.version),
    build: str(meta.buildNumber),
    platform: str(meta.platform),
    releaseNotes: file.buildContext?.releaseNotes ?? null,
    message: distribution.message,
    iconUrl: file.iconKey && file.userKey ? `${job.shareBaseUrl}/share/${file.userKey}/icon.png` : null,
    installUrl: installLinkUrl(job.shareBaseUrl, installLinkToken(installSecret, job.fileId, job.email)),
    portalUrl: `${job.publicBaseUrl}/apps`,
    unsubscribeUrl: unsubscribeUrl(
      job.publicBaseUrl,
      unsubscribeToken(unsubscribeSecret, { workspaceId: recipient.workspaceId, projectId: recipient.projectId, email: job.email }),
    ),
    workspaceName: distribution.workspaceName,
    viaGroups: recipient.viaGroups,
  });
  const outcome = await sendMail(deps, mail);
  if (outcome === "failed") {
    await deps.distributions.release(job.fileId, job.email, leaseUntil);
    throw new DependencyError("mail", "The build mail could not be sent; the queue retries it");
  }
  await settle(outcome);
  return outcome;
}
