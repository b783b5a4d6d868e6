import type { LinkDeps, LinkPasswordLimits, LinkVisitDeps } from "@hangar/core/links";
import { DynamoShareLinks } from "@hangar/core/links-dynamo";
import { ScryptPasswordHasher } from "@hangar/core/scrypt";
import { auditLog } from "./audit-log";
import { eventPublisher } from "./events";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * What the share, download and links functions add to the runtime: the share items with their
 * settings and counters, the link-password hasher and its limiters. Built lazily, once per container.
 */
export interface LinkRuntime {
  links: DynamoShareLinks;
  hasher: ScryptPasswordHasher;
  /** The link-password rules (core's limits/rate-rules.ts; checkLinkPassword explains them). */
  passwordLimits: LinkPasswordLimits;
}

export const linkRuntime = once((): LinkRuntime => {
  const { db, settings, clock, limits } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    links: new DynamoShareLinks(db, table, () => clock.now()),
    hasher: new ScryptPasswordHasher(),
    passwordLimits: {
      perClient: limits.rule("linkPassword"),
      perLinkClient: limits.rule("linkPasswordPerLink"),
      ceiling: limits.rule("linkPasswordCeiling"),
    },
  };
});

/** The owner-side use cases' dependencies (links function). */
export const linkDeps = once((): LinkDeps => {
  const runtime = getRuntime();
  const { links, hasher } = linkRuntime();
  return {
    files: runtime.files,
    projects: runtime.projects,
    workspaces: workspaceCatalog(),
    links,
    hasher,
    audit: auditLog(),
    clock: runtime.clock,
    ids: runtime.ids,
    events: eventPublisher(),
  };
});

/** The visitor-side use cases' dependencies (share and download functions, core's links/visit-link.ts). */
export const linkVisitDeps = once((): LinkVisitDeps => {
  const runtime = getRuntime();
  const { links, hasher, passwordLimits } = linkRuntime();
  return {
    links,
    signer: runtime.signer,
    hasher,
    clock: runtime.clock,
    limits: {
      sharePage: runtime.limits.rule("sharePage"),
      download: runtime.limits.rule("download"),
      downloadPerLink: runtime.limits.rule("downloadPerLink"),
      password: passwordLimits,
    },
    downloadExpiresSeconds: runtime.upload.downloadExpiresSeconds,
  };
});
