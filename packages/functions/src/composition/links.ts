import type { LinkDeps, LinkVisitDeps, LinkVisitLimits } from "@hangar/core/links";
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
  /** A visitor's per-client rules and the link-password rules (core's limits/rate-rules.ts), the app page's too. */
  visitLimits: LinkVisitLimits;
}

export const linkRuntime = once((): LinkRuntime => {
  const { db, settings, clock, limits } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    links: new DynamoShareLinks(db, table, () => clock.now()),
    hasher: new ScryptPasswordHasher(),
    visitLimits: {
      sharePage: limits.rule("sharePage"),
      download: limits.rule("download"),
      downloadPerLink: limits.rule("downloadPerLink"),
      // checkLinkPassword explains these.
      password: { perClient: limits.rule("linkPassword"), perLinkClient: limits.rule("linkPasswordPerLink"), ceiling: limits.rule("linkPasswordCeiling") },
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
  const { links, hasher, visitLimits } = linkRuntime();
  return {
    links,
    signer: runtime.signer,
    hasher,
    clock: runtime.clock,
    limits: visitLimits,
    downloadExpiresSeconds: runtime.upload.downloadExpiresSeconds,
  };
});
