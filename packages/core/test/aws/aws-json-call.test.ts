import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AwsServiceError, awsJsonCall } from "../../src/aws/aws-json-call";
import { readSecretString } from "../../src/aws/secret-string";

/** A stand-in for an AWS JSON-protocol endpoint on loopback: records each request, answers from a script. */
interface Seen {
  headers: IncomingMessage["headers"];
  body: unknown;
}
let server: Server;
let endpoint: string;
let seen: Seen[] = [];
let answers: { status: number; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: JSON.parse(raw) });
      const answer = answers.shift() ?? { status: 200, body: {} };
      res.writeHead(answer.status, { "content-type": "application/x-amz-json-1.1" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token" };
const call = (input: unknown) =>
  awsJsonCall<{ SecretString?: string }>({ service: "secretsmanager", region: "eu-west-1", endpoint, target: "secretsmanager.GetSecretValue", jsonVersion: "1.1", input, credentials });

describe("a signed AWS JSON-protocol call", () => {
  it("posts the input as JSON with the target, the protocol's content type and a SigV4 signature for the service and region", async () => {
    answers = [{ status: 200, body: { SecretString: "s3cr3t" } }];
    expect(await call({ SecretId: "arn:aws:secretsmanager:eu-west-1:1:secret:x" })).toEqual({ SecretString: "s3cr3t" });
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.body).toEqual({ SecretId: "arn:aws:secretsmanager:eu-west-1:1:secret:x" });
    expect(request!.headers["x-amz-target"]).toBe("secretsmanager.GetSecretValue");
    expect(request!.headers["content-type"]).toBe("application/x-amz-json-1.1");
    expect(request!.headers["x-amz-security-token"]).toBe("token");
    expect(request!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/secretsmanager\/aws4_request, SignedHeaders=\S*host\S*x-amz-target\S*, Signature=[0-9a-f]{64}$/,
    );
  });

  it("names a refusal by the service's error type and does not retry it", async () => {
    answers = [{ status: 400, body: { __type: "com.amazonaws.sqs#QueueDoesNotExist", message: "The queue does not exist" } }];
    const error = await call({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AwsServiceError);
    expect(error).toMatchObject({ name: "QueueDoesNotExist", message: "The queue does not exist", status: 400 });
    expect(seen).toHaveLength(1);
  });

  it("retries throttling and server errors, three attempts in all", async () => {
    answers = [
      { status: 400, body: { __type: "ThrottlingException", message: "Rate exceeded" } },
      { status: 503, body: { __type: "ServiceUnavailable" } },
      { status: 200, body: { SecretString: "third time" } },
    ];
    expect(await call({})).toEqual({ SecretString: "third time" });
    seen = [];
    answers = [500, 500, 500, 200].map((status) => ({ status, body: { __type: "InternalFailure" } }));
    await expect(call({})).rejects.toMatchObject({ name: "InternalFailure", status: 500 });
    expect(seen).toHaveLength(3);
  });
});

describe("readSecretString", () => {
  it("reads the secret's string by ARN (signed for the ARN's region), and refuses a secret without one", async () => {
    const arn = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:origin-AbCdEf";
    const env = { ...process.env };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret" });
    try {
      answers = [{ status: 200, body: { ARN: arn, SecretString: "x".repeat(48) } }];
      expect(await readSecretString(arn, { endpoint })).toBe("x".repeat(48));
      expect(seen[0]!.body).toEqual({ SecretId: arn });
      expect(seen[0]!.headers.authorization).toContain("/eu-west-1/secretsmanager/aws4_request");
      answers = [{ status: 200, body: { ARN: arn, SecretBinary: "AAAA" } }];
      await expect(readSecretString(arn, { endpoint })).rejects.toThrow("the secret has no string value");
    } finally {
      process.env = env;
    }
  });
});
