import type { WorkspaceDeps } from "@hangar/core";
import { DynamoUserRepository } from "@hangar/core/dynamo";
import { auditLog } from "./audit-log";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * The workspaces function's ports: the workspace catalog, the user items members are listed with,
 * the audit log. Table only (no S3, no mail).
 */
export const workspaceDeps = once((): WorkspaceDeps => {
  const runtime = getRuntime();
  const table = runtime.settings.HANGAR_TABLE_NAME;
  return {
    workspaces: workspaceCatalog(),
    users: new DynamoUserRepository(runtime.db, table),
    audit: auditLog(),
    clock: runtime.clock,
  };
});
