/**
 * How the distribution-mail function keeps to SES's per-second quota R (HANGAR_BUILD_MAIL_PER_SECOND),
 * shared by the stack (which sizes the function and its event source) and the handler (which
 * paces itself), so the two cannot disagree:
 *
 * - at most `concurrency` = ceil(R / 10) instances run (reserved concurrency), so each one sends
 *   at most R / concurrency ≤ 10 mails per second, one after the other (an SES call takes about
 *   0.1 s, so one instance can keep 10/s);
 * - each instance waits `intervalMs` = 1000 × concurrency / R between the starts of two sends;
 * - it takes `batchSize` = min(10, ceil(R / concurrency)) messages per invocation: about one
 *   second of sending, so a throttled or failing batch returns to the queue quickly.
 *
 * R = 14 (SES production default): 2 instances, 7 mails/s each, batches of 7: 1,000 mails in
 * about 72 s. R = 1 (SES sandbox): 1 instance, 1/s, batches of 1.
 */
export function buildMailPace(perSecond: number): { concurrency: number; batchSize: number; intervalMs: number } {
  const rate = Math.max(1, Math.floor(perSecond));
  const concurrency = Math.ceil(rate / 10);
  return { concurrency, batchSize: Math.min(10, Math.ceil(rate / concurrency)), intervalMs: Math.ceil((1000 * concurrency) / rate) };
}

/** The build-mail queue's visibility timeout, and the function's timeout below it: a batch of 10 at 1/s, with room. */
export const BUILD_MAIL_TIMEOUT_SECONDS = 30;
/** Receives of one message before the dead-letter queue: about five leases of retrying a dead mail service. */
export const BUILD_MAIL_MAX_RECEIVES = 5;
