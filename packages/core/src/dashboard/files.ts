import { BuildNotCompletedError, NotFoundError } from "../errors/domain-errors";
import type { AuditActor, FileRecord, LinkStats, ProjectView } from "../ports";
import { auditActor } from "../audit/audit-actor";
import type { EventActor } from "../webhooks/webhook-events";
import type { LinkBases } from "../upload/upload-settings";
import { decodeCursor, encodeCursor } from "./cursor";
import type { FileRef, PageQuery, ProjectRef, UpdateFile, WorkspacePageQuery } from "./dashboard.schema";
import type { DashboardDeps } from "./dashboard-deps";
import { ownProject, workspaceOf } from "./projects";
import { recordChange } from "./audit-record";
import type { Actor } from "../workspaces/actor";
import { buildPayload, buildRouting, userActor } from "../webhooks/event-builders";
import { workspaceAccess } from "../workspaces/access";
import { projectAccess, type ProjectAccessDeps } from "../workspaces/project-access";
import type { Action } from "../workspaces/roles";
import { fileLinkView } from "../links/manage-link";
import type { ShareLinks } from "../links/share-link.port";
import { linkState } from "../links/link-access";
import { installability } from "../upload/installability";
import { isDashboardUpload } from "../upload/uploader";
import type { FileDetail, FileSummary, LinkSummary } from "./dashboard-answers";

/** Life of the presigned icon addresses in answers: long enough for a dashboard tab. */
const ICON_URL_SECONDS = 3600;
/** The most recent files across projects on the dashboard home. */
export const MAX_LATEST = 50;

type SummaryDeps = Pick<DashboardDeps, "signer" | "clock">;
type ListDeps = Pick<DashboardDeps, "projects" | "workspaces" | "files" | "keys" | "signer" | "clock">;

function linkSummary(stats: LinkStats | undefined, now: Date): LinkSummary | null {
  if (!stats) return null;
  return { state: linkState(stats, now), hasPassword: stats.hasPassword, downloads: stats.downloads, installs: stats.installs };
}

/** The link stats of a page of files: one batched read, not one per row. */
function statsOf(deps: Pick<DashboardDeps, "files">, files: FileRecord[]): Promise<Map<string, LinkStats>> {
  const userKeys = files.flatMap((f) => (f.status === "completed" && f.userKey ? [f.userKey] : []));
  return userKeys.length ? deps.files.linkStats(userKeys) : Promise.resolve(new Map());
}

async function summary(
  deps: SummaryDeps,
  file: FileRecord,
  keyNames: Map<string, string>,
  links: LinkBases,
  stats: Map<string, LinkStats>,
): Promise<FileSummary> {
  const m = file.metadata;
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  // Decided now, not read from what complete recorded: a profile valid at upload expires later.
  const decision = file.status === "completed" && m ? installability(m, deps.clock.now()) : undefined;
  return {
    fileId: file.fileId,
    projectId: file.projectId,
    fileName: file.fileName,
    fileSize: file.fileSize,
    status: file.status,
    rejection: file.rejection ?? null,
    createdAt: file.createdAt,
    completedAt: file.completedAt ?? null,
    appName: str(m?.appName),
    version: str(m?.version),
    buildNumber: str(m?.buildNumber),
    platform: str(m?.platform),
    bundleId: str(m?.bundleId),
    installBlocker: decision && !decision.installable ? decision.reason : null,
    iconUrl: file.iconKey
      ? await deps.signer.presignGet({ key: file.iconKey, downloadName: "icon.png", expiresInSeconds: ICON_URL_SECONDS, inline: true })
      : null,
    // A dashboard upload names no key: `clientId` null (uploader.ts).
    uploadedBy: isDashboardUpload(file) ? { clientId: null, name: null } : { clientId: file.clientId, name: keyNames.get(file.clientId) ?? null },
    shareUrl: file.userKey ? `${links.shareBaseUrl}/share/${file.userKey}` : null,
    downloadUrl: file.userKey ? `${links.publicBaseUrl}/download/${file.userKey}` : null,
    share: file.userKey ? linkSummary(stats.get(file.userKey), deps.clock.now()) : null,
    pinned: file.pinned === true,
    diffSeverity: file.diffSeverity ?? null,
  };
}

async function keyNamesOf(deps: Pick<DashboardDeps, "keys">, projectId: string): Promise<Map<string, string>> {
  return new Map((await deps.keys.listByProject(projectId)).map((k) => [k.clientId, k.name]));
}

/** A project's files, newest first, `{items, nextCursor}`; a cursor not handed out for this list is a 400. */
export async function listProjectFiles(
  deps: ListDeps & Pick<DashboardDeps, "cursorSecret">,
  actor: Actor,
  query: ProjectRef & PageQuery,
  links: LinkBases,
) {
  const [project, secret] = await Promise.all([ownProject(deps, actor, query.projectId, "workspace.read"), deps.cursorSecret.bytes()]);
  const list = `project-files:${project.projectId}`;
  const after = decodeCursor(secret, list, query.cursor);
  const [page, names] = await Promise.all([deps.files.page(project.projectId, query.limit, after), keyNamesOf(deps, project.projectId)]);
  const stats = await statsOf(deps, page.items);
  return {
    items: await Promise.all(page.items.map((f) => summary(deps, f, names, links, stats))),
    nextCursor: encodeCursor(secret, list, page.after),
  };
}

/** The newest files across all the workspace's projects (dashboard home). */
export async function latestFiles(
  deps: ListDeps,
  actor: Actor,
  query: WorkspacePageQuery,
  links: LinkBases,
) {
  const wanted = Math.min(query.limit, MAX_LATEST);
  const { workspaceId } = await workspaceAccess(deps, actor.userId, workspaceOf(actor, query), "workspace.read");
  const projects = (await deps.projects.list(workspaceId)).filter((p) => p.status === "active");
  const perProject = await Promise.all(
    projects.map(async (p) => {
      const [page, names] = await Promise.all([deps.files.page(p.projectId, wanted), keyNamesOf(deps, p.projectId)]);
      return page.items.map((file) => ({ file, names }));
    }),
  );
  const newest = perProject
    .flat()
    .sort((a, b) => b.file.createdAt.localeCompare(a.file.createdAt))
    .slice(0, wanted);
  const stats = await statsOf(deps, newest.map(({ file }) => file));
  return { items: await Promise.all(newest.map(({ file, names }) => summary(deps, file, names, links, stats))) };
}

export const fileNotFound = () => new NotFoundError("file_not_found", "No file with this id in your workspaces");

/**
 * A file of an active project the actor may act on (`action`): 404 `file_not_found` for an
 * unknown id and for a file of a workspace the actor is not a member of alike, 403 for a member
 * whose role does not allow it.
 */
export async function ownFile(
  deps: ProjectAccessDeps & { files: Pick<DashboardDeps["files"], "get"> },
  actor: Actor,
  { fileId }: FileRef,
  action: Action,
): Promise<{ file: FileRecord; project: ProjectView }> {
  const file = await deps.files.get(fileId);
  if (!file) throw fileNotFound();
  const { project } = await projectAccess(deps, actor.userId, file.projectId, action, file.workspaceId).catch((error: unknown) => {
    throw error instanceof NotFoundError ? fileNotFound() : error;
  });
  if (project.status !== "active") throw fileNotFound();
  return { file, project };
}

export async function getFile(
  deps: ListDeps & { links: { links: Pick<ShareLinks, "get"> } },
  actor: Actor,
  input: FileRef,
  links: LinkBases,
): Promise<FileDetail> {
  const { file, project } = await ownFile(deps, actor, input, "workspace.read");
  return fileDetail(deps, file, project, links);
}

/** A file as its page shows it: the summary, its link's settings and counts, metadata and CI context. */
async function fileDetail(
  deps: ListDeps & { links: { links: Pick<ShareLinks, "get"> } },
  file: FileRecord,
  project: ProjectView,
  links: LinkBases,
): Promise<FileDetail> {
  const key = isDashboardUpload(file) ? undefined : await deps.keys.get(file.clientId);
  const names = new Map(key ? [[key.clientId, key.name]] : []);
  const share = (await fileLinkView({ links: deps.links.links, clock: deps.clock }, file, links)) ?? null;
  return {
    ...(await summary(deps, file, names, links, new Map())),
    share,
    fileType: file.fileType,
    projectName: project.name,
    metadata: file.metadata ?? null,
    expiresAt: file.expiresAt ?? null,
    releaseNotes: file.buildContext?.releaseNotes ?? null,
    branch: file.buildContext?.branch ?? null,
    commit: file.buildContext?.commit ?? null,
    ciUrl: file.buildContext?.ciUrl ?? null,
  };
}

/**
 * Deletes every version of the package and icon first, then the record and share item: if the
 * storage step fails the record is still there, so the person can retry and nothing is orphaned.
 */
export async function deleteFile(
  deps: RemoveBuildDeps,
  actor: Actor,
  input: FileRef,
): Promise<void> {
  const { file, project } = await ownFile(deps, actor, input, "builds.manage");
  await removeBuild(deps, project, file, { audit: auditActor(actor), event: userActor(actor) });
}

export type RemoveBuildDeps = Pick<DashboardDeps, "projects" | "workspaces" | "files" | "objects" | "audit" | "events"> & Partial<Pick<DashboardDeps, "clock">>;

/**
 * The one way a build is removed, by a person (deleteFile) or by a project's retention policy
 * (releases/apply-retention.ts): objects, then the record (its links answer 410 `file_removed`,
 * testers' items go with it), the project's counts, the audit entry and `build.deleted`.
 * `why` names who removed it and, for retention, the reasons the policy gave.
 */
export async function removeBuild(
  deps: RemoveBuildDeps,
  project: ProjectView,
  file: FileRecord,
  who: { audit: AuditActor; event: EventActor; retention?: string[] },
): Promise<void> {
  for (;;) {
    const { more } = await deps.objects.purgePrefix(file.key.slice(0, file.key.lastIndexOf("/") + 1));
    if (!more) break;
  }
  await deps.files.remove(file);
  if (file.status === "completed") await deps.projects.forgetUpload(project.workspaceId, project.projectId, file.fileSize);
  const version = typeof file.metadata?.version === "string" ? file.metadata.version : null;
  await deps.audit.record({
    workspaceId: project.workspaceId,
    actor: who.audit,
    action: "build.deleted",
    target: { type: "build", id: file.fileId, label: file.fileName },
    details: { projectId: project.projectId, projectName: project.name, version, ...(who.retention ? { reason: "retention", retention: who.retention.join(",") } : {}) },
  });
  await deps.events?.publish({
    type: "build.deleted",
    occurredAt: (deps.clock?.now() ?? new Date()).toISOString(),
    workspaceId: project.workspaceId,
    ...buildRouting(file),
    // The links died with the build: none in the payload.
    data: { workspaceId: project.workspaceId, build: buildPayload(file, null), reason: who.retention ? "retention" : "deleted", actor: who.event },
  });
}

/** Pins or unpins a completed build; answers the file as the file page shows it. */
export async function pinFile(
  deps: ListDeps & { links: { links: Pick<ShareLinks, "get"> } } & Pick<DashboardDeps, "audit">,
  actor: Actor,
  input: FileRef & UpdateFile,
  links: LinkBases,
): Promise<FileDetail> {
  const { file, project } = await ownFile(deps, actor, input, "builds.manage");
  if (file.status !== "completed") throw new BuildNotCompletedError("Only a completed build can be pinned");
  // The record as written (ReturnValues ALL_NEW) is what the answer shows: no second read.
  const written = await deps.files.setPinned(file.fileId, input.pinned);
  if (!written) throw fileNotFound();
  if ((file.pinned === true) !== input.pinned) {
    await recordChange(deps, actor, {
      workspaceId: project.workspaceId,
      action: input.pinned ? "build.pinned" : "build.unpinned",
      target: { type: "build", id: file.fileId, label: file.fileName },
      details: { projectId: project.projectId, projectName: project.name },
    });
  }
  return fileDetail(deps, written, project, links);
}
