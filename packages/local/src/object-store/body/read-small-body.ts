import { createHash } from "node:crypto";
import { header, type AuthorizedExchange } from "../exchange";
import { S3Error, notImplemented } from "../s3-error";
import { SUPPORTED_CHECKSUMS, createChecksum } from "./checksums";

/**
 * Reads a small request document (a bucket configuration, a CompleteMultipartUpload part list) into memory
 * and checks it against what the request declared: signed SHA-256, Content-MD5, flexible checksums.
 * `maxBytes` bounds the memory a client can make the store hold.
 */
export async function readSmallVerifiedBody(x: AuthorizedExchange, maxBytes: number): Promise<Buffer> {
  const declaredHash = x.auth.payloadHash;
  if (declaredHash.startsWith("STREAMING-")) {
    throw notImplemented("The local object store takes XML request documents as plain (non aws-chunked) bodies.");
  }
  const body = await readSmallBody(x, maxBytes);
  if (/^[0-9a-f]{64}$/i.test(declaredHash) && createHash("sha256").update(body).digest("hex") !== declaredHash.toLowerCase()) {
    throw new S3Error(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }
  const md5 = header(x, "content-md5");
  if (md5 !== undefined && createHash("md5").update(body).digest("base64") !== md5.trim()) {
    throw new S3Error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.");
  }
  for (const algorithm of SUPPORTED_CHECKSUMS) {
    const expected = header(x, `x-amz-checksum-${algorithm}`);
    if (expected === undefined) continue;
    const checksum = createChecksum(algorithm);
    checksum.update(body);
    if (checksum.digestBase64() !== expected.trim()) {
      throw new S3Error(400, "BadDigest", `The ${algorithm.toUpperCase()} you specified did not match the calculated checksum.`);
    }
  }
  return body;
}

async function readSmallBody(x: AuthorizedExchange, maxBytes: number): Promise<Buffer> {
  const declared = Number(header(x, "content-length") ?? Number.NaN);
  if (!(declared >= 0)) throw new S3Error(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  if (declared > maxBytes) {
    throw new S3Error(400, "MaxMessageLengthExceeded", "Your request was too big.");
  }
  if (x.expectContinue) x.res.writeContinue();
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of x.req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > declared) throw new S3Error(400, "IncompleteBody", "The request body is longer than its Content-Length.");
    chunks.push(chunk);
  }
  if (length !== declared) throw new S3Error(400, "IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header.");
  return Buffer.concat(chunks);
}
