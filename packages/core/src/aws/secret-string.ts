import { awsJsonCall } from "./aws-json-call";

/**
 * A secret's string value by ARN: Secrets Manager's GetSecretValue in one signed call
 * (aws-json-call.ts), the region and partition taken from the ARN itself. For the few secrets a
 * function reads once per container (the origin secret, the enroll profile's signing identity,
 * the App Store Connect key), without carrying @aws-sdk/client-secrets-manager.
 */
export async function readSecretString(arn: string, options: { endpoint?: string } = {}): Promise<string> {
  // arn:<partition>:secretsmanager:<region>:<account>:secret:<name>
  const [, partition, , region] = arn.split(":");
  if (!partition || !region) throw new Error("not a Secrets Manager ARN");
  const answer = await awsJsonCall<{ SecretString?: string }>({
    service: "secretsmanager",
    region,
    endpoint: options.endpoint ?? `https://secretsmanager.${region}.amazonaws.com${partition === "aws-cn" ? ".cn" : ""}`,
    target: "secretsmanager.GetSecretValue",
    jsonVersion: "1.1",
    input: { SecretId: arn },
  });
  if (!answer.SecretString) throw new Error("the secret has no string value");
  return answer.SecretString;
}
