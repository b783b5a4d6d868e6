import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import { AwsServiceError, awsJsonCall } from "../aws/aws-json-call";
import { DependencyError } from "../errors/domain-errors";
import type { WebhookQueue, WebhookTask } from "../ports/webhooks.port";

/** SQS delays a message at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;

/**
 * The webhook queue on AWS: one SigV4-signed `SendMessage` (SQS's JSON protocol) per task, through
 * awsJsonCall rather than @aws-sdk/client-sqs, so publishing an event adds no SDK client to the
 * bundles of the functions that publish (complete among them: its cold start is on every CI
 * upload's path). One attempt: a failed send is the publisher's to retry or log, as it always was.
 */
export class SqsWebhookQueue implements WebhookQueue {
  private readonly endpoint: string;

  constructor(
    private readonly queueUrl: string,
    private readonly region: string,
    private readonly credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider,
  ) {
    // The queue URL's origin is the region's SQS endpoint (a test's local server: its own origin).
    this.endpoint = new URL(queueUrl).origin;
  }

  async send(task: WebhookTask & { notBefore?: string }, delaySeconds: number): Promise<void> {
    try {
      await awsJsonCall({
        service: "sqs",
        region: this.region,
        endpoint: this.endpoint,
        target: "AmazonSQS.SendMessage",
        jsonVersion: "1.0",
        input: {
          QueueUrl: this.queueUrl,
          MessageBody: JSON.stringify(task),
          DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.round(delaySeconds))),
        },
        attempts: 1,
        ...(this.credentials ? { credentials: this.credentials } : {}),
      });
    } catch (error) {
      if (error instanceof AwsServiceError) throw new DependencyError("sqs", `SQS SendMessage answered ${error.status}: ${error.message.slice(0, 200)}`, { cause: error });
      throw new DependencyError("sqs", "Could not reach SQS", { cause: error });
    }
  }
}
