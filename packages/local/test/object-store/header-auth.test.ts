import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Sha256 } from "@aws-crypto/sha256-js";
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import { CREDENTIALS, REGION, objectExists, s3Client, s3ErrorOf, startStoreFixture, type StoreFixture } from "./object-store-fixture";
import { errorCode, rawRequest } from "./raw-http";

let f: StoreFixture;
const bucket = "header-signed";

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(() => f.dispose());

const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** Signs with the SDK's own signer but leaves the headers (and therefore the tampering) up to the test. */
async function signedRequest(options: {
  method: string;
  key: string;
  headers: Record<string, string>;
  signingDate?: Date;
  secretAccessKey?: string;
}) {
  const url = new URL(f.store.url);
  const path = `/${bucket}/${options.key}`;
  const signer = new SignatureV4({
    service: "s3",
    region: REGION,
    credentials: { ...CREDENTIALS, secretAccessKey: options.secretAccessKey ?? CREDENTIALS.secretAccessKey },
    sha256: Sha256,
    uriEscapePath: false,
    applyChecksum: false,
  });
  const signed = await signer.sign(
    new HttpRequest({ method: options.method, protocol: "http:", hostname: url.hostname, port: Number(url.port), path, headers: { host: url.host, ...options.headers } }),
    options.signingDate ? { signingDate: options.signingDate } : {},
  );
  return { url: `${f.store.url}${path}`, headers: signed.headers };
}

const exists = (key: string) => objectExists(f.client, bucket, key);

describe("Authorization header", () => {
  it("accepts a correctly signed PUT with a SHA-256 payload hash and defaults the content type like S3", async () => {
    const body = Buffer.from("signed body");
    const req = await signedRequest({
      method: "PUT",
      key: "ok/file",
      headers: { "content-length": String(body.length), "x-amz-content-sha256": sha256Hex(body) },
    });
    const res = await rawRequest(req.url, { method: "PUT", headers: req.headers, body });
    expect(res.status).toBe(200);
    const head = await f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: "ok/file" }));
    expect(head.ContentType).toBe("binary/octet-stream");
  });

  it("refuses a body whose SHA-256 differs from x-amz-content-sha256 and writes nothing", async () => {
    const body = Buffer.from("the real body");
    const req = await signedRequest({
      method: "PUT",
      key: "sha/mismatch",
      headers: { "content-length": String(body.length), "x-amz-content-sha256": sha256Hex("another body!") },
    });
    const res = await rawRequest(req.url, { method: "PUT", headers: req.headers, body });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("XAmzContentSHA256Mismatch");
    expect(await exists("sha/mismatch")).toBe(false);
  });

  it("refuses a signed header changed after signing", async () => {
    const body = Buffer.from("x");
    const req = await signedRequest({
      method: "PUT",
      key: "tampered/header",
      headers: { "content-length": "1", "x-amz-content-sha256": sha256Hex(body), "x-amz-meta-build": "1" },
    });
    const res = await rawRequest(req.url, { method: "PUT", headers: { ...req.headers, "x-amz-meta-build": "2" }, body });
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("SignatureDoesNotMatch");
  });

  it.each([
    ["20 minutes behind", -20],
    ["20 minutes ahead", 20],
  ])("refuses a request signed %s with RequestTimeTooSkewed", async (_label, minutes) => {
    const req = await signedRequest({
      method: "GET",
      key: "ok/file",
      headers: { "x-amz-content-sha256": sha256Hex("") },
      signingDate: new Date(Date.now() + minutes * 60 * 1000),
    });
    const res = await rawRequest(req.url, { method: "GET", headers: req.headers });
    expect(res.status).toBe(403);
    expect(errorCode(res.body)).toBe("RequestTimeTooSkewed");
  });

  it("requires x-amz-content-sha256", async () => {
    const req = await signedRequest({ method: "GET", key: "ok/file", headers: {} });
    const res = await rawRequest(req.url, { method: "GET", headers: req.headers });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe("InvalidRequest");
  });

  it("answers 411 to a PUT without Content-Length", async () => {
    const req = await signedRequest({
      method: "PUT",
      key: "no-length",
      headers: { "transfer-encoding": "chunked", "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
    });
    const res = await rawRequest(req.url, { method: "PUT", headers: req.headers, body: Buffer.from("abc") });
    expect(res.status).toBe(411);
    expect(errorCode(res.body)).toBe("MissingContentLength");
    expect(await exists("no-length")).toBe(false);
  });

  it("answers 501 to signed streaming payloads", async () => {
    const req = await signedRequest({
      method: "PUT",
      key: "signed-streaming",
      headers: {
        "content-length": "10",
        "content-encoding": "aws-chunked",
        "x-amz-decoded-content-length": "3",
        "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
      },
    });
    const res = await rawRequest(req.url, { method: "PUT", headers: req.headers, body: Buffer.from("0123456789") });
    expect(res.status).toBe(501);
    expect(errorCode(res.body)).toBe("NotImplemented");
  });

  it("decodes an unsigned aws-chunked body and checks its trailer checksum", async () => {
    const data = Buffer.from("hello aws-chunked world");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data));
    const framed = (checksum: string) =>
      Buffer.concat([
        Buffer.from(`5\r\n`), data.subarray(0, 5), Buffer.from(`\r\n`),
        Buffer.from(`${(data.length - 5).toString(16)}\r\n`), data.subarray(5), Buffer.from(`\r\n`),
        Buffer.from(`0\r\nx-amz-checksum-crc32:${checksum}\r\n\r\n`),
      ]);
    const send = async (key: string, body: Buffer) => {
      const req = await signedRequest({
        method: "PUT",
        key,
        headers: {
          "content-length": String(body.length),
          "content-encoding": "aws-chunked",
          "x-amz-decoded-content-length": String(data.length),
          "x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
          "x-amz-trailer": "x-amz-checksum-crc32",
        },
      });
      return rawRequest(req.url, { method: "PUT", headers: req.headers, body });
    };

    expect((await send("chunked/good", framed(crc.toString("base64")))).status).toBe(200);
    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "chunked/good" }));
    expect(await get.Body!.transformToString()).toBe(data.toString());
    expect(get.ContentEncoding).toBeUndefined();

    const bad = await send("chunked/bad", framed("AAAAAA=="));
    expect(bad.status).toBe(400);
    expect(errorCode(bad.body)).toBe("BadDigest");
    expect(await exists("chunked/bad")).toBe(false);
  });
});

describe("SDK-made requests", () => {
  it("checks Content-MD5", async () => {
    const body = "md5 checked";
    const good = createHash("md5").update(body).digest("base64");
    const bad = createHash("md5").update("something else").digest("base64");
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "md5/good", Body: body, ContentMD5: good }));
    const error = await s3ErrorOf(f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "md5/bad", Body: body, ContentMD5: bad })));
    expect(error.name).toBe("BadDigest");
    expect(error.$metadata.httpStatusCode).toBe(400);
    expect(await exists("md5/bad")).toBe(false);
  });

  it("refuses a client with the wrong secret", async () => {
    const wrong = s3Client(f.store.url, { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: "wrong-secret" });
    const error = await s3ErrorOf(wrong.send(new PutObjectCommand({ Bucket: bucket, Key: "wrong", Body: "x" })));
    expect(error.name).toBe("SignatureDoesNotMatch");
    expect(error.$metadata.httpStatusCode).toBe(403);
    wrong.destroy();
    expect(await exists("wrong")).toBe(false);
  });

  it("refuses an unknown access key", async () => {
    const stranger = s3Client(f.store.url, { accessKeyId: "STRANGERKEY000000000", secretAccessKey: "whatever" });
    const error = await s3ErrorOf(stranger.send(new GetObjectCommand({ Bucket: bucket, Key: "ok/file" })));
    expect(error.name).toBe("InvalidAccessKeyId");
    stranger.destroy();
  });

  it("accepts a client on default checksum settings: CRC32 header for buffers, aws-chunked trailer for streams", async () => {
    const defaults = new S3Client({ region: REGION, endpoint: f.store.url, forcePathStyle: true, credentials: CREDENTIALS });
    await defaults.send(new PutObjectCommand({ Bucket: bucket, Key: "defaults/buffer", Body: Buffer.from("buffer body") }));
    const streamed = Buffer.alloc(200_000, 7);
    await defaults.send(
      new PutObjectCommand({ Bucket: bucket, Key: "defaults/stream", Body: Readable.from([streamed.subarray(0, 70_000), streamed.subarray(70_000)]), ContentLength: streamed.length }),
    );
    const buffer = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "defaults/buffer" }));
    expect(await buffer.Body!.transformToString()).toBe("buffer body");
    const stream = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "defaults/stream" }));
    expect(Buffer.from(await stream.Body!.transformToByteArray()).equals(streamed)).toBe(true);
    defaults.destroy();
  });
});
