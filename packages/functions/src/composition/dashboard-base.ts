import type { DashboardDeps } from "@hangar/core";
import { DynamoFileCatalog, DynamoPendingDeletes, DynamoStageSecret, DynamoUsage } from "@hangar/core/dynamo";
import { getRuntime } from "./root";

/** The dashboard's adapters that only read and write the table: everything but deletes. */
export type DashboardBase = Omit<DashboardDeps, "objects" | "background">;

let base: DashboardBase | undefined;

/**
 * What the keys function needs, and what the projects and files functions build their deletes on
 * (composition/dashboard.ts). Apart so the keys function bundles no S3 or Lambda client.
 */
export function getDashboardBase(): DashboardBase {
  if (base) return base;
  const runtime = getRuntime();
  const { settings, db } = runtime;
  const table = settings.HANGAR_TABLE_NAME;
  base = {
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
  };
  return base;
}
