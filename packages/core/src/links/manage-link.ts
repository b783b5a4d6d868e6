import { NotFoundError, ValidationError } from "../errors/domain-errors";
import type { AuditEntryInput, AuditLog, Clock, FileRecord, PasswordHasher, ProjectCatalog, WorkspaceCatalog } from "../ports";
import { auditActor } from "../audit/audit-actor";
import { recordChange } from "../dashboard/audit-record";
import type { Actor } from "../workspaces/actor";
import { projectAccess } from "../workspaces/project-access";
import { can, ROLES } from "../workspaces/roles";
import { ForbiddenError } from "../workspaces/workspace-errors";
import type { LinkBases } from "../upload/upload-settings";
import type { LinkView } from "../dashboard/dashboard-answers";

export type { LinkView };
import { dailySeries, linkState, newTokenSecret } from "./link-access";
import type { ShareSettings } from "./link.schema";
import type { FileRef } from "../dashboard/dashboard.schema";
import type { ShareLink, ShareLinkChanges, ShareLinks } from "./share-link.port";
import type { EventPublisher } from "../ports/events.port";
import { buildPayload, buildRouting, userActor } from "../webhooks/event-builders";

export interface LinkDeps {
  files: { get(fileId: string): Promise<FileRecord | undefined> };
  projects: Pick<ProjectCatalog, "workspaceOf" | "get">;
  workspaces: Pick<WorkspaceCatalog, "membership">;
  links: ShareLinks;
  audit: Pick<AuditLog, "record">;
  hasher: PasswordHasher;
  clock: Clock;
  ids: { userKey(): string };
  /** Webhooks (docs/webhooks.md): told after a change succeeded; absent where nothing listens. */
  events?: EventPublisher;
}

export const linkNotFound = () => new NotFoundError("file_not_found", "No shared build with this id in your workspaces");

export function linkView(link: ShareLink, now: Date, bases: LinkBases): LinkView {
  return {
    userKey: link.userKey,
    shareUrl: `${bases.shareBaseUrl}/share/${link.userKey}`,
    state: linkState(link, now),
    enabled: link.enabled,
    expiresAt: link.expiresAt ?? null,
    hasPassword: link.passwordHash !== undefined,
    maxDownloads: link.maxDownloads ?? null,
    downloads: link.downloads,
    installs: link.installs,
    daily: dailySeries(link, now),
  };
}

/** A completed file with a link, by an id of the right shape; anything else is 404. */
async function sharedFile(deps: Pick<LinkDeps, "files">, { fileId }: FileRef): Promise<FileRecord & { userKey: string }> {
  const file = await deps.files.get(fileId);
  if (!file || file.status !== "completed" || !file.userKey) throw linkNotFound();
  return file as FileRecord & { userKey: string };
}

/**
 * The project of a shared file, if the actor may change its links (links.manage): 404 for a
 * workspace they are not a member of, exactly as for an unknown file; 403 for a member whose
 * role does not allow it.
 */
async function linkProject(deps: Pick<LinkDeps, "projects" | "workspaces">, actor: Actor, file: FileRecord) {
  const { project } = await projectAccess(deps, actor.userId, file.projectId, "links.manage", file.workspaceId).catch((error: unknown) => {
    throw error instanceof NotFoundError ? linkNotFound() : error;
  });
  return project;
}

/** The link of a completed file of a workspace the actor may manage links in; anything else is 404. */
async function ownLink(deps: Pick<LinkDeps, "files" | "projects" | "workspaces" | "links">, actor: Actor, ref: FileRef) {
  const file = await sharedFile(deps, ref);
  // Both keys are on the file record: the access check and the link are read together.
  const [project, link] = await Promise.all([linkProject(deps, actor, file), deps.links.get(file.userKey)]);
  if (project.status !== "active" || !link || link.fileId !== file.fileId) throw linkNotFound();
  return { link, project, file };
}

/** The link as it is once the changes are applied (what ShareLinks.update writes). */
function withChanges(link: ShareLink, changes: ShareLinkChanges): ShareLink {
  const next: ShareLink = { ...link };
  if (changes.enabled !== undefined) next.enabled = changes.enabled;
  if (changes.expiresAt === null) delete next.expiresAt;
  else if (changes.expiresAt !== undefined) next.expiresAt = changes.expiresAt;
  if (changes.maxDownloads === null) delete next.maxDownloads;
  else if (changes.maxDownloads !== undefined) next.maxDownloads = changes.maxDownloads;
  if (changes.password === null) delete next.passwordHash;
  else if (changes.password) {
    next.passwordHash = changes.password.hash;
    next.tokenSecret = changes.password.tokenSecret;
  }
  return next;
}

/** The link settings and counts of a file, for the file page (undefined when it has no link). */
export async function fileLinkView(deps: { links: Pick<ShareLinks, "get">; clock: Clock }, file: FileRecord, bases: LinkBases): Promise<LinkView | undefined> {
  if (file.status !== "completed" || !file.userKey) return undefined;
  const link = await deps.links.get(file.userKey);
  return link && link.fileId === file.fileId ? linkView(link, deps.clock.now(), bases) : undefined;
}

/** PATCH /api/files/{fileId}/share: `input` is the file's id and the settings; omitted fields stay, null clears one. */
export async function updateShareSettings(
  deps: LinkDeps,
  actor: Actor,
  input: FileRef & ShareSettings,
  bases: LinkBases,
): Promise<LinkView> {
  // Checked here, not in the schema: "past" is the use case's clock, the one linkState reads. A past
  // expiry would switch the link off on save, which nobody means by setting a date.
  if (input.expiresAt && Date.parse(input.expiresAt) <= deps.clock.now().getTime()) {
    throw new ValidationError([{ field: "expiresAt", message: "must be in the future (to turn the link off now, use enabled: false)" }]);
  }
  // Two sequential round trips after the session's: the file (it names its project's workspace),
  // then the write, which checks everything the access check would (the caller's role, the
  // project still the workspace's and active, the link still the file's) and logs the change in
  // the same transaction (ShareLinks.updateOwned), beside reads of the link and of the
  // membership. The link read sees the item before or after the write, and the view applies the
  // changes to it either way; the membership says why a refused write was refused (404 or 403).
  const file = await sharedFile(deps, input);
  // A record from before workspaces names none: its project is located first (one round trip more).
  const workspaceId = file.workspaceId ?? (await deps.projects.workspaceOf(file.projectId));
  if (!workspaceId) throw linkNotFound();
  const changes: ShareLinkChanges = {};
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.expiresAt !== undefined) changes.expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt).toISOString();
  if (input.maxDownloads !== undefined) changes.maxDownloads = input.maxDownloads;
  if (input.password !== undefined) {
    // A new secret with every new password: whoever was let in with the old one is out at once.
    changes.password = input.password === null ? null : { hash: await deps.hasher.hash(input.password.normalize("NFKC")), tokenSecret: newTokenSecret() };
  }
  const owner = {
    workspaceId,
    projectId: file.projectId,
    fileId: file.fileId,
    userKey: file.userKey,
    member: { userId: actor.userId, roles: ROLES.filter((role) => can(role, "links.manage")) },
  };
  const audit = {
    workspaceId,
    actor: auditActor(actor),
    action: "link.settings_changed",
    target: { type: "link", id: file.fileId, label: file.fileName },
    // Which settings changed and to what; a password only as set or removed, never its value.
    details: {
      ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
      ...(changes.expiresAt !== undefined ? { expiresAt: changes.expiresAt } : {}),
      ...(changes.maxDownloads !== undefined ? { maxDownloads: changes.maxDownloads } : {}),
      ...(changes.password !== undefined ? { password: changes.password === null ? "removed" : "set" } : {}),
    },
  } as const satisfies AuditEntryInput;
  const [written, link, membership] = await Promise.all([
    deps.links.updateOwned(owner, changes, audit),
    deps.links.get(file.userKey),
    deps.workspaces.membership(workspaceId, actor.userId),
  ]);
  if (!written) {
    // A non-member learns nothing (404, as for an unknown file); a member whose role does not allow it, why.
    if (membership && !can(membership.role, "links.manage")) throw new ForbiddenError(membership.role, "links.manage");
    throw linkNotFound();
  }
  if (!link || link.fileId !== file.fileId) throw linkNotFound();
  const changed = withChanges(link, changes);
  const now = deps.clock.now();
  await deps.events?.publish({
    type: "link.settings_changed",
    occurredAt: now.toISOString(),
    workspaceId,
    ...buildRouting(file),
    data: {
      workspaceId,
      build: buildPayload(file, bases),
      link: { enabled: changed.enabled, expiresAt: changed.expiresAt ?? null, hasPassword: changed.passwordHash !== undefined, maxDownloads: changed.maxDownloads ?? null },
      changed: Object.keys(changes),
      actor: userActor(actor),
    },
  });
  return linkView(changed, now, bases);
}

/** POST /api/files/{fileId}/share/regenerate: a new key; the old link is dead at once (404). */
export async function regenerateShareLink(
  deps: LinkDeps,
  actor: Actor,
  input: FileRef,
  bases: LinkBases,
): Promise<{ userKey: string; shareUrl: string; downloadUrl: string }> {
  const { link, project, file } = await ownLink(deps, actor, input);
  const userKey = deps.ids.userKey();
  if (!(await deps.links.regenerate(link, userKey, newTokenSecret()))) throw linkNotFound();
  await recordChange(deps, actor, {
    workspaceId: project.workspaceId,
    action: "link.regenerated",
    target: { type: "link", id: file.fileId, label: file.fileName },
  });
  return { userKey, shareUrl: `${bases.shareBaseUrl}/share/${userKey}`, downloadUrl: `${bases.publicBaseUrl}/download/${userKey}` };
}
