import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** The local form of the distribution-mail function (the SQS consumer on AWS). */
const SENDER_MODULE = "packages/functions/src/distribution/local-mail-sender.ts";

/**
 * The local stack's build-mail sender (docs/testers.md "Distribution and build mail"): drains the
 * in-process queue the handlers fill, at HANGAR_BUILD_MAIL_PER_SECOND, with the same claim and
 * lease on the table as on AWS. Imported after the handlers' environment is set, from the same
 * files the API server loads its handlers from, so it shares their queue and composition.
 */
export async function startBuildMailSender(options: { log: (line: string) => void }): Promise<{ close(): Promise<void> }> {
  const { startLocalMailSender } = (await import(pathToFileURL(resolve(REPO_ROOT, SENDER_MODULE)).href)) as {
    startLocalMailSender: (log: (line: string) => void) => { close(): Promise<void> };
  };
  return startLocalMailSender(options.log);
}
