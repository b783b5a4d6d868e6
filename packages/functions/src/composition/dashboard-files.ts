import type { DashboardDeps } from "@hangar/core";
import type { ShareLinks } from "@hangar/core/links";
import { linkRuntime } from "./links";
import { dashboardBaseDeps } from "./dashboard-base";
import { lazyPurger } from "./lazy-purger";
import { once } from "./once";

/**
 * The files function's ports: the table's adapters, the purger of a file's objects and the share
 * links (the file page shows its link's settings and counts). No background tasks (a file's
 * delete finishes in the request), so this function's bundle carries no Lambda client; the
 * projects function adds them (dashboard.ts).
 */
export const fileDeps = once(
  (): Omit<DashboardDeps, "background"> & { links: { links: ShareLinks } } => ({
    ...dashboardBaseDeps(),
    objects: lazyPurger(),
    links: { links: linkRuntime().links },
  }),
);
