import type { BuildMailJob, MailQueue } from "@hangar/core/distribution";

/**
 * The build-mail queue of the local stack (no SQS there): jobs wait in this process's memory until
 * the local stack's sender (local-mail-sender.ts, started by packages/local beside the delete
 * sweep) takes them. A module of its own, with no mail code, so the functions that queue mail
 * (distribution, complete) bundle nothing of the sender; on AWS HANGAR_BUILD_MAIL_QUEUE_URL is
 * always set and this is never used.
 *
 * Memory only: a job queued when `npm start` stops is lost with the process; its recipient stays
 * `queued`, and the next distribution of the build queues it again (distribute-build.ts).
 */
const waiting: BuildMailJob[] = [];
let listener: (() => void) | undefined;

export const inProcessMailQueue: MailQueue = {
  enqueue: async (jobs) => {
    waiting.push(...jobs);
    listener?.();
  },
};

/** The sender's side: the next job, if any, and a callback for new ones (one consumer). */
export const inProcessMailChannel = {
  take: (): BuildMailJob | undefined => waiting.shift(),
  putBack: (job: BuildMailJob) => waiting.push(job),
  size: () => waiting.length,
  onEnqueue: (callback: (() => void) | undefined) => {
    listener = callback;
  },
};
