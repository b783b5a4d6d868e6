import type { ObjectPurger } from "@hangar/core";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The purger of deletes (files and projects functions), imported on the first delete
 * (object-purger.ts): listing builds, keys and usage never evaluate the purge code at cold start.
 */
export function lazyPurger(): ObjectPurger {
  const purger = once(async () => (await import("./object-purger")).s3ObjectPurger(getRuntime().settings));
  return { purgePrefix: async (prefix) => (await purger()).purgePrefix(prefix) };
}
