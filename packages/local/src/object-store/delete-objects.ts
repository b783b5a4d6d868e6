import { KNOWN_CHECKSUMS } from "./body/checksums";
import { readSmallVerifiedBody } from "./body/read-small-body";
import { header, type AuthorizedExchange } from "./exchange";
import { checkKey } from "./object-operations";
import { S3Error } from "./s3-error";
import { S3_XML_NAMESPACE, XML_DECLARATION, xmlElement, xmlRecords, xmlText } from "@hangar/core/xml";

/** S3 takes at most 1000 keys per DeleteObjects; the document of 1000 keys of 1 KiB is about 1 MB. */
const MAX_KEYS = 1000;
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const malformedXml = () =>
  new S3Error(400, "MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema");

/**
 * DeleteObjects (`POST /<bucket>?delete`): up to 1000 keys or versions in one request. As on S3, the
 * body must carry an integrity check, Content-MD5 or an `x-amz-checksum-*` header (verified, as every
 * request document is), or the request is refused whole. Each key is deleted as DeleteObject would
 * delete it; a key that fails is reported in the answer's `<Error>` list and the others still go,
 * so the request answers 200 whatever happened to each key. Quiet mode leaves out the deleted ones.
 */
export async function deleteObjects(x: AuthorizedExchange, bucket: string): Promise<void> {
  if (header(x, "content-md5") === undefined && !KNOWN_CHECKSUMS.some((a) => header(x, `x-amz-checksum-${a}`) !== undefined)) {
    throw new S3Error(400, "InvalidRequest", "Missing required header for this request: Content-MD5 OR x-amz-checksum-*");
  }
  const xml = (await readSmallVerifiedBody(x, MAX_BODY_BYTES)).toString("utf8");
  if (!/<Delete[\s>]/.test(xml)) throw malformedXml();
  const quiet = /<Quiet>\s*true\s*<\/Quiet>/.test(xml);
  const targets: { key: string; versionId?: string }[] = [];
  for (const object of xmlRecords(xml, "Object")) {
    const key = xmlText(object, "Key");
    const versionId = xmlText(object, "VersionId");
    if (key === undefined) throw malformedXml();
    targets.push({ key, ...(versionId !== undefined ? { versionId } : {}) });
  }
  if (targets.length === 0 || targets.length > MAX_KEYS) throw malformedXml();

  let answer = "";
  for (const { key, versionId } of targets) {
    const id = xmlElement("Key", key) + xmlElement("VersionId", versionId);
    try {
      checkKey(key);
      const result = await x.storage.deleteObject(bucket, key, versionId);
      if (quiet) continue;
      answer +=
        `<Deleted>${id}` +
        (result.deleteMarker ? xmlElement("DeleteMarker", true) + xmlElement("DeleteMarkerVersionId", result.versionId) : "") +
        "</Deleted>";
    } catch (error) {
      // A bucket that does not exist fails the whole request, as on S3; anything else is this key's.
      if (!(error instanceof S3Error) || error.code === "NoSuchBucket") throw error;
      answer += `<Error>${id}${xmlElement("Code", error.code)}${xmlElement("Message", error.message)}</Error>`;
    }
  }
  const body = Buffer.from(`${XML_DECLARATION}<DeleteResult xmlns="${S3_XML_NAMESPACE}">${answer}</DeleteResult>`, "utf8");
  x.res.statusCode = 200;
  x.res.setHeader("Content-Type", "application/xml");
  x.res.setHeader("Content-Length", String(body.length));
  x.res.end(body);
}
