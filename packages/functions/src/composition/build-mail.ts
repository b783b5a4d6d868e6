import { DynamoMailSuppressions } from "@hangar/core/dynamo";
import { defaultBuildMailSettings, deliverBuildMail, type BuildMailDeps, type BuildMailJob } from "@hangar/core/distribution";
import { logger } from "../observability/logger";
import { lazyMailer } from "./accounts";
import { distributionSecrets, distributionStore } from "./distribution";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * Reads that every mail of one distribution repeats (the build, the distribution), kept for a few
 * seconds: a thousand mails of one build read them once a few seconds instead of a thousand times.
 * What changes matters only as "deleted": a build deleted within the window is still announced,
 * and its install link answers 410 (the mail cannot be recalled a second later either).
 */
function briefly<A extends unknown[], T>(read: (...args: A) => Promise<T>, ms = 5000): (...args: A) => Promise<T> {
  const kept = new Map<string, { at: number; value: Promise<T> }>();
  return (...args: A) => {
    const key = JSON.stringify(args);
    const now = Date.now();
    const hit = kept.get(key);
    if (hit && now - hit.at < ms) return hit.value;
    if (kept.size > 1000) kept.clear();
    const value = read(...args);
    kept.set(key, { at: now, value });
    value.catch(() => kept.delete(key));
    return value;
  };
}

/**
 * The build-mail sender's dependencies (the distribution-mail function on AWS, the local stack's
 * in-process sender): the mailer (SES, or SMTP locally) and what one mail reads. Kept apart from
 * composition/distribution.ts so the functions that only queue mail carry no mailer.
 */
export const buildMailDeps = once((): BuildMailDeps => {
  const { db, settings, files, clock } = getRuntime();
  const store = distributionStore();
  return {
    distributions: Object.assign(Object.create(store) as typeof store, { getDistribution: briefly(store.getDistribution.bind(store)) }),
    files: { get: briefly((fileId: string) => files.get(fileId)) },
    mailer: lazyMailer(settings),
    suppressions: new DynamoMailSuppressions(db, settings.HANGAR_TABLE_NAME),
    installLinkSecret: distributionSecrets().installLink,
    unsubscribeSecret: distributionSecrets().unsubscribe,
    clock,
    settings: defaultBuildMailSettings,
  };
});

/** Sends one job and logs what became of it (never the address). */
export async function runBuildMailJob(job: BuildMailJob): Promise<void> {
  const outcome = await deliverBuildMail(buildMailDeps(), job);
  if (outcome !== "sent" && outcome !== "skipped") logger.info("build mail not sent", { outcome, fileId: job.fileId });
}
