import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";

let lambda: LambdaClient | undefined;

/**
 * An asynchronous invocation (InvocationType Event) of a function with a JSON payload. Its own
 * module, imported dynamically on the first long delete: tree-shaken to InvokeCommand, and not
 * evaluated at any other cold start.
 */
export async function invokeAsync(functionName: string, payload: unknown): Promise<void> {
  lambda ??= new LambdaClient({});
  await lambda.send(new InvokeCommand({ FunctionName: functionName, InvocationType: "Event", Payload: new TextEncoder().encode(JSON.stringify(payload)) }));
}
