import type { DashboardDeps } from "@hangar/core";
import { DynamoAppPages } from "@hangar/core/app-pages";
import { DynamoFileCatalog, DynamoPendingDeletes, DynamoStageSecret, DynamoUsage, DynamoUserRepository } from "@hangar/core/dynamo";
import { auditLog } from "./audit-log";
import { eventPublisher } from "./events";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/** The dashboard's adapters that only read and write the table: everything but deletes. */
export type DashboardBaseDeps = Omit<DashboardDeps, "objects" | "background">;

/**
 * What the keys function needs, and what the files and projects functions build their deletes
 * on (dashboard-files.ts, dashboard.ts). Apart so the keys function bundles no S3 or Lambda client.
 */
export const dashboardBaseDeps = once((): DashboardBaseDeps => {
  const runtime = getRuntime();
  const { settings, db } = runtime;
  const table = settings.HANGAR_TABLE_NAME;
  return {
    projects: runtime.projects,
    keys: runtime.apiKeys,
    files: new DynamoFileCatalog(db, table, () => runtime.clock.now()),
    // Reading usage works whether or not counting is on.
    usage: runtime.usage ?? new DynamoUsage(db, table),
    signer: runtime.signer,
    pendingDeletes: new DynamoPendingDeletes(db, table),
    clock: runtime.clock,
    ids: runtime.ids,
    cursorSecret: new DynamoStageSecret(db, table, "cursor"),
    workspaces: workspaceCatalog(),
    // Who created a key, by id (the key list's createdBy).
    users: new DynamoUserRepository(db, table),
    audit: auditLog(),
    // A project's purge removes its app page's address and its update tokens (issue 20).
    appPages: new DynamoAppPages(db, table),
    events: eventPublisher(),
  };
});
