import type { DashboardDeps, ObjectPurger } from "@hangar/core";
import type { ShareLinks } from "@hangar/core/links";
import { getLinkRuntime } from "../links/link-runtime";
import { dashboardBaseDeps } from "./dashboard-base";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The S3 client is only for deletes (presigned GETs need none), so it and the purger are imported
 * on the first delete: listing builds, keys and usage never evaluate the S3 SDK at cold start.
 */
function lazyPurger(): ObjectPurger {
  const purger = once(async () => (await import("./object-purger")).s3ObjectPurger(getRuntime().settings));
  return { purgePrefix: async (prefix) => (await purger()).purgePrefix(prefix) };
}

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
    links: { links: getLinkRuntime().links },
  }),
);
