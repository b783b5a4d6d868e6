import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** The local stand-in of the SQS-triggered delivery function (docs/webhooks.md). */
const WORKER_MODULE = "packages/functions/src/webhooks/local-worker.ts";

/** A quarter of a second: a test event reaches a local receiver at once, and the table barely notices. */
export const WEBHOOK_POLL_MS = 250;

/**
 * The local stack's webhook delivery worker: the functions' own delivery code, in this process,
 * polling the table's queue partition on a timer (on AWS, SQS triggers a function instead). Like
 * the delete sweep, polls never overlap, a failed poll is logged and the next one tries again,
 * and the timer does not keep the process alive.
 */
export async function startWebhookWorker(options: { log: (line: string) => void; everyMs?: number }): Promise<{ close(): Promise<void> }> {
  // Imported after the handlers' environment is set, like the delete sweep's handler.
  const { localWebhookWorker } = (await import(pathToFileURL(resolve(REPO_ROOT, WORKER_MODULE)).href)) as typeof import("../../../functions/src/webhooks/local-worker");
  const worker = localWebhookWorker();
  let polling: Promise<void> | undefined;
  const timer = setInterval(() => {
    polling ??= worker
      .tick()
      .catch((error: unknown) => options.log(`Webhook worker failed: ${(error as Error).message}`))
      .finally(() => (polling = undefined));
  }, options.everyMs ?? WEBHOOK_POLL_MS);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await polling;
      await worker.idle();
    },
  };
}
