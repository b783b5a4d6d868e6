import { dashboardUploader, type DashboardUploaderDeps, type RateLimitState, type Uploader } from "@hangar/core";
import type { ClientInfo } from "@hangar/core/accounts";
import type { SessionContext } from "../middleware/http-context";
import { actorOf } from "../middleware/actor";
import { once } from "./once";
import { workspaceCatalog } from "./workspace-catalog";
import { getRuntime } from "./root";

/** The ports of dashboardUploader: the project catalog, the memberships, and the per-account upload rule of the one limiter. */
export const dashboardUploaderDeps = once((): DashboardUploaderDeps => {
  const { projects, limits, clock } = getRuntime();
  return { projects, workspaces: workspaceCatalog(), rateLimiter: limits.rule("dashboardUpload"), clock };
});

/**
 * The caller of a dashboard upload route (`/api/projects/{projectId}/uploads…`): an active project
 * the session's user may upload to (builds.manage), counted on the account's upload rule; the rate
 * state goes on the context so the answer carries the same RateLimit headers as an API key's.
 */
export async function uploaderOf(context: {
  session: SessionContext;
  client?: ClientInfo;
  params: { projectId: string };
  rateLimit?: RateLimitState;
}): Promise<Uploader> {
  const { uploader, rateLimit } = await dashboardUploader(dashboardUploaderDeps(), actorOf(context), context.params);
  context.rateLimit = rateLimit;
  return uploader;
}
