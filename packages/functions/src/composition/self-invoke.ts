import { awsRequest } from "@hangar/core/aws-json";

/**
 * An asynchronous invocation (InvocationType Event) of a function with a JSON payload: Lambda's
 * Invoke as one signed request (core's aws/aws-json-call.ts) rather than through
 * @aws-sdk/client-lambda (~100 KB minified in the bundles of accounts and projects,
 * for this one call). Lambda answers 202 once it has queued the event; its own retries and the
 * on-failure destination take it from there. Imported dynamically on the first background task.
 */
export async function invokeAsync(functionName: string, payload: unknown, options: { region: string; endpoint?: string }): Promise<void> {
  const { region } = options;
  await awsRequest({
    service: "lambda",
    region,
    endpoint: options.endpoint ?? `https://lambda.${region}.amazonaws.com${region.startsWith("cn-") ? ".cn" : ""}`,
    path: `/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
    headers: { "content-type": "application/json", "x-amz-invocation-type": "Event" },
    body: JSON.stringify(payload),
  });
}
