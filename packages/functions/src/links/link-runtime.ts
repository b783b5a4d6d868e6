import { DynamoRateLimiter } from "@hangar/core/dynamo";
import type { LinkDeps } from "@hangar/core/links";
import { DynamoShareLinks } from "@hangar/core/links-dynamo";
import { ScryptPasswordHasher } from "@hangar/core/scrypt";
import { getRuntime } from "../composition/root";

/**
 * What the share, download and links functions add to the runtime: the share items with their
 * settings and counters, the link-password hasher and its limiters. Built lazily, once per container.
 */
export interface LinkRuntime {
  links: DynamoShareLinks;
  hasher: ScryptPasswordHasher;
  /** Wrong link passwords per link (a guessing attack on one link from many addresses). */
  perLink: DynamoRateLimiter;
  /** Password attempts per client address (one client trying many links). */
  perAddress: DynamoRateLimiter;
}

/** Ten tries per link and thirty per address in fifteen minutes: enough for typos, far too few to guess. */
export const PASSWORD_LIMITS = { perLink: 10, perAddress: 30, windowSeconds: 15 * 60 } as const;

let built: LinkRuntime | undefined;

export function getLinkRuntime(): LinkRuntime {
  if (built) return built;
  const { db, settings, clock } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  built = {
    links: new DynamoShareLinks(db, table, () => clock.now()),
    hasher: new ScryptPasswordHasher(),
    perLink: new DynamoRateLimiter(db, table, { limit: PASSWORD_LIMITS.perLink, windowSeconds: PASSWORD_LIMITS.windowSeconds }),
    perAddress: new DynamoRateLimiter(db, table, { limit: PASSWORD_LIMITS.perAddress, windowSeconds: PASSWORD_LIMITS.windowSeconds }),
  };
  return built;
}

/** The owner-side use cases' dependencies (links function). */
export function getLinkDeps(): LinkDeps {
  const runtime = getRuntime();
  const { links, hasher } = getLinkRuntime();
  return { files: runtime.files, projects: runtime.projects, links, hasher, clock: runtime.clock, ids: runtime.ids };
}
