import { DependencyError } from "@hangar/core";
import type { BuildMailJob } from "@hangar/core/distribution";
import { runBuildMailJob } from "../composition/build-mail";
import { getRuntime } from "../composition/root";
import { inProcessMailChannel } from "./in-process-mail-queue";

/**
 * The local stack's build-mail sender: what the distribution-mail function does on AWS (core's
 * deliverBuildMail: claim, send, settle, on the same table), in this long-lived process, at
 * HANGAR_BUILD_MAIL_PER_SECOND mails per second: one job starts every 1/rate seconds, at most
 * `rate` in flight. A send that fails (MailDev down) is retried after 1, 2, 4, 8 s as SQS would
 * redeliver it; the recipient's attempt count ends it as `failed` after that.
 */
export function startLocalMailSender(log: (line: string) => void): { close(): Promise<void> } {
  const perSecond = getRuntime().settings.HANGAR_BUILD_MAIL_PER_SECOND;
  const retries = new Map<BuildMailJob, number>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const send = (job: BuildMailJob) => {
    const run = runBuildMailJob(job)
      .catch((error: unknown) => {
        const attempt = retries.get(job) ?? 0;
        if (error instanceof DependencyError && attempt < 4 && !closed) {
          retries.set(job, attempt + 1);
          setTimeout(() => {
            inProcessMailChannel.putBack(job);
            start();
          }, 1000 * 2 ** attempt).unref();
          return;
        }
        retries.delete(job);
        log(`Build mail failed: ${(error as Error).message}`);
      })
      .finally(() => running.delete(run));
    running.add(run);
  };

  const tick = () => {
    if (inProcessMailChannel.size() === 0 || closed) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    if (running.size >= perSecond) return;
    send(inProcessMailChannel.take()!);
  };

  function start() {
    if (timer || closed || inProcessMailChannel.size() === 0) return;
    timer = setInterval(tick, Math.max(1, Math.floor(1000 / perSecond)));
    timer.unref();
  }

  inProcessMailChannel.onEnqueue(start);
  start();
  return {
    close: async () => {
      closed = true;
      inProcessMailChannel.onEnqueue(undefined);
      clearInterval(timer);
      await Promise.all(running);
    },
  };
}
