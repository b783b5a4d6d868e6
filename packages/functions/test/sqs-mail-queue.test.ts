import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DependencyError } from "@hangar/core";
import type { BuildMailJob } from "@hangar/core/distribution";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqsMailQueue } from "../src/distribution/sqs-mail-queue";

/** SQS's JSON protocol on loopback: each SendMessageBatch is recorded; entries whose body names "refuse" fail. */
let server: Server;
let queueUrl: string;
const batches: { target: string | undefined; QueueUrl: string; Entries: { Id: string; MessageBody: string }[] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      const input = JSON.parse(raw) as (typeof batches)[number];
      batches.push({ ...input, target: req.headers["x-amz-target"] as string | undefined });
      const failed = input.Entries.filter((e) => e.MessageBody.includes("refuse")).map((e) => ({ Id: e.Id, Code: "InvalidMessageContents", SenderFault: true }));
      const successful = input.Entries.filter((e) => !e.MessageBody.includes("refuse")).map((e) => ({ Id: e.Id, MessageId: `m-${e.Id}` }));
      res.writeHead(200, { "content-type": "application/x-amz-json-1.0" }).end(JSON.stringify({ Successful: successful, Failed: failed }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  queueUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/123456789012/build-mail`;
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? "secret" });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const job = (n: number, note = ""): BuildMailJob => ({
  fileId: `f_${n}`,
  email: `tester${n}${note}@example.com`,
  publicBaseUrl: "https://hangar.example",
  shareBaseUrl: "https://share.hangar.example",
});

describe("the build-mail queue on SQS", () => {
  it("sends one message per mail, ten per SendMessageBatch, to the queue the stack named", async () => {
    batches.length = 0;
    const jobs = Array.from({ length: 23 }, (_, n) => job(n));
    await new SqsMailQueue("us-east-1", queueUrl).enqueue(jobs);
    expect(batches.map((b) => b.Entries.length).sort((a, b) => a - b)).toEqual([3, 10, 10]);
    expect(new Set(batches.map((b) => b.target))).toEqual(new Set(["AmazonSQS.SendMessageBatch"]));
    expect(new Set(batches.map((b) => b.QueueUrl))).toEqual(new Set([queueUrl]));
    const bodies = batches.flatMap((b) => b.Entries.map((e) => JSON.parse(e.MessageBody) as unknown));
    expect(bodies).toHaveLength(23);
    expect(bodies).toEqual(expect.arrayContaining(jobs));
  });

  it("fails as a DependencyError when SQS refuses a message (the recipients stay queued)", async () => {
    await expect(new SqsMailQueue("us-east-1", queueUrl).enqueue([job(1), job(2, "refuse")])).rejects.toBeInstanceOf(DependencyError);
  });
});
