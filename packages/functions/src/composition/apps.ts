import {
  DynamoAppPages,
  DynamoUpdateTokens,
  type AppPageSettingsDeps,
  type AppVisitDeps,
  type LatestUpdateDeps,
  type UpdateCheckDeps,
  type UpdateTokenDeps,
} from "@hangar/core/app-pages";
import { DynamoFileCatalog } from "@hangar/core/dynamo";
import { auditLog } from "./audit-log";
import { linkRuntime } from "./links";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * The apps function's composition (issue 20, docs/testers.md "The app page and the update
 * check"): the app pages and update tokens on the table, the project's files newest first, and
 * the share links' hasher, limiters and counters (an app page's password and downloads behave
 * like a share link's). Built lazily, once per container.
 */
const stores = once(() => {
  const { db, settings, clock } = getRuntime();
  const table = settings.HANGAR_TABLE_NAME;
  return {
    pages: new DynamoAppPages(db, table),
    tokens: new DynamoUpdateTokens(db, table),
    files: new DynamoFileCatalog(db, table, () => clock.now()),
  };
});

/** The project's files newest first (also the share page's newer-build notice). */
export const projectFiles = () => stores().files;

/** GET|PUT /api/projects/{projectId}/app-page. */
export const appPageSettingsDeps = once((): AppPageSettingsDeps => {
  const runtime = getRuntime();
  return {
    projects: runtime.projects,
    workspaces: workspaceCatalog(),
    pages: stores().pages,
    hasher: linkRuntime().hasher,
    audit: auditLog(),
    clock: runtime.clock,
  };
});

/** `/apps/{slug}` and what it links to. */
export const appVisitDeps = once((): AppVisitDeps => {
  const runtime = getRuntime();
  const { links, hasher, visitLimits } = linkRuntime();
  return {
    pages: stores().pages,
    files: stores().files,
    counters: links,
    signer: runtime.signer,
    hasher,
    clock: runtime.clock,
    limits: visitLimits,
    downloadExpiresSeconds: runtime.upload.downloadExpiresSeconds,
  };
});

/** The update tokens' list, create and revoke. */
export const updateTokenDeps = once((): UpdateTokenDeps => {
  const runtime = getRuntime();
  return { projects: runtime.projects, workspaces: workspaceCatalog(), tokens: stores().tokens, audit: auditLog(), clock: runtime.clock };
});

/** The updateToken auth kind's middleware. */
export const updateCheckDeps = once((): UpdateCheckDeps => {
  const runtime = getRuntime();
  return { tokens: stores().tokens, limit: runtime.limits.rule("updateCheck"), clock: runtime.clock };
});

/** GET /api/updates/latest. */
export const latestUpdateDeps = once((): LatestUpdateDeps => ({ files: stores().files, clock: getRuntime().clock }));
