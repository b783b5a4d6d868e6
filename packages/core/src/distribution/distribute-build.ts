import { normalizeEmail } from "../accounts/account.schema";
import { emailProblem } from "../accounts/account-input.schema";
import { recordChange } from "../dashboard/audit-record";
import type { FileRef } from "../dashboard/dashboard.schema";
import { ownFile } from "../dashboard/files";
import { BuildNotCompletedError, ValidationError, type FieldIssue } from "../errors/domain-errors";
import type { AuditLog, Clock, FileRecord, ProjectCatalog, RateLimiter, StageSecret, TesterGroupDirectory, WorkspaceCatalog } from "../ports";
import type { EventPublisher } from "../ports/events.port";
import { installLinkHash, installLinkToken } from "../testers/install-link";
import { buildPayload, buildRouting, userActor } from "../webhooks/event-builders";
import type { EventActor } from "../webhooks/webhook-events";
import type { Actor } from "../workspaces/actor";
import { projectAccess, projectNotFound } from "../workspaces/project-access";
import { groupsNotFound } from "./distribution-errors";
import type { DistributionCreator, DistributionRecord, DistributionStore, MailQueue, NewRecipient } from "./distribution.port";
import type { DistributionAnswer, DistributeInput, RecipientStatus } from "./distribution.schema";

/**
 * Sending a build to testers (issue 20 item 3, docs/testers.md "Distribution and build mail").
 *
 * The request does the bookkeeping only and answers 202 at once: one `recipient` item per tester
 * per build, written with a condition so that a second distribution of the same build (another
 * group with the same person, a re-run of CI) mails nobody twice, each with its personal install
 * link item; then one queue message per new mail. The mails themselves go out at the sender's
 * rate from the queue (deliver-build-mail.ts), so 1,000 testers cost the request ~2,000 small
 * writes, not 1,000 SMTP/SES round trips.
 *
 * Rejected: sending from the request (API Gateway's 29 s end a 1,000-tester send at SES's 14/s),
 * and a queue message per distribution fanned out by the consumer (one poisoned address would
 * retry the whole list, and the answer could not say how many mails were new).
 */
export interface DistributionDeps {
  files: { get(fileId: string): Promise<FileRecord | undefined> };
  projects: Pick<ProjectCatalog, "workspaceOf" | "get">;
  workspaces: Pick<WorkspaceCatalog, "membership" | "get">;
  groups: TesterGroupDirectory;
  distributions: DistributionStore;
  queue: MailQueue;
  /** The stage secret named `install-link` (testers/install-link.ts). */
  installLinkSecret: StageSecret;
  /** Build mails per workspace and UTC day (rate rule `buildMailPerWorkspace`). */
  buildMailCap: RateLimiter;
  audit: Pick<AuditLog, "record">;
  /** Where `build.distributed` goes (docs/webhooks.md); absent: no event (unit tests, tools). */
  events?: EventPublisher | undefined;
  clock: Clock;
  newDistributionId(): string;
}

/** What a distribution will do, resolved and checked before anything is written. */
export interface DistributionPlan {
  groups: { groupId: string; name: string }[];
  /** Explicit addresses, normalized. */
  testers: string[];
  /** Every distinct address, with the names of the groups that brought it in (empty: named by address). */
  addresses: Map<string, string[]>;
  notify: boolean;
  message: string | null;
}

/** The build being sent, as the use cases after the access check know it. */
export interface DistributionTarget {
  fileId: string;
  projectId: string;
  workspaceId: string;
  workspaceName: string;
  createdBy: DistributionCreator;
  /** The member who sent it (audit log); undefined for CI (an API key's complete). */
  actor?: Actor;
  fileName: string;
  /** The link bases of the request (the mail's install, portal and unsubscribe links). */
  bases: { publicBaseUrl: string; shareBaseUrl: string };
  /** The build's record: the `build.distributed` event's payload (no event without it). */
  file?: FileRecord | undefined;
}

/** Who sent it, as the event says: the member, or CI's API key. */
const distributorOf = (target: DistributionTarget): EventActor =>
  "clientId" in target.createdBy ? { kind: "apiKey", clientId: target.createdBy.clientId } : userActor(target.actor ?? { userId: target.createdBy.userId }, target.createdBy.email);

/** Normalized, distinct addresses, or a 400 naming each bad one (`testers[3]`). */
function normalizedTesters(testers: readonly string[]): string[] {
  const issues: FieldIssue[] = [];
  const out = new Set<string>();
  testers.forEach((raw, i) => {
    const email = normalizeEmail(raw);
    const problem = emailProblem(email);
    if (problem) issues.push({ field: `testers[${i}]`, message: problem });
    else out.add(email);
  });
  if (issues.length > 0) throw new ValidationError(issues.slice(0, 20));
  return [...out];
}

/**
 * Resolves the groups (by id or name; `missing` refs of the input are a 404 naming them) and the
 * project's default groups (a default group deleted since is skipped, not an error), and lists
 * every distinct address. Reads only: complete calls it before completing, so a typo in
 * `--groups` fails the upload's complete instead of half-completing it.
 */
export async function planDistribution(
  deps: Pick<DistributionDeps, "groups">,
  workspaceId: string,
  input: Pick<DistributeInput, "groups" | "testers" | "notify"> & { message?: string | null | undefined },
  defaultGroupIds: readonly string[] = [],
): Promise<DistributionPlan> {
  const testers = normalizedTesters(input.testers);
  const named = [...new Set(input.groups.map((g) => g.trim()).filter((g) => g.length > 0))];
  const defaults = defaultGroupIds.filter((id) => !named.includes(id));
  const refs = [...named, ...defaults];
  const resolved = refs.length > 0 ? await deps.groups.resolve(workspaceId, refs) : { groups: [], missing: [] };
  const missing = resolved.missing.filter((ref) => named.includes(ref));
  if (missing.length > 0) throw groupsNotFound(missing);
  const groups = [...new Map(resolved.groups.map((g) => [g.groupId, { groupId: g.groupId, name: g.name }])).values()];
  const addresses = new Map<string, string[]>();
  const members = await Promise.all(groups.map(async (g) => ({ g, emails: await deps.groups.addresses(g.groupId) })));
  for (const { g, emails } of members) {
    for (const email of emails) addresses.set(email, [...(addresses.get(email) ?? []), g.name]);
  }
  for (const email of testers) if (!addresses.has(email)) addresses.set(email, []);
  return { groups, testers, addresses, notify: input.notify, message: input.message ?? null };
}

/**
 * Admits as many of `wanted` mails as the workspace's daily cap still allows: the limiter is all
 * or nothing per hit, so a refused hit is retried with half the count (at most log2(1,000) ≈ 10
 * round trips when the cap is nearly reached; one otherwise).
 */
async function admitted(cap: RateLimiter, workspaceId: string, now: Date, wanted: number): Promise<number> {
  let admittedCount = 0;
  let ask = wanted;
  while (ask > 0 && admittedCount < wanted) {
    const decision = await cap.hit(workspaceId, now, ask);
    if (decision.allowed) {
      admittedCount += ask;
      ask = Math.min(ask, wanted - admittedCount);
    } else {
      ask = Math.floor(ask / 2);
    }
  }
  return admittedCount;
}

/**
 * Writes the distribution, its new recipients and their install links, and queues their mails.
 * Statuses are decided here (silent, unsubscribed, suppressed, capped, queued) so the file page
 * shows each tester's fate at once; the sender checks unsubscribe and suppression again.
 */
export async function sendPlannedBuild(
  deps: Omit<DistributionDeps, "files" | "projects" | "workspaces" | "groups">,
  target: DistributionTarget,
  plan: DistributionPlan,
): Promise<DistributionAnswer> {
  const now = deps.clock.now();
  const at = now.toISOString();
  const distributionId = deps.newDistributionId();
  const emails = [...plan.addresses.keys()];
  const record: DistributionRecord = {
    distributionId,
    fileId: target.fileId,
    projectId: target.projectId,
    workspaceId: target.workspaceId,
    workspaceName: target.workspaceName,
    groups: plan.groups,
    testers: plan.testers,
    message: plan.message,
    notify: plan.notify,
    recipients: emails.length,
    createdAt: at,
    createdBy: target.createdBy,
  };
  // The distribution first: the sender reads its message, so it must exist before any mail is queued.
  const [existing, secret] = await Promise.all([
    deps.distributions.existingRecipients(target.fileId, emails),
    deps.installLinkSecret.bytes(),
    deps.distributions.putDistribution(record),
  ]);
  const fresh = emails.filter((e) => !existing.has(e));
  const [unsubscribed, suppressed] = plan.notify
    ? await Promise.all([deps.distributions.unsubscribed(target.projectId, fresh), deps.distributions.suppressed(fresh)])
    : [new Set<string>(), new Set<string>()];
  const mailable = fresh.filter((e) => !unsubscribed.has(e) && !suppressed.has(e));
  const allowed = plan.notify && mailable.length > 0 ? await admitted(deps.buildMailCap, target.workspaceId, now, mailable.length) : 0;
  const admittedSet = new Set(mailable.slice(0, allowed));
  const statusOf = (email: string): RecipientStatus => {
    if (!plan.notify) return "silent";
    if (unsubscribed.has(email)) return "unsubscribed";
    if (suppressed.has(email)) return "suppressed";
    return admittedSet.has(email) ? "queued" : "capped";
  };
  const recipients: NewRecipient[] = fresh.map((email) => ({
    email,
    fileId: target.fileId,
    projectId: target.projectId,
    workspaceId: target.workspaceId,
    distributionId,
    createdAt: at,
    status: statusOf(email),
    viaGroups: plan.addresses.get(email) ?? [],
  }));
  const hashes = new Map(fresh.map((email) => [email, installLinkHash(installLinkToken(secret, target.fileId, email))]));
  const written = await deps.distributions.addRecipients(recipients, hashes);
  const queued = recipients.filter((r) => r.status === "queued" && written.has(r.email));
  // A copy still `queued` from an earlier distribution whose enqueue failed is queued again: the
  // sender's claim makes a second message for one recipient harmless.
  const stale = [...existing].filter(([, status]) => status === "queued").map(([email]) => email);
  const jobs = [...queued.map((r) => r.email), ...stale].map((email) => ({ fileId: target.fileId, email, ...target.bases }));
  if (jobs.length > 0) await deps.queue.enqueue(jobs);
  if (target.actor) {
    await recordChange(deps, target.actor, {
      workspaceId: target.workspaceId,
      action: "build.distribute",
      target: { type: "build", id: target.fileId, label: target.fileName },
      details: { projectId: target.projectId, distributionId, groups: plan.groups.length, recipients: emails.length, queued: queued.length, notify: plan.notify },
    });
  }
  // Every distribution is an event, also one that reached nobody new (a re-run of CI): the
  // receiver learns that the build was sent, and `recipients` counts everyone it was sent to.
  if (target.file) {
    await deps.events?.publish({
      type: "build.distributed",
      occurredAt: at,
      workspaceId: target.workspaceId,
      ...buildRouting(target.file),
      data: {
        workspaceId: target.workspaceId,
        build: buildPayload(target.file, target.bases),
        distribution: { distributionId, groups: plan.groups, recipients: emails.length, message: plan.message },
        actor: distributorOf(target),
      },
    });
  }
  return { distributionId, recipients: emails.length, queued: queued.length, capped: recipients.filter((r) => r.status === "capped").length };
}

/**
 * POST /api/files/{fileId}/distribute (builds.distribute): 202 `{distributionId, recipients, queued,
 * capped}`; 409 `build_not_completed` for a pending or rejected upload.
 */
export async function distributeBuild(
  deps: DistributionDeps,
  actor: Actor,
  input: FileRef & DistributeInput,
  bases: { publicBaseUrl: string; shareBaseUrl: string },
): Promise<DistributionAnswer> {
  if (input.groups.length === 0 && input.testers.length === 0) {
    throw new ValidationError([{ field: "groups", message: "name at least one group or tester" }]);
  }
  const { file, project } = await ownFile(deps, actor, input, "builds.distribute");
  if (file.status !== "completed") throw new BuildNotCompletedError("Only a completed build can be sent to testers");
  const [plan, workspace] = await Promise.all([planDistribution(deps, project.workspaceId, input), deps.workspaces.get(project.workspaceId)]);
  return sendPlannedBuild(
    deps,
    {
      fileId: file.fileId,
      projectId: project.projectId,
      workspaceId: project.workspaceId,
      workspaceName: workspace?.name ?? "",
      createdBy: { userId: actor.userId, email: null },
      actor,
      fileName: file.fileName,
      bases: { publicBaseUrl: bases.publicBaseUrl, shareBaseUrl: bases.shareBaseUrl },
      file,
    },
    plan,
  );
}

/** GET /api/files/{fileId}/distributions (workspace.read): every distribution, newest first, and every recipient's status. */
export async function listDistributions(deps: Pick<DistributionDeps, "files" | "projects" | "workspaces" | "distributions">, actor: Actor, input: FileRef) {
  const { file } = await ownFile(deps, actor, input, "workspace.read");
  const [distributions, recipients] = await Promise.all([deps.distributions.listDistributions(file.fileId), deps.distributions.listRecipients(file.fileId)]);
  return {
    items: distributions
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map((d) => ({
        distributionId: d.distributionId,
        createdAt: d.createdAt,
        createdBy: d.createdBy,
        groups: d.groups,
        testers: d.testers,
        message: d.message,
        notify: d.notify,
        recipients: d.recipients,
      })),
    recipients: recipients
      .sort((a, b) => a.email.localeCompare(b.email))
      .map((r) => ({ email: r.email, status: r.status, sentAt: r.sentAt ?? null })),
  };
}

/** GET /api/projects/{projectId}/default-groups (workspace.read). */
export async function getDefaultGroups(deps: Pick<DistributionDeps, "projects" | "workspaces" | "distributions">, actor: Actor, input: { projectId: string }) {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "workspace.read");
  return { groupIds: await deps.distributions.defaultGroups(project.workspaceId, project.projectId) };
}

/**
 * PUT /api/projects/{projectId}/default-groups (projects.manage): the groups every completed
 * upload of the project is sent to. Refs may be ids or names; what is stored is ids (a renamed
 * group stays a default). An unknown ref is a 404 naming it.
 */
export async function setDefaultGroups(
  deps: Pick<DistributionDeps, "projects" | "workspaces" | "distributions" | "groups">,
  actor: Actor,
  input: { projectId: string; groupIds: string[] },
) {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "projects.manage");
  const refs = [...new Set(input.groupIds)];
  const { groups, missing } = refs.length > 0 ? await deps.groups.resolve(project.workspaceId, refs) : { groups: [], missing: [] };
  if (missing.length > 0) throw groupsNotFound(missing);
  const groupIds = [...new Set(groups.map((g) => g.groupId))];
  if (!(await deps.distributions.setDefaultGroups(project.workspaceId, project.projectId, groupIds))) throw projectNotFound();
  return { groupIds };
}

/**
 * Complete's optional `distribute` (Hangar's extension of the upload spec) with the project's
 * default groups: resolved before the upload is completed, so a typo in `--groups` fails the
 * complete with 404 `group_not_found` and nothing half-done. null when there is nothing to send.
 */
export async function planUploadDistribution(
  deps: Pick<DistributionDeps, "groups" | "distributions">,
  where: { workspaceId: string; projectId: string },
  input: DistributeInput | undefined,
): Promise<DistributionPlan | null> {
  const defaults = await deps.distributions.defaultGroups(where.workspaceId, where.projectId);
  const given = input ?? { groups: [], testers: [], notify: true };
  if (given.groups.length === 0 && given.testers.length === 0 && defaults.length === 0) return null;
  const plan = await planDistribution(deps, where.workspaceId, given, defaults);
  return plan.groups.length > 0 || plan.testers.length > 0 ? plan : null;
}

/**
 * After complete: sends the completed build as planned. CI (an API key) is `createdBy: {clientId}`;
 * a dashboard upload, its member. The build's record (for `build.distributed`) is read beside the
 * workspace, so the event adds no round trip to the complete's answer.
 */
export async function distributeUpload(
  deps: Omit<DistributionDeps, "files" | "projects" | "groups"> & Partial<Pick<DistributionDeps, "files">>,
  uploader: { workspaceId: string; projectId: string; clientId: string; actor?: Actor },
  file: { fileId: string; fileName: string },
  plan: DistributionPlan,
  bases: { publicBaseUrl: string; shareBaseUrl: string },
): Promise<DistributionAnswer> {
  const [workspace, record] = await Promise.all([
    deps.workspaces.get(uploader.workspaceId),
    deps.events && deps.files ? deps.files.get(file.fileId) : undefined,
  ]);
  return sendPlannedBuild(
    deps,
    {
      fileId: file.fileId,
      projectId: uploader.projectId,
      workspaceId: uploader.workspaceId,
      workspaceName: workspace?.name ?? "",
      createdBy: uploader.actor ? { userId: uploader.actor.userId, email: null } : { clientId: uploader.clientId },
      ...(uploader.actor ? { actor: uploader.actor } : {}),
      fileName: file.fileName,
      bases: { publicBaseUrl: bases.publicBaseUrl, shareBaseUrl: bases.shareBaseUrl },
      file: record,
    },
    plan,
  );
}
