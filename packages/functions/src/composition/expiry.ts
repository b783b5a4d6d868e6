import type { ExpiryRunDeps, ExpiryUnsubscribeDeps } from "@hangar/core";
import { UNSUBSCRIBE_SECRET } from "@hangar/core/distribution";
import { DynamoExpiryWarnings, DynamoFileCatalog, DynamoMailSuppressions, DynamoStageSecret, DynamoUserRepository } from "@hangar/core/dynamo";
import { lazyMailer } from "./accounts";
import { once } from "./once";
import { getRuntime } from "./root";
import { workspaceCatalog } from "./workspace-catalog";

/**
 * Expiry warnings (issue 24 item 4, docs/release-safety.md): the daily run's ports (the
 * housekeeping function: table, mail), the dashboard's list of what expires soon (the files
 * function: table reads) and the mail's unsubscribe page (the distribution function, which serves
 * the build mail's). The opt-out link is MAC'd under the build mail's `unsubscribe` stage secret,
 * with a domain prefix of its own (core's expiry-mail.ts).
 */
const store = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoExpiryWarnings(db, settings.HANGAR_TABLE_NAME);
});

const unsubscribeSecret = once(() => {
  const { db, settings } = getRuntime();
  return new DynamoStageSecret(db, settings.HANGAR_TABLE_NAME, UNSUBSCRIBE_SECRET);
});

export const expiryRunDeps = once((): ExpiryRunDeps => {
  const runtime = getRuntime();
  const { db, settings } = runtime;
  const table = settings.HANGAR_TABLE_NAME;
  return {
    store: store(),
    files: new DynamoFileCatalog(db, table, () => runtime.clock.now()),
    workspaces: workspaceCatalog(),
    users: new DynamoUserRepository(db, table),
    mailer: lazyMailer(settings),
    suppressions: new DynamoMailSuppressions(db, table),
    unsubscribeSecret: unsubscribeSecret(),
    clock: runtime.clock,
    // A scheduled run has no request to take a host from: without a configured public URL the
    // mail names the build's page instead of linking it (as the webhook-disabled mail does).
    publicBaseUrl: settings.HANGAR_PUBLIC_URL ?? "",
  };
});

export const expiryUnsubscribeDeps = once((): ExpiryUnsubscribeDeps => {
  const runtime = getRuntime();
  return {
    secret: unsubscribeSecret(),
    store: store(),
    users: new DynamoUserRepository(runtime.db, runtime.settings.HANGAR_TABLE_NAME),
    clock: runtime.clock,
  };
});
