import { randomInt } from "node:crypto";
import { recordChange } from "../dashboard/audit-record";
import { ConflictError } from "../errors/domain-errors";
import { newTokenSecret } from "../links/link-access";
import type { AuditLog, Clock, PasswordHasher } from "../ports";
import type { LinkBases } from "../upload/upload-settings";
import type { Actor } from "../workspaces/actor";
import { projectAccess, projectNotFound, type ProjectAccessDeps } from "../workspaces/project-access";
import type { AppPageState, AppPageStore } from "./app-page-store.port";
import type { AppPageSettings, AppPageView } from "./app-pages.schema";

export interface AppPageSettingsDeps extends ProjectAccessDeps {
  pages: AppPageStore;
  hasher: PasswordHasher;
  audit: Pick<AuditLog, "record">;
  clock: Clock;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 12 base62 characters ≈ 71 bits: the share keys' strength, above the 60 an unguessable address needs. */
const SECRET_CHARS = 12;

/**
 * A slug: a readable prefix from the project's name (ASCII letters and digits, at most 24
 * characters, so a tester sees which app a link is for) and 12 random base62 characters, which
 * alone make it unguessable: the name adds no secrecy and needs none.
 */
export function newSlug(projectName: string): string {
  const prefix = projectName
    .normalize("NFKD")
    // Accents come apart from their letters: "Démo" reads "demo".
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 24)
    .replace(/-+$/, "");
  let secret = "";
  for (let i = 0; i < SECRET_CHARS; i++) secret += BASE62[randomInt(62)];
  return prefix ? `${prefix}-${secret}` : secret;
}

/** What newSlug makes; anything else names no page and costs no read. */
export const APP_SLUG = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*-)?[A-Za-z0-9]{12}$/;
export const isAppSlug = (value: string | undefined): value is string => value !== undefined && value.length <= 40 && APP_SLUG.test(value);

export const appPageUrl = (bases: Pick<LinkBases, "shareBaseUrl">, slug: string) => `${bases.shareBaseUrl}/apps/${slug}`;

function view(page: AppPageState | undefined, bases: LinkBases): AppPageView {
  return {
    enabled: page?.enabled ?? false,
    url: page?.enabled ? appPageUrl(bases, page.slug) : null,
    passwordProtected: page?.passwordHash !== undefined,
  };
}

/** GET /api/projects/{projectId}/app-page (workspace.read). */
export async function getAppPage(deps: AppPageSettingsDeps, actor: Actor, input: { projectId: string }, bases: LinkBases): Promise<AppPageView> {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "workspace.read");
  const stored = await deps.pages.project(project.workspaceId, project.projectId);
  if (!stored) throw projectNotFound();
  return view(stored.appPage, bases);
}

/**
 * PUT /api/projects/{projectId}/app-page (projects.manage): on or off, a password set (a string),
 * removed (null) or kept (omitted), and `regenerate` for a new address. The first publish makes
 * the slug; a new password or a new slug also makes a new token secret, so whoever was let in
 * before is out at once. The settings and the slug's lookup item change in one transaction that
 * holds only while the project is active and its slug is still the one read (a concurrent change
 * answers 409 rather than leave two live addresses).
 */
export async function updateAppPage(
  deps: AppPageSettingsDeps,
  actor: Actor,
  input: { projectId: string } & AppPageSettings,
  bases: LinkBases,
): Promise<AppPageView> {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "projects.manage");
  if (project.status !== "active") throw projectNotFound();
  const stored = await deps.pages.project(project.workspaceId, project.projectId);
  if (!stored || stored.status !== "active") throw projectNotFound();
  const current = stored.appPage;
  const regenerated = current === undefined || input.regenerate === true;
  const next: AppPageState = { enabled: input.enabled, slug: regenerated ? newSlug(project.name) : current.slug };
  const passwordHash =
    input.password === undefined ? current?.passwordHash : input.password === null ? undefined : await deps.hasher.hash(input.password.normalize("NFKC"));
  if (passwordHash) next.passwordHash = passwordHash;
  const freshSecret = regenerated || input.password !== undefined || !current?.tokenSecret;
  next.tokenSecret = freshSecret ? newTokenSecret() : current!.tokenSecret!;
  if (!(await deps.pages.save(stored, next, current?.slug))) {
    const again = await deps.pages.project(project.workspaceId, project.projectId);
    if (!again || again.status !== "active") throw projectNotFound();
    throw new ConflictError("already_exists", "The app page changed meanwhile; load it again and retry");
  }
  await recordChange(deps, actor, {
    workspaceId: project.workspaceId,
    action: "project.app_page_update",
    target: { type: "project", id: project.projectId, label: project.name },
    // What changed, never a password or the address (the log is readable by admins, the address is the page's only secret).
    details: {
      enabled: next.enabled,
      ...(input.password !== undefined ? { password: input.password === null ? "removed" : "set" } : {}),
      ...(regenerated && current !== undefined ? { regenerated: true } : {}),
      ...(current === undefined ? { created: true } : {}),
    },
  });
  return view(next, bases);
}
