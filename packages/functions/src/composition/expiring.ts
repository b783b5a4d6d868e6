import type { ExpiringDeps } from "@hangar/core";
import { DynamoFileCatalog } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * The expiring-builds route's reads (the dashboard's banner), apart from expiry.ts: that module
 * composes the daily run's mailer, and the files function that serves this route must not carry
 * mail or Lambda code (stacks/test/bundles.test.ts).
 */
export const expiringDeps = once((): ExpiringDeps => {
  const runtime = getRuntime();
  return {
    workspaces: workspaceCatalog(),
    projects: runtime.projects,
    files: new DynamoFileCatalog(runtime.db, runtime.settings.HANGAR_TABLE_NAME, () => runtime.clock.now()),
    clock: runtime.clock,
  };
});
