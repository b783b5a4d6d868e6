import { readSmallVerifiedBody } from "./body/read-small-body";
import type { AuthorizedExchange } from "./exchange";
import { S3Error, notImplemented } from "./s3-error";
import { S3_XML_NAMESPACE, XML_DECLARATION } from "@hangar/core/xml";

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
  if (!(await x.storage.bucketExists(bucket))) {
    throw new S3Error(404, "NoSuchBucket", "The specified bucket does not exist", { BucketName: bucket });
  }
  const body = await readSmallVerifiedBody(x, MAX_CONFIGURATION_BYTES);
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
