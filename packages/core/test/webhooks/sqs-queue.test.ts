import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hash } from "@smithy/hash-node";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DependencyError } from "../../src/errors/domain-errors";
import type { WebhookTask } from "../../src/ports/webhooks.port";
import { SqsWebhookQueue } from "../../src/webhooks/sqs-queue";

/** A stand-in for SQS on loopback: records each request with its raw body, answers from a script. */
interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  raw: string;
}
let server: Server;
let origin: string;
let seen: Seen[] = [];
let answers: { status: number; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, raw });
      const answer = answers.shift() ?? { status: 200, body: { MessageId: "m-1", MD5OfMessageBody: "x" } };
      res.writeHead(answer.status, { "content-type": "application/x-amz-json-1.0" }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: "token" };
const queue = () => new SqsWebhookQueue(`${origin}/123456789012/hangar-webhooks`, "eu-west-1", credentials);
const task: WebhookTask = { kind: "attempt", workspaceId: "ws_1", webhookId: "wh_1", deliveryId: "del_1" };

/** What SigV4 gives for the request as received: the signature a verifier (SQS) recomputes from the same secret. */
async function expectedAuthorization(request: Seen): Promise<string> {
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(String(request.headers.authorization))![1]!.split(";");
  const amzDate = String(request.headers["x-amz-date"]);
  const signingDate = new Date(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
  const url = new URL(request.path, origin);
  const signer = new SignatureV4({ service: "sqs", region: "eu-west-1", credentials, sha256: Hash.bind(null, "sha256") });
  const signed = await signer.sign(
    new HttpRequest({
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      headers: Object.fromEntries(signedHeaders.map((name) => [name, String(request.headers[name])])),
      body: request.raw,
    }),
    { signingDate },
  );
  return String(signed.headers.authorization);
}

describe("SqsWebhookQueue", () => {
  it("sends one SendMessage to the queue's endpoint, signed with SigV4 for SQS in the queue's region", async () => {
    await queue().send(task, 30.4);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/");
    expect(request!.headers["x-amz-target"]).toBe("AmazonSQS.SendMessage");
    expect(request!.headers["content-type"]).toBe("application/x-amz-json-1.0");
    expect(request!.headers["x-amz-security-token"]).toBe("token");
    expect(JSON.parse(request!.raw)).toEqual({ QueueUrl: `${origin}/123456789012/hangar-webhooks`, MessageBody: JSON.stringify(task), DelaySeconds: 30 });
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/sqs\/aws4_request, SignedHeaders=\S*host\S*x-amz-target\S*, Signature=[0-9a-f]{64}$/);
    expect(request!.headers.authorization).toBe(await expectedAuthorization(request!));
  });

  it("keeps the delay within what SQS accepts (0 to 15 minutes)", async () => {
    await queue().send(task, -5);
    await queue().send(task, 3600);
    expect(seen.map((r) => (JSON.parse(r.raw) as { DelaySeconds: number }).DelaySeconds)).toEqual([0, 900]);
  });

  it("makes one attempt: a refusal or a server error is a DependencyError for the publisher, not retried here", async () => {
    answers = [{ status: 400, body: { __type: "com.amazonaws.sqs#QueueDoesNotExist", message: "The specified queue does not exist." } }];
    const refused = await queue().send(task, 0).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DependencyError);
    expect((refused as Error).message).toBe("SQS SendMessage answered 400: The specified queue does not exist.");
    answers = [{ status: 500, body: { __type: "InternalError" } }];
    await expect(queue().send(task, 0)).rejects.toBeInstanceOf(DependencyError);
    expect(seen).toHaveLength(2);
  });

  it("answers a DependencyError when SQS cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await new SqsWebhookQueue(`http://127.0.0.1:${port}/1/q`, "eu-west-1", credentials).send(task, 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toBe("Could not reach SQS");
  });
});
