import type { AuditDeps } from "@hangar/core";
import { DynamoStageSecret, DynamoUserRepository } from "@hangar/core/dynamo";
import { auditLog } from "./audit-log";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * What the audit function reads: the caller's membership (the access check), the log, the
 * actors' user items (their current address) and the stage's cursor secret. Table reads only:
 * no mailer, no S3 client.
 */
export const auditDeps = once((): AuditDeps => {
  const { db, settings } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    workspaces: workspaceCatalog(),
    audit: auditLog(),
    users: new DynamoUserRepository(db, table),
    cursorSecret: new DynamoStageSecret(db, table, "cursor"),
  };
});
