import { DynamoInstallRecords, type InstallHistoryDeps, type PersonalLinkDeps } from "@hangar/core/installs";
import { DynamoFileCatalog } from "@hangar/core/dynamo";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * What the installs function adds to the runtime (docs/testers.md): install links and records in
 * the table, the file records, the signer for package and icon GETs, and the share routes'
 * per-client rules. No mailer, no S3 client beyond the signer, no password hasher: a personal link
 * has no password.
 */
const installRecords = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoInstallRecords(db, settings.HANGAR_TABLE_NAME);
});

/** The personal install pages (`/install/{token}…`). */
export const personalLinkDeps = once((): PersonalLinkDeps => {
  const runtime = getRuntime();
  return {
    installs: installRecords(),
    files: runtime.files,
    signer: runtime.signer,
    clock: runtime.clock,
    limits: { page: runtime.limits.rule("sharePage"), download: runtime.limits.rule("download") },
    downloadExpiresSeconds: runtime.upload.downloadExpiresSeconds,
  };
});

/** Who installed what (the dashboard's session routes). */
export const installHistoryDeps = once((): InstallHistoryDeps => {
  const runtime = getRuntime();
  return {
    installs: installRecords(),
    files: new DynamoFileCatalog(runtime.db, runtime.settings.HANGAR_TABLE_NAME, () => runtime.clock.now()),
    projects: runtime.projects,
    workspaces: workspaceCatalog(),
  };
});
