import type { Stack } from "aws-cdk-lib";
import { NagSuppressions, type NagPackSuppression } from "cdk-nag";
import type { IConstruct } from "constructs";

/**
 * Findings of cdk-nag (AwsSolutions, Serverless) accepted on purpose, each with its reason, on
 * the narrowest construct and, for wildcards, the exact resource. Anything else fails the stack
 * tests (stacks/test/nag.test.ts) and `npm run synth`.
 */

/** The logs-only managed policy every Lambda role of CDK/SST gets. */
const BASIC_EXECUTION_ROLE: NagPackSuppression = {
  id: "AwsSolutions-IAM4",
  reason: "AWSLambdaBasicExecutionRole only lets the function write its own CloudWatch logs.",
  appliesTo: ["Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"],
};

/** The one wildcard our functions have: objects under the uploads prefix (object keys are per upload). */
const UPLOADS_OBJECTS: NagPackSuppression = {
  id: "AwsSolutions-IAM5",
  reason: "Objects are keyed per upload (uploads/<project>/<file>/<name>); the grant is the exact actions on that prefix only.",
  appliesTo: [{ regex: "/^Resource::<UploadsBucket[A-Za-z0-9]+\\.Arn>\\/uploads\\/\\*$/g" }],
};

/** Tracing is off on purpose (stacks/app-defaults.ts). */
const NO_TRACING: NagPackSuppression = {
  id: "Serverless-LambdaTracing",
  reason: "No X-Ray tracer in the code: active tracing would only add xray:* grants and cost; requests are traced by id in the logs.",
};

/**
 * Our Lambda functions. HTTP ones are invoked synchronously by API Gateway; the ones also invoked
 * asynchronously (`background`: a self-invocation, a schedule, SNS) have an on-failure
 * destination in their event invoke config, which the rule does not look at.
 */
export function suppressHttpFunction(fn: IConstruct, background = false): void {
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      BASIC_EXECUTION_ROLE,
      UPLOADS_OBJECTS,
      NO_TRACING,
      {
        id: "Serverless-LambdaDLQ",
        reason: background
          ? "Asynchronous invocations go to the BackgroundFailures queue after two retries (an on-failure destination, the successor of a DLQ, which this rule does not read); synchronous ones are answered to the caller."
          : "Invoked synchronously by API Gateway: a failure is the caller's answer, there is no event to park.",
      },
    ],
    true,
  );
}

export function suppressReaper(fn: IConstruct): void {
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      BASIC_EXECUTION_ROLE,
      UPLOADS_OBJECTS,
      NO_TRACING,
      {
        id: "Serverless-LambdaDLQ",
        reason: "Invoked by a stream event source mapping, whose on-failure destination (an SQS queue) is configured on the mapping.",
      },
    ],
    true,
  );
}

/** The webhook delivery function: fed by an SQS event source whose queue has its own dead-letter queue. */
export function suppressWebhookDelivery(fn: IConstruct): void {
  NagSuppressions.addResourceSuppressions(
    fn,
    [
      BASIC_EXECUTION_ROLE,
      NO_TRACING,
      {
        id: "Serverless-LambdaDLQ",
        reason: "Invoked by an SQS event source mapping: a message that keeps failing goes to the queue's redrive target (WebhookDeadLetters, alarmed).",
      },
      {
        id: "Serverless-LambdaEventSourceMappingDestination",
        reason: "An SQS event source takes no on-failure destination: the queue's redrive policy (WebhookDeadLetters after five receives, alarmed) is where failed messages go.",
      },
    ],
    true,
  );
}

/** Ids of the custom-resource providers CDK and SST add to stacks (not code of this repository). */
const PROVIDER_ID = /^(CustomResourceHandler|Custom::|AWS679f53fac002430cb0da5b7982bd2287)/;

/**
 * The custom-resource providers CDK and SST put in a stack (auto-delete of objects, bucket
 * deployment, SST's metadata): their code, runtime and IAM are the libraries', not ours. Call it
 * last in a stack function, once every provider exists.
 */
export function suppressProviders(stack: Stack): void {
  for (const child of stack.node.children) {
    if (!PROVIDER_ID.test(child.node.id)) continue;
    NagSuppressions.addResourceSuppressions(
      child,
      [
        { id: "AwsSolutions-IAM4", reason: "A CDK/SST custom-resource provider: logs-only managed policy chosen by the library." },
        { id: "AwsSolutions-IAM5", reason: "A CDK/SST custom-resource provider: the library scopes its grants to the bucket it manages." },
        { id: "AwsSolutions-L1", reason: "A CDK/SST custom-resource provider: the library pins its runtime." },
        { id: "Serverless-LambdaLatestVersion", reason: "A CDK/SST custom-resource provider: the library pins its runtime." },
        { id: "Serverless-LambdaDLQ", reason: "Invoked synchronously by CloudFormation, which reports failures." },
        { id: "Serverless-LambdaDefaultMemorySize", reason: "A CDK/SST custom-resource provider: the library's sizing." },
        { id: "Serverless-LambdaTracing", reason: "A CDK/SST custom-resource provider: no tracing." },
      ],
      true,
    );
  }
}

/**
 * An SST Script and its user function (the migration: ours, with explicit table grants and no
 * tracing). The Script's `ScriptHandler` is SST's custom-resource provider (code, runtime and IAM
 * the library's). Both are invoked synchronously (CloudFormation, then the provider), which
 * reports a failure as the deploy's.
 */
export function suppressScript(script: IConstruct, fn: IConstruct): void {
  const synchronous = { id: "Serverless-LambdaDLQ", reason: "Invoked synchronously by the Script's custom resource: a failure fails the deploy, there is no event to park." };
  NagSuppressions.addResourceSuppressions(fn, [BASIC_EXECUTION_ROLE, NO_TRACING, synchronous], true);
  NagSuppressions.addResourceSuppressions(
    script,
    [
      { id: "AwsSolutions-IAM4", reason: "The Script's provider (SST's custom-resource function): logs-only managed policy chosen by the library." },
      { id: "AwsSolutions-IAM5", reason: "The Script's provider (SST's custom-resource function): the library scopes its grants." },
      { id: "AwsSolutions-L1", reason: "The Script's provider (SST's custom-resource function): the library pins its runtime." },
      { id: "Serverless-LambdaLatestVersion", reason: "The Script's provider (SST's custom-resource function): the library pins its runtime." },
      { id: "Serverless-LambdaDefaultMemorySize", reason: "The Script's provider (SST's custom-resource function): the library's sizing." },
      { id: "Serverless-LambdaTracing", reason: "The Script's provider (SST's custom-resource function): no tracing." },
      synchronous,
    ],
    true,
  );
}
