import { fromEnv } from "@aws-sdk/credential-provider-env";
import { Hash } from "@smithy/hash-node";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import { DependencyError } from "../errors/domain-errors";
import type { WebhookQueue, WebhookTask } from "../ports/webhooks.port";

/** SQS delays a message at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;

/**
 * The webhook queue on AWS: one SigV4-signed `SendMessage` (SQS's JSON protocol) per task. Signed
 * by hand like S3UrlSigner rather than through @aws-sdk/client-sqs, so publishing an event adds
 * no SDK client to the bundles of the functions that publish (complete among them: its cold start
 * is on every CI upload's path); the signer is already in those bundles.
 */
export class SqsWebhookQueue implements WebhookQueue {
  private readonly signer: SignatureV4;
  private readonly url: URL;

  constructor(
    private readonly queueUrl: string,
    region: string,
    credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider = fromEnv(),
  ) {
    this.url = new URL(queueUrl);
    this.signer = new SignatureV4({ service: "sqs", region, credentials, sha256: Hash.bind(null, "sha256") });
  }

  async send(task: WebhookTask & { notBefore?: string }, delaySeconds: number): Promise<void> {
    const body = JSON.stringify({
      QueueUrl: this.queueUrl,
      MessageBody: JSON.stringify(task),
      DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.round(delaySeconds))),
    });
    const request = new HttpRequest({
      method: "POST",
      protocol: "https:",
      hostname: this.url.hostname,
      path: "/",
      headers: { host: this.url.hostname, "content-type": "application/x-amz-json-1.0", "x-amz-target": "AmazonSQS.SendMessage" },
      body,
    });
    const signed = await this.signer.sign(request);
    let response: Response;
    try {
      response = await fetch(`https://${this.url.hostname}/`, { method: "POST", headers: signed.headers, body, signal: AbortSignal.timeout(5000) });
    } catch (error) {
      throw new DependencyError("sqs", "Could not reach SQS", { cause: error });
    }
    if (!response.ok) throw new DependencyError("sqs", `SQS SendMessage answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  }
}
