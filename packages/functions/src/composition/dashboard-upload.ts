import { dashboardUploader, type DashboardUploaderDeps, type RateLimitState, type Uploader } from "@hangar/core";
import type { SessionContext } from "../middleware/http-context";
import { once } from "./once";
import { getRuntime } from "./root";

/** The ports of dashboardUploader: the project catalog and the per-account upload rule of the one limiter. */
export const dashboardUploaderDeps = once((): DashboardUploaderDeps => {
  const { projects, limits, clock } = getRuntime();
  return { projects, rateLimiter: limits.rule("dashboardUpload"), clock };
});

/**
 * The caller of a dashboard upload route (`/api/projects/{projectId}/uploads…`): the session's own
 * active project, counted on the account's upload rule; the rate state goes on the context so the
 * answer carries the same RateLimit headers as an API key's.
 */
export async function uploaderOf(context: { session: SessionContext; params: { projectId: string }; rateLimit?: RateLimitState }): Promise<Uploader> {
  const { uploader, rateLimit } = await dashboardUploader(dashboardUploaderDeps(), context.session.userId, context.params);
  context.rateLimit = rateLimit;
  return uploader;
}
