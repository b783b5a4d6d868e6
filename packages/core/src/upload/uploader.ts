/**
 * Who an upload is for: the project it goes to, its owner, and the API key that sent it. CI sends
 * with an API key (the key is the caller); the dashboard sends for its signed-in account, and
 * then no key is involved: `clientId` is DASHBOARD_UPLOADER, a value no key can have (client ids
 * are `[A-Za-z0-9_-]`), so the file is attributed to no key, counts on no key's usage, and the
 * dashboard shows it as uploaded from the dashboard.
 *
 * The dashboard's caller is built by dashboardUploader from the session's account: its own,
 * active project only. Another account's project answers 404 project_not_found exactly like the
 * other dashboard routes, and a project being deleted refuses new uploads (409 project_deleting),
 * as its revoked API keys do (401).
 */
import { ConflictError, RateLimitedError, type RateLimitState } from "../errors/domain-errors";
import { ownProject } from "../dashboard/projects";
import type { ProjectRef } from "../dashboard/dashboard.schema";
import type { ApiKey, Clock, ProjectCatalog, RateLimiter } from "../ports";

export type Uploader = Pick<ApiKey, "projectId" | "userId" | "clientId">;

/** The `clientId` of a file uploaded from the dashboard (no API key). */
export const DASHBOARD_UPLOADER = "(dashboard)";

export const isDashboardUpload = (file: { clientId: string }) => file.clientId === DASHBOARD_UPLOADER;

export interface DashboardUploaderDeps {
  projects: ProjectCatalog;
  /** The per-account upload rule (rate-rules.ts `dashboardUpload`). */
  rateLimiter: RateLimiter;
  clock: Clock;
}

/**
 * The caller of a dashboard upload request: the account's own active project, counted against
 * the account's upload rate (one counter per account, as an API key has one per key). The
 * project read and the counter run together. Teams do not exist yet, so the owner is the only
 * one who may upload; the teams issue will let developers and above do so.
 */
export async function dashboardUploader(
  deps: DashboardUploaderDeps,
  userId: string,
  input: ProjectRef,
): Promise<{ uploader: Uploader; rateLimit: RateLimitState }> {
  const now = deps.clock.now();
  const [project, decision] = await Promise.all([ownProject(deps, userId, input.projectId), deps.rateLimiter.hit(userId, now)]);
  if (project.status !== "active") throw new ConflictError("project_deleting", "This project is being deleted");
  if (!decision.allowed) {
    throw new RateLimitedError(decision.state, Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000)));
  }
  return { uploader: { projectId: project.projectId, userId, clientId: DASHBOARD_UPLOADER }, rateLimit: decision.state };
}
