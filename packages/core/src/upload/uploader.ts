/**
 * Who an upload is for: the project it goes to, its owner, and the API key that sent it. CI sends
 * with an API key (the key is the caller); the dashboard sends for its signed-in account, and
 * then no key is involved: `clientId` is DASHBOARD_UPLOADER, a value no key can have (client ids
 * are `[A-Za-z0-9_-]`), so the file is attributed to no key, counts on no key's usage, and the
 * dashboard shows it as uploaded from the dashboard.
 *
 * The dashboard's caller is built by dashboardUploader from the session's account: an active
 * project of a workspace where their role allows `builds.manage` (developer and above). A
 * project of a workspace they are not a member of answers 404 project_not_found exactly like the
 * other dashboard routes, a viewer 403 forbidden, and a project being deleted refuses new uploads
 * (409 project_deleting), as its revoked API keys do (401).
 */
import { ConflictError, RateLimitedError, type RateLimitState } from "../errors/domain-errors";
import type { ProjectRef } from "../dashboard/dashboard.schema";
import type { ApiKey, Clock, ProjectCatalog, RateLimiter, WorkspaceCatalog } from "../ports";
import type { Actor } from "../workspaces/actor";
import { projectAccess } from "../workspaces/project-access";

/**
 * Who an upload is for; `workspaceId` is absent only on API keys from before workspaces
 * (keyWorkspaceId). A dashboard upload also names its actor, for the audit log's build.uploaded.
 */
export type Uploader = Pick<ApiKey, "projectId" | "userId" | "clientId" | "workspaceId"> & { actor?: Actor };

/** The `clientId` of a file uploaded from the dashboard (no API key). */
export const DASHBOARD_UPLOADER = "(dashboard)";

export const isDashboardUpload = (file: { clientId: string }) => file.clientId === DASHBOARD_UPLOADER;

export interface DashboardUploaderDeps {
  projects: Pick<ProjectCatalog, "workspaceOf" | "get">;
  workspaces: Pick<WorkspaceCatalog, "membership">;
  /** The per-account upload rule (rate-rules.ts `dashboardUpload`). */
  rateLimiter: RateLimiter;
  clock: Clock;
}

/**
 * The caller of a dashboard upload request: an active project the account may upload to
 * (builds.manage), counted against the account's upload rate (one counter per account, as an
 * API key has one per key). The access check and the counter run together.
 */
export async function dashboardUploader(
  deps: DashboardUploaderDeps,
  actor: Actor,
  input: ProjectRef,
): Promise<{ uploader: Uploader; rateLimit: RateLimitState }> {
  const now = deps.clock.now();
  const { userId } = actor;
  const [{ project }, decision] = await Promise.all([
    projectAccess(deps, userId, input.projectId, "builds.manage"),
    deps.rateLimiter.hit(userId, now),
  ]);
  if (project.status !== "active") throw new ConflictError("project_deleting", "This project is being deleted");
  if (!decision.allowed) {
    throw new RateLimitedError(decision.state, Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000)));
  }
  return {
    uploader: { projectId: project.projectId, workspaceId: project.workspaceId, userId, clientId: DASHBOARD_UPLOADER, actor },
    rateLimit: decision.state,
  };
}
