import { DependencyError } from "@hangar/core";
import type { BuildMailJob, MailQueue } from "@hangar/core/distribution";
import { logger } from "../observability/logger";

/**
 * The local stack's build-mail queue: the same sender step as the distribution-mail function on
 * AWS (core's deliverBuildMail, with its claim, lease and settle on the same table), run in this
 * long-lived process at `perSecond` mails per second: one job starts every 1/perSecond seconds,
 * with at most `perSecond` in flight. A send that fails (MailDev down) is retried after 1, 2, 4,
 * 8 s, as SQS would redeliver it; the claim's attempt count ends it as `failed` after that.
 *
 * What it does not have that SQS has: the queue is memory. A job queued when `npm start` stops is
 * lost with it; its recipient stays `queued`, and the next distribution of the build queues it
 * again (distribute-build.ts re-queues `queued` copies). Good enough for a development stack.
 */
export class LocalMailQueue implements MailQueue {
  private readonly pending: { job: BuildMailJob; attempt: number }[] = [];
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly perSecond: number,
    private readonly deliver: (job: BuildMailJob) => Promise<unknown>,
  ) {}

  async enqueue(jobs: readonly BuildMailJob[]): Promise<void> {
    for (const job of jobs) this.pending.push({ job, attempt: 0 });
    this.start();
  }

  private start(): void {
    if (this.timer || this.pending.length === 0) return;
    this.timer = setInterval(() => this.tick(), Math.max(1, Math.floor(1000 / this.perSecond)));
    // The local stack keeps running on its own; a test's process must be free to exit.
    this.timer.unref();
  }

  private tick(): void {
    if (this.pending.length === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    if (this.inFlight >= this.perSecond) return;
    const next = this.pending.shift()!;
    this.inFlight++;
    this.deliver(next.job)
      .catch((error: unknown) => {
        if (error instanceof DependencyError && next.attempt < 4) {
          setTimeout(() => {
            this.pending.push({ job: next.job, attempt: next.attempt + 1 });
            this.start();
          }, 1000 * 2 ** next.attempt).unref();
          return;
        }
        logger.error("build mail failed", { error: error as Error, fileId: next.job.fileId });
      })
      .finally(() => this.inFlight--);
  }
}
