import { removeBuild, type RemoveBuildDeps } from "../dashboard/files";
import { ownProject } from "../dashboard/projects";
import type { ProjectRef, RetentionPreviewQuery } from "../dashboard/dashboard.schema";
import type { DashboardDeps } from "../dashboard/dashboard-deps";
import type { RetentionPreviewAnswer } from "../dashboard/dashboard-answers";
import type { AuditActor, FileCatalog, FileRecord, ProjectView } from "../ports";
import type { Actor } from "../workspaces/actor";
import { buildsToRemove, type RetainedBuild, type RetentionPolicy, type RetentionVerdict } from "./retention";

/**
 * Issue 24 item 5: a project's retention policy, previewed by people and applied once a day by
 * the housekeeping run. Both read the project's completed builds the same way and ask the one
 * rule (retention.ts) at the same `now`, so the run removes exactly what a preview at that moment
 * lists. The run removes through `removeBuild`, the path of a person's delete: objects, record,
 * links answering 410 `file_removed`, testers' items, counts, audit entry and `build.deleted`.
 */

/** The audit log's actor of what Hangar does by itself (the audit page names it). */
export const SYSTEM_AUDIT_ACTOR: AuditActor = { userId: "system" };

/** Files read per Query while listing a project's builds. */
const PAGE = 100;

type Completed = FileRecord & { status: "completed"; completedAt: string };
export type RetainedFile = Completed & RetainedBuild;

/** Every completed build of a project, as the rule reads them. */
export async function retainedBuilds(files: Pick<FileCatalog, "page">, projectId: string): Promise<RetainedFile[]> {
  const builds: RetainedFile[] = [];
  let after: string | undefined;
  do {
    const page = await files.page(projectId, PAGE, after);
    for (const file of page.items) {
      if (file.status !== "completed" || !file.completedAt) continue;
      const platform = typeof file.metadata?.platform === "string" ? file.metadata.platform : "unknown";
      builds.push({ ...(file as Completed), platform, branch: file.buildContext?.branch ?? null, pinned: file.pinned === true });
    }
    after = page.after;
  } while (after);
  return builds;
}

const policyView = (policy: RetentionPolicy | undefined): RetentionPreviewAnswer["policy"] =>
  policy ? { keepLatest: policy.keepLatest ?? null, maxAgeDays: policy.maxAgeDays ?? null } : null;

/**
 * The policy a preview shows: the query's candidate when it names either number (an empty one
 * does not apply; both empty: off), else the project's saved one.
 */
function previewedPolicy(project: ProjectView, query: RetentionPreviewQuery): RetentionPolicy | undefined {
  if (query.keepLatest === undefined && query.maxAgeDays === undefined) return project.retention;
  const keepLatest = typeof query.keepLatest === "number" ? query.keepLatest : undefined;
  const maxAgeDays = typeof query.maxAgeDays === "number" ? query.maxAgeDays : undefined;
  if (keepLatest === undefined && maxAgeDays === undefined) return undefined;
  return { ...(keepLatest !== undefined ? { keepLatest } : {}), ...(maxAgeDays !== undefined ? { maxAgeDays } : {}) };
}

const str = (value: unknown) => (typeof value === "string" ? value : null);

/**
 * `GET /api/projects/{projectId}/retention/preview`: what the daily run would remove now (any
 * member), under the saved policy or a candidate the query names (the form before it is saved).
 */
export async function previewRetention(
  deps: Pick<DashboardDeps, "projects" | "workspaces" | "files" | "clock">,
  actor: Actor,
  input: ProjectRef & RetentionPreviewQuery,
): Promise<RetentionPreviewAnswer> {
  const project = await ownProject(deps, actor, input.projectId, "workspace.read");
  const policy = previewedPolicy(project, input);
  const verdicts = buildsToRemove(policy, await retainedBuilds(deps.files, project.projectId), deps.clock.now());
  return {
    policy: policyView(policy),
    items: verdicts.map(({ build, reasons }) => ({
      fileId: build.fileId,
      platform: build.platform,
      version: str(build.metadata?.version),
      build: str(build.metadata?.buildNumber),
      branch: build.branch ?? null,
      completedAt: build.completedAt,
      size: build.fileSize,
      reasons,
    })),
    bytes: verdicts.reduce((sum, { build }) => sum + build.fileSize, 0),
  };
}

export type RetentionRunDeps = RemoveBuildDeps & Pick<DashboardDeps, "clock">;

export interface RetentionOutcome {
  /** Projects whose policy was applied. */
  projects: number;
  /** Builds removed, and their bytes. */
  removed: number;
  bytes: number;
  /** Projects that failed (logged by the caller; the next run tries again). */
  failed: number;
}

/**
 * Applies one project's policy at `now`. Each build is read again just before it goes: one pinned
 * (or deleted) since the list was read stays (or is not removed twice). A run that stops half way
 * removes the rest next time: the rule gives the same answer for what is left.
 */
export async function applyRetention(deps: RetentionRunDeps, project: ProjectView, now: Date): Promise<RetentionVerdict<RetainedFile>[]> {
  if (project.status !== "active" || !project.retention) return [];
  const verdicts = buildsToRemove(project.retention, await retainedBuilds(deps.files, project.projectId), now);
  const removed: RetentionVerdict<RetainedFile>[] = [];
  for (const verdict of verdicts) {
    const current = await deps.files.get(verdict.build.fileId);
    if (!current || current.status !== "completed" || current.pinned === true) continue;
    await removeBuild(deps, project, current, { audit: SYSTEM_AUDIT_ACTOR, event: { kind: "system" }, retention: verdict.reasons });
    removed.push(verdict);
  }
  return removed;
}

/**
 * The daily run (housekeeping/daily-retention.ts): every project with a policy, one after the
 * other (a run's cost is the builds it removes). A project that is gone leaves the work list; one
 * that fails is counted and skipped, so one bad project does not stop the others.
 */
export async function runRetention(
  deps: RetentionRunDeps,
  now: Date,
  onError: (projectId: string, error: unknown) => void = () => {},
): Promise<RetentionOutcome> {
  const outcome: RetentionOutcome = { projects: 0, removed: 0, bytes: 0, failed: 0 };
  for (const { workspaceId, projectId } of await deps.projects.withRetention()) {
    try {
      const project = await deps.projects.get(workspaceId, projectId);
      if (!project) {
        await deps.projects.forgetRetention(projectId);
        continue;
      }
      const removed = await applyRetention(deps, project, now);
      outcome.projects += 1;
      outcome.removed += removed.length;
      outcome.bytes += removed.reduce((sum, { build }) => sum + build.fileSize, 0);
    } catch (error) {
      outcome.failed += 1;
      onError(projectId, error);
    }
  }
  return outcome;
}
