import type { WorkspaceCatalog } from "@hangar/core";
import { DynamoWorkspaceCatalog } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * Workspaces and memberships on the shared table: what every access check reads (core's
 * workspaceAccess / projectAccess) in the dashboard functions, the dashboard uploads and
 * account deletion. A module of its own so a function that only checks access bundles nothing more.
 */
export const workspaceCatalog = once((): WorkspaceCatalog => {
  const { db, settings } = getRuntime();
  return new DynamoWorkspaceCatalog(db, settings.HANGAR_TABLE_NAME);
});
