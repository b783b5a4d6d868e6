import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** The module the stack deploys behind its daily EventBridge schedule. */
const DAILY_HANDLER = "packages/functions/src/housekeeping/daily.handler.ts";

/** Once a day, as on AWS. */
export const DEFAULT_DAILY_SECONDS = 86_400;

type DailyModule = typeof import("../../../functions/src/housekeeping/daily.handler");

/** Imported when first used: after the handlers' environment is set, like the delete sweep's handler. */
const load = async (): Promise<DailyModule> => (await import(pathToFileURL(resolve(REPO_ROOT, DAILY_HANDLER)).href)) as DailyModule;

/**
 * The explicit trigger of the daily housekeeping (retention, then expiry warnings) at the time
 * given: what the timer below runs, for tests and for a person who wants today's run now. It
 * runs in the calling process, against the table, bucket and mail the environment names (the
 * handlers' HANGAR_* settings, as the local stack sets them), so a test points its environment
 * at the stack it started and calls it with the `now` it needs. Not an HTTP route: nothing on
 * the network can make Hangar remove builds.
 */
export async function runDailyHousekeeping(now: Date = new Date()) {
  return (await load()).runDailyHousekeeping(now);
}

/**
 * The local stack's stand-in for the daily schedule: the same handler, in this process, once
 * when the stack starts (a stack started each morning still runs it) and then every
 * `everySeconds`. Runs never overlap, a failed run is logged and the next one tries again, and
 * the timer does not keep the process alive.
 */
export async function startDailyHousekeeping(options: { everySeconds: number; log: (line: string) => void }): Promise<{ close(): Promise<void> }> {
  if (!Number.isInteger(options.everySeconds) || options.everySeconds < 60 || options.everySeconds > 7 * 86_400) {
    throw new Error("HANGAR_DAILY_HOUSEKEEPING_SECONDS must be a whole number of seconds from 60 to 604800");
  }
  const { handler } = await load();
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= handler({})
      .catch((error: unknown) => options.log(`Daily housekeeping failed: ${(error as Error).message}`))
      .finally(() => (running = undefined));
  };
  const first = setTimeout(run, 1000);
  first.unref();
  const timer = setInterval(run, options.everySeconds * 1000);
  timer.unref();
  return {
    close: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
