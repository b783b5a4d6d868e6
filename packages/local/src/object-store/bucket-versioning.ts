import { createHash } from "node:crypto";
import { SUPPORTED_CHECKSUMS, createChecksum } from "./body/checksums";
import { header, type AuthorizedExchange } from "./exchange";
import { S3Error, notImplemented } from "./s3-error";
import { S3_XML_NAMESPACE, XML_DECLARATION } from "./xml";

/** A VersioningConfiguration document is a few hundred bytes; anything far larger is not one. */
const MAX_CONFIGURATION_BYTES = 64 * 1024;

const malformedXml = () =>
  new S3Error(400, "MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema");

/** GetBucketVersioning: an empty configuration until versioning was first set, as S3 answers. */
export async function getBucketVersioning(x: AuthorizedExchange, bucket: string): Promise<void> {
  const status = await x.storage.getVersioning(bucket);
  const body = Buffer.from(
    `${XML_DECLARATION}<VersioningConfiguration xmlns="${S3_XML_NAMESPACE}">` +
      (status ? `<Status>${status}</Status>` : "") +
      "</VersioningConfiguration>",
    "utf8",
  );
  x.res.statusCode = 200;
  x.res.setHeader("Content-Type", "application/xml");
  x.res.setHeader("Content-Length", String(body.length));
  x.res.end(body);
}

/** PutBucketVersioning with `Status` Enabled or Suspended. MFA delete is not implemented. */
export async function putBucketVersioning(x: AuthorizedExchange, bucket: string): Promise<void> {
  const declaredHash = x.auth.payloadHash;
  if (declaredHash.startsWith("STREAMING-")) {
    throw notImplemented("The local object store takes bucket configuration documents as plain (non aws-chunked) bodies.");
  }
  if (!(await x.storage.bucketExists(bucket))) {
    throw new S3Error(404, "NoSuchBucket", "The specified bucket does not exist", { BucketName: bucket });
  }
  const body = await readSmallBody(x);
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
  const xml = body.toString("utf8");
  if (!/<VersioningConfiguration[\s>]/.test(xml)) throw malformedXml();
  if (/<MfaDelete>\s*Enabled\s*<\/MfaDelete>/.test(xml)) throw notImplemented("The local object store does not implement MFA delete.");
  const status = /<Status>\s*([^<]*?)\s*<\/Status>/.exec(xml)?.[1];
  if (status !== "Enabled" && status !== "Suspended") throw malformedXml();
  await x.storage.putVersioning(bucket, status);
  x.res.statusCode = 200;
  x.res.setHeader("Content-Length", "0");
  x.res.end();
}

async function readSmallBody(x: AuthorizedExchange): Promise<Buffer> {
  const declared = Number(header(x, "content-length") ?? Number.NaN);
  if (!(declared >= 0)) throw new S3Error(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
  if (declared > MAX_CONFIGURATION_BYTES) {
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
