import { DependencyError } from "@hangar/core";
import { awsJsonCall } from "@hangar/core/aws-json";
import type { BuildMailJob, MailQueue } from "@hangar/core/distribution";

interface SendMessageBatchResult {
  Failed?: { Id: string; Code?: string }[];
}

/**
 * The build-mail queue on AWS: one SQS message per mail (SendMessageBatch, 10 per call, in
 * parallel), consumed by the distribution-mail function at SES's rate. One message per mail, not
 * per distribution: a failing address is retried (and dead-lettered) alone. Each batch is one
 * signed call of SQS's JSON protocol (aws-json-call.ts), as the webhook queue's sends are: no SQS
 * client in the bundles of complete and distribution.
 */
export class SqsMailQueue implements MailQueue {
  private readonly endpoint: string;

  constructor(
    private readonly region: string,
    private readonly queueUrl: string,
  ) {
    this.endpoint = new URL(queueUrl).origin;
  }

  async enqueue(jobs: readonly BuildMailJob[]): Promise<void> {
    const batches: BuildMailJob[][] = [];
    for (let i = 0; i < jobs.length; i += 10) batches.push(jobs.slice(i, i + 10));
    try {
      await Promise.all(
        batches.map(async (batch) => {
          const out = await awsJsonCall<SendMessageBatchResult>({
            service: "sqs",
            region: this.region,
            endpoint: this.endpoint,
            target: "AmazonSQS.SendMessageBatch",
            jsonVersion: "1.0",
            input: { QueueUrl: this.queueUrl, Entries: batch.map((job, i) => ({ Id: String(i), MessageBody: JSON.stringify(job) })) },
          });
          if ((out.Failed ?? []).length > 0) throw new Error(`SQS refused ${out.Failed!.length} messages`);
        }),
      );
    } catch (error) {
      // The recipients stay `queued`: a second distribution of the build queues them again.
      throw new DependencyError("mail", `Build mails could not be queued (${error instanceof Error ? error.name : "error"})`, { cause: error });
    }
  }
}
