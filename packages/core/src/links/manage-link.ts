import { NotFoundError, ValidationError } from "../errors/domain-errors";
import type { Clock, FileRecord, PasswordHasher, ProjectView } from "../ports";
import type { LinkBases } from "../upload/upload-settings";
import type { LinkView } from "../dashboard/dashboard-answers";

export type { LinkView };
import { dailySeries, linkState, newTokenSecret } from "./link-access";
import type { ShareSettings } from "./link.schema";
import type { FileRef } from "../dashboard/dashboard.schema";
import type { ShareLink, ShareLinkChanges, ShareLinks } from "./share-link.port";

export interface LinkDeps {
  files: { get(fileId: string): Promise<FileRecord | undefined> };
  projects: { get(userId: string, projectId: string): Promise<ProjectView | undefined> };
  links: ShareLinks;
  hasher: PasswordHasher;
  clock: Clock;
  ids: { userKey(): string };
}

export const linkNotFound = () => new NotFoundError("file_not_found", "No shared build with this id in your account");

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

/** The link of a completed file the account owns; anything else (another account's too) is 404. */
async function ownLink(deps: Pick<LinkDeps, "files" | "projects" | "links">, userId: string, ref: FileRef): Promise<ShareLink> {
  const file = await sharedFile(deps, ref);
  // Both keys are on the file record: the project and the link are read together.
  const [project, link] = await Promise.all([deps.projects.get(userId, file.projectId), deps.links.get(file.userKey)]);
  if (!project || project.status !== "active" || !link || link.fileId !== file.fileId) throw linkNotFound();
  return link;
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
  userId: string,
  input: FileRef & ShareSettings,
  bases: LinkBases,
): Promise<LinkView> {
  // Checked here, not in the schema: "past" is the use case's clock, the one linkState reads. A past
  // expiry would switch the link off on save, which nobody means by setting a date.
  if (input.expiresAt && Date.parse(input.expiresAt) <= deps.clock.now().getTime()) {
    throw new ValidationError([{ field: "expiresAt", message: "must be in the future (to turn the link off now, use enabled: false)" }]);
  }
  // Three sequential round trips with the session's: the file, then the write (which checks the
  // project and the link itself, see ShareLinks.updateOwned) beside a read of the link. That read
  // sees the item before or after the write; the view applies the changes to it either way.
  const file = await sharedFile(deps, input);
  const changes: ShareLinkChanges = {};
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.expiresAt !== undefined) changes.expiresAt = input.expiresAt === null ? null : new Date(input.expiresAt).toISOString();
  if (input.maxDownloads !== undefined) changes.maxDownloads = input.maxDownloads;
  if (input.password !== undefined) {
    // A new secret with every new password: whoever was let in with the old one is out at once.
    changes.password = input.password === null ? null : { hash: await deps.hasher.hash(input.password.normalize("NFKC")), tokenSecret: newTokenSecret() };
  }
  const owner = { userId, projectId: file.projectId, fileId: file.fileId, userKey: file.userKey };
  const [written, link] = await Promise.all([deps.links.updateOwned(owner, changes), deps.links.get(file.userKey)]);
  if (!written || !link || link.fileId !== file.fileId) throw linkNotFound();
  return linkView(withChanges(link, changes), deps.clock.now(), bases);
}

/** POST /api/files/{fileId}/share/regenerate: a new key; the old link is dead at once (404). */
export async function regenerateShareLink(
  deps: LinkDeps,
  userId: string,
  input: FileRef,
  bases: LinkBases,
): Promise<{ userKey: string; shareUrl: string; downloadUrl: string }> {
  const link = await ownLink(deps, userId, input);
  const userKey = deps.ids.userKey();
  if (!(await deps.links.regenerate(link, userKey, newTokenSecret()))) throw linkNotFound();
  return { userKey, shareUrl: `${bases.shareBaseUrl}/share/${userKey}`, downloadUrl: `${bases.publicBaseUrl}/download/${userKey}` };
}
