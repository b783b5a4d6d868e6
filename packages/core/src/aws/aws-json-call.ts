import { fromEnv } from "@aws-sdk/credential-provider-env";
import { Hash } from "@smithy/hash-node";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";

/**
 * One call of an AWS service that speaks the JSON protocol (`X-Amz-Target`, a JSON body), or one
 * signed POST of a REST service (Lambda's asynchronous Invoke), signed with SigV4 by hand, as
 * S3UrlSigner signs URLs. The functions make four such calls, each with one request shape:
 * Secrets Manager's GetSecretValue (the origin secret, once per container), SQS's
 * SendMessageBatch (the build mails) and SendMessage (webhook events, SqsWebhookQueue), and
 * Lambda's Invoke (background tasks). A
 * whole SDK client for each put 35 KB (Secrets Manager, in every HTTP function's bundle), 35 KB
 * (SQS, in complete's and distribution's) and 100 KB (Lambda, in accounts' and projects') into
 * cold starts; the signer is already in those bundles.
 *
 * What the SDK client would do and matters here is kept: credentials from the environment (the
 * only provider a bundled function has, stacks/bundling.ts), up to three attempts on throttling,
 * 5xx and network errors with jittered backoff, and a failure named by the service's error type
 * (`ResourceNotFoundException`…), as the SDK's exception names it.
 */
export interface AwsJsonCall {
  /** The signing name: `secretsmanager`, `sqs`. */
  service: string;
  region: string;
  /** `https://secretsmanager.us-east-1.amazonaws.com` (a test's local server: any http(s) origin). */
  endpoint: string;
  /** `X-Amz-Target`: `secretsmanager.GetSecretValue`, `AmazonSQS.SendMessageBatch`. */
  target: string;
  /** The protocol's version: `1.1` for Secrets Manager, `1.0` for SQS. */
  jsonVersion: "1.0" | "1.1";
  input: unknown;
  /** Defaults to the environment (on Lambda: the function role's session credentials). */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Per attempt; 5 s by default. */
  timeoutMs?: number;
  /** 3 by default; 1 where the caller retries the whole task itself (a webhook send). */
  attempts?: number;
}

/** The service's answer to a refused call, named as the SDK names its exceptions. */
export class AwsServiceError extends Error {
  constructor(
    name: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = name;
  }
}

const MAX_ATTEMPTS = 3;
const signers = new Map<string, SignatureV4>();

/** The SigV4 signer of a service in a region: the environment's credentials (shared), or the ones given. */
export function signerFor(call: Pick<AwsRequest, "service" | "region" | "credentials">): SignatureV4 {
  // Credentials given explicitly (tests) get their own signer; the environment's is shared.
  if (call.credentials) return new SignatureV4({ service: call.service, region: call.region, credentials: call.credentials, sha256: Hash.bind(null, "sha256") });
  const key = `${call.service}/${call.region}`;
  let signer = signers.get(key);
  if (!signer) signers.set(key, (signer = new SignatureV4({ service: call.service, region: call.region, credentials: fromEnv(), sha256: Hash.bind(null, "sha256") })));
  return signer;
}

/** `com.amazonaws.sqs#QueueDoesNotExist` or `ResourceNotFoundException` → the short name. */
const errorName = (type: unknown): string => (typeof type === "string" && type ? type.slice(type.lastIndexOf("#") + 1).split(":")[0]! : "UnknownError");

// DynamoDB throttles with 400 ProvisionedThroughputExceededException (document-client.ts), as the SDK retries it.
const retryable = (error: unknown): boolean =>
  !(error instanceof AwsServiceError) || error.status >= 500 || error.status === 429 || /Throttl|TooManyRequests|RequestLimitExceeded|ProvisionedThroughputExceeded/.test(error.name);

const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2000, 100 * 2 ** attempt)));

/** One signed request to an AWS endpoint: what the JSON-protocol call and a REST call (Lambda's Invoke) share. */
export interface AwsRequest {
  service: string;
  region: string;
  /** The endpoint's origin: `https://lambda.us-east-1.amazonaws.com` (a test's local server: any http(s) origin). */
  endpoint: string;
  /** Already URI-encoded, as the SDK builds it; signed as SigV4 says for services other than S3. */
  path: string;
  headers: Record<string, string>;
  body: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** Per attempt; 5 s by default. */
  timeoutMs?: number;
  /** 3 by default (throttling, 5xx and network errors are retried). */
  attempts?: number;
}

async function attempt(call: AwsRequest, signer: SignatureV4): Promise<{ status: number; text: string }> {
  const url = new URL(call.endpoint);
  const request = new HttpRequest({
    method: "POST",
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: call.path,
    headers: { host: url.host, ...call.headers },
    body: call.body,
  });
  const signed = await signer.sign(request);
  const response = await fetch(new URL(call.path, url), { method: "POST", headers: signed.headers, body: call.body, signal: AbortSignal.timeout(call.timeoutMs ?? 5000) });
  const text = await response.text();
  if (!response.ok) throw serviceErrorOf(call.service, response.status, text, response.headers.get("x-amzn-errortype"));
  return { status: response.status, text };
}

/**
 * A JSON-protocol service's refusal as the SDK's exception would carry it: named by the body's
 * `__type` (or the `x-amzn-errortype` header), its message, and the body's other fields
 * (DynamoDB's `CancellationReasons`, a failed condition's `Item`). A body that is not JSON (a
 * proxy's page) is named by the status alone.
 */
export function serviceErrorOf(service: string, status: number, text: string, errorType?: string | null): AwsServiceError {
  let answer: Record<string, unknown> = {};
  try {
    answer = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not JSON: named by the status below.
  }
  const { __type: type, message, Message, ...fields } = answer;
  const said = typeof message === "string" ? message : typeof Message === "string" ? Message : `${service} answered ${status}`;
  return Object.assign(new AwsServiceError(errorName(type ?? errorType), said, status), fields);
}

/**
 * Runs one attempt of a call up to `attempts` times (three by default), as the SDK's standard retry
 * strategy does: again after throttling, a 5xx or a network error (anything but an AwsServiceError
 * below 500), with jittered backoff; a refusal is thrown at once. Every signed call retries this way
 * (the JSON calls here, S3's object calls in adapters/s3/s3-request.ts).
 */
export async function withRetries<T>(run: () => Promise<T>, attempts = MAX_ATTEMPTS): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await run();
    } catch (error) {
      if (tries >= attempts || !retryable(error)) throw error;
      await pause(tries);
    }
  }
}

/** Sends the request (up to three attempts); the answer's status and text, or throws (an AwsServiceError when the service refused). */
export async function awsRequest(call: AwsRequest): Promise<{ status: number; text: string }> {
  const signer = signerFor(call);
  return withRetries(() => attempt(call, signer), call.attempts);
}

/** Calls the service; the answer's JSON, or throws (an AwsServiceError when the service refused). */
export async function awsJsonCall<T>(call: AwsJsonCall): Promise<T> {
  const { target, jsonVersion, input, ...request } = call;
  const { status, text } = await awsRequest({
    ...request,
    path: "/",
    headers: { "content-type": `application/x-amz-json-${jsonVersion}`, "x-amz-target": target },
    body: JSON.stringify(input),
  });
  try {
    return (text ? JSON.parse(text) : {}) as T;
  } catch {
    throw new AwsServiceError("SerializationException", `${target} answered a body that is not JSON`, status);
  }
}
