import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** The module the stack deploys behind its 15-minute EventBridge schedule. */
const SWEEP_HANDLER = "packages/functions/src/housekeeping/resume-deletes.handler.ts";

/** Every minute by default: often enough to see a lost delete finish while trying the stack. */
export const DEFAULT_SWEEP_SECONDS = 60;

/**
 * The local stack's stand-in for the resume-deletes schedule: the same handler, in this process,
 * on a timer. Runs are never concurrent (a slow sweep delays the next one), a failed run is
 * logged and the next one tries again, and the timer does not keep the process alive.
 */
export async function startDeleteSweep(options: { everySeconds: number; log: (line: string) => void }): Promise<{ close(): Promise<void> }> {
  if (!Number.isInteger(options.everySeconds) || options.everySeconds < 1 || options.everySeconds > 86_400) {
    throw new Error("HANGAR_DELETE_SWEEP_SECONDS must be a whole number of seconds from 1 to 86400");
  }
  // Imported after the handlers' environment is set, from the same file the API server loads its
  // handlers from, so the sweep shares their composition (one DynamoDB client, one settings parse).
  const { handler } = (await import(pathToFileURL(resolve(REPO_ROOT, SWEEP_HANDLER)).href)) as {
    handler: (event: Record<string, never>) => Promise<void>;
  };
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= handler({})
      .catch((error: unknown) => options.log(`Delete sweep failed: ${(error as Error).message}`))
      .finally(() => (running = undefined));
  }, options.everySeconds * 1000);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
