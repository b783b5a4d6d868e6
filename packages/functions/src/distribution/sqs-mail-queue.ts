import { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DependencyError } from "@hangar/core";
import type { BuildMailJob, MailQueue } from "@hangar/core/distribution";

/**
 * The build-mail queue on AWS: one SQS message per mail (SendMessageBatch, 10 per call, in
 * parallel), consumed by the distribution-mail function at SES's rate. One message per mail, not
 * per distribution: a failing address is retried (and dead-lettered) alone.
 */
export class SqsMailQueue implements MailQueue {
  private readonly client: SQSClient;

  constructor(
    region: string,
    private readonly queueUrl: string,
  ) {
    this.client = new SQSClient({ region });
  }

  async enqueue(jobs: readonly BuildMailJob[]): Promise<void> {
    const batches: BuildMailJob[][] = [];
    for (let i = 0; i < jobs.length; i += 10) batches.push(jobs.slice(i, i + 10));
    try {
      await Promise.all(
        batches.map(async (batch) => {
          const out = await this.client.send(
            new SendMessageBatchCommand({
              QueueUrl: this.queueUrl,
              Entries: batch.map((job, i) => ({ Id: String(i), MessageBody: JSON.stringify(job) })),
            }),
          );
          if ((out.Failed ?? []).length > 0) throw new Error(`SQS refused ${out.Failed!.length} messages`);
        }),
      );
    } catch (error) {
      // The recipients stay `queued`: a second distribution of the build queues them again.
      throw new DependencyError("mail", `Build mails could not be queued (${error instanceof Error ? error.name : "error"})`, { cause: error });
    }
  }
}
