import type { RetentionRunDeps } from "@hangar/core";
import { dashboardBaseDeps } from "./dashboard-base";
import { lazyPurger } from "./lazy-purger";
import { once } from "./once";

/**
 * The daily retention run's ports (housekeeping/daily-retention.ts): exactly what a person's
 * delete of a build uses (the files function's table adapters, audit log, webhook publisher and
 * object purger), so a build a policy removes goes the way a deleted one does.
 */
export const retentionDeps = once((): RetentionRunDeps => {
  const { projects, workspaces, files, audit, events, clock } = dashboardBaseDeps();
  return { projects, workspaces, files, audit, events, clock, objects: lazyPurger() };
});
