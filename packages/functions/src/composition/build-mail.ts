import { DynamoMailSuppressions } from "@hangar/core/dynamo";
import { defaultBuildMailSettings, deliverBuildMail, type BuildMailDeps, type BuildMailJob } from "@hangar/core/distribution";
import { logger } from "../observability/logger";
import { lazyMailer } from "./accounts";
import { distributionSecrets, distributionStore } from "./distribution";
import { once } from "./once";
import { getRuntime } from "./root";

/**
 * The build-mail sender's dependencies (the distribution-mail function on AWS, the local stack's
 * in-process sender): the mailer (SES, or SMTP locally) and what one mail reads. Kept apart from
 * composition/distribution.ts so the functions that only queue mail carry no mailer.
 */
export const buildMailDeps = once((): BuildMailDeps => {
  const { db, settings, files, clock } = getRuntime();
  return {
    distributions: distributionStore(),
    files,
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
