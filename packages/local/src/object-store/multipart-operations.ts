import { isSupportedChecksum, type ChecksumAlgorithm } from "./body/checksums";
import { readSmallVerifiedBody } from "./body/read-small-body";
import { header, queryParam, type AuthorizedExchange } from "./exchange";
import {
  DEFAULT_CONTENT_TYPE,
  MAX_PUT_BYTES,
  checkKey,
  receiveVerifiedBody,
  setVersionHeader,
  storedHeaders,
  userMetadata,
} from "./object-operations";
import { S3Error, invalidArgument, notImplemented } from "./s3-error";
import { encodeKey } from "./list-objects";
import { unlinkIfPresent } from "./storage/file-object-storage";
import { MAX_PART_NUMBER, type RequestedPart, type UploadRecord } from "./storage/multipart-uploads";
import { S3_XML_NAMESPACE, XML_DECLARATION, xmlElement, xmlRecords, xmlText } from "@hangar/core/xml";

/** A CompleteMultipartUpload list of 10,000 parts with checksums is about 2 MB. */
const MAX_COMPLETE_BODY_BYTES = 8 * 1024 * 1024;
const MAX_LIST_ENTRIES = 1000;
const OWNER_ID = "hangar-local";

/*
 * S3's multipart API (CreateMultipartUpload, UploadPart, ListParts, CompleteMultipartUpload,
 * AbortMultipartUpload, ListMultipartUploads) over `MultipartUploads`. Checksums follow S3's COMPOSITE
 * type: an upload created with `x-amz-checksum-algorithm` takes only parts carrying that checksum (in a
 * header, a presigned URL's query or an aws-chunked trailer), verified as they arrive; completion must
 * repeat each part's checksum, and the object's checksum is the checksum of the part checksums plus
 * `-<count>`. FULL_OBJECT checksums and CRC64NVME are not implemented and are refused as such, so nothing
 * works here that would not on S3. An upload created without an algorithm accepts and verifies part
 * checksums without keeping them (S3 has since 2025 computed its own default checksum in that case).
 */

export async function createMultipartUpload(x: AuthorizedExchange, bucket: string, key: string): Promise<void> {
  checkKey(key);
  const algorithm = requestedAlgorithm(x);
  const checksumType = header(x, "x-amz-checksum-type")?.trim().toUpperCase();
  if (checksumType !== undefined && checksumType !== "COMPOSITE") {
    if (checksumType === "FULL_OBJECT") throw notImplemented("The local object store implements COMPOSITE multipart checksums only.");
    throw invalidArgument("Value for x-amz-checksum-type header is invalid.", { ArgumentName: "x-amz-checksum-type" });
  }
  if (checksumType !== undefined && algorithm === undefined) {
    throw new S3Error(400, "InvalidRequest", "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.");
  }
  // The request has no body to speak of; reading it checks what was signed and keeps the connection usable.
  await readSmallVerifiedBody(x, 64 * 1024);
  const upload = await x.uploads.create(bucket, key, {
    contentType: header(x, "content-type") ?? DEFAULT_CONTENT_TYPE,
    metadata: userMetadata(x),
    headers: storedHeaders(x),
    ...(algorithm ? { checksumAlgorithm: algorithm } : {}),
  });
  if (algorithm) {
    x.res.setHeader("x-amz-checksum-algorithm", algorithm.toUpperCase());
    x.res.setHeader("x-amz-checksum-type", "COMPOSITE");
  }
  sendXml(
    x,
    `<InitiateMultipartUploadResult xmlns="${S3_XML_NAMESPACE}">` +
      xmlElement("Bucket", bucket) +
      xmlElement("Key", key) +
      xmlElement("UploadId", upload.uploadId) +
      "</InitiateMultipartUploadResult>",
  );
}

/** UploadPart: the body is checked and streamed to disk like a PUT's, then stored as part N (replacing any earlier one). */
export async function uploadPart(x: AuthorizedExchange, bucket: string, key: string, uploadId: string): Promise<void> {
  checkKey(key);
  if (header(x, "x-amz-copy-source") !== undefined) throw notImplemented("UploadPartCopy is not supported by the local object store.");
  const partNumber = parsePartNumber(queryParam(x, "partNumber"));
  let upload: UploadRecord | undefined;
  const body = await receiveVerifiedBody(x, {
    requireBucket: bucket,
    maxSize: MAX_PUT_BYTES,
    // Refused before a byte of the body is read: an unknown upload, or a part without the upload's checksum.
    beforeBody: async (declared) => {
      upload = await x.uploads.get(bucket, key, uploadId);
      const expected = upload.checksumAlgorithm;
      if (expected !== undefined && !declared.includes(expected)) {
        throw new S3Error(
          400,
          "InvalidRequest",
          `Checksum Type mismatch occurred, expected checksum Type: ${expected}, actual checksum Type: ${declared[0] ?? "null"}`,
        );
      }
    },
  });
  const algorithm = upload!.checksumAlgorithm;
  const checksum = algorithm === undefined ? undefined : body.checksums.get(algorithm);
  try {
    const part = await x.uploads.putPart(bucket, key, uploadId, body.file, {
      partNumber,
      etag: `"${body.md5.toString("hex")}"`,
      size: body.size,
      ...(checksum !== undefined ? { checksum } : {}),
    });
    x.res.statusCode = 200;
    x.res.setHeader("ETag", part.etag);
    for (const [name, value] of body.checksums) x.res.setHeader(`x-amz-checksum-${name}`, value);
    x.res.setHeader("Content-Length", "0");
    x.res.end();
  } catch (error) {
    await unlinkIfPresent(body.file);
    throw error;
  }
}

export async function listParts(x: AuthorizedExchange, bucket: string, key: string, uploadId: string): Promise<void> {
  checkKey(key);
  const upload = await x.uploads.get(bucket, key, uploadId);
  const maxParts = parseListLimit(queryParam(x, "max-parts"), "max-parts");
  const marker = parseListLimit(queryParam(x, "part-number-marker"), "part-number-marker", 0);
  const after = (await x.uploads.listParts(bucket, upload)).filter((p) => p.partNumber > marker);
  const page = after.slice(0, maxParts);
  const truncated = after.length > page.length;
  const algorithm = upload.checksumAlgorithm;
  sendXml(
    x,
    `<ListPartsResult xmlns="${S3_XML_NAMESPACE}">` +
      xmlElement("Bucket", bucket) +
      xmlElement("Key", key) +
      xmlElement("UploadId", uploadId) +
      xmlElement("PartNumberMarker", marker) +
      xmlElement("NextPartNumberMarker", page.at(-1)?.partNumber ?? marker) +
      xmlElement("MaxParts", maxParts) +
      xmlElement("IsTruncated", truncated) +
      page
        .map(
          (p) =>
            "<Part>" +
            xmlElement("PartNumber", p.partNumber) +
            xmlElement("LastModified", p.lastModified) +
            xmlElement("ETag", p.etag) +
            xmlElement("Size", p.size) +
            (algorithm ? xmlElement(checksumElement(algorithm), p.checksum) : "") +
            "</Part>",
        )
        .join("") +
      owner("Initiator") +
      owner("Owner") +
      xmlElement("StorageClass", "STANDARD") +
      (algorithm ? xmlElement("ChecksumAlgorithm", algorithm.toUpperCase()) + xmlElement("ChecksumType", "COMPOSITE") : "") +
      "</ListPartsResult>",
  );
}

export async function completeMultipartUpload(
  x: AuthorizedExchange,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<void> {
  checkKey(key);
  const upload = await x.uploads.get(bucket, key, uploadId);
  const requested = parseCompleteRequest((await readSmallVerifiedBody(x, MAX_COMPLETE_BODY_BYTES)).toString("utf8"), upload);
  const { record, versioning } = await x.uploads.complete(bucket, key, uploadId, requested);
  setVersionHeader(x, versioning, record.versionId);
  const algorithm = upload.checksumAlgorithm;
  const hostHeader = header(x, "host") ?? "localhost";
  sendXml(
    x,
    `<CompleteMultipartUploadResult xmlns="${S3_XML_NAMESPACE}">` +
      xmlElement("Location", `http://${hostHeader}/${bucket}/${encodeKey(key)}`) +
      xmlElement("Bucket", bucket) +
      xmlElement("Key", key) +
      xmlElement("ETag", record.etag) +
      (algorithm ? xmlElement(checksumElement(algorithm), record.checksums[algorithm]) + xmlElement("ChecksumType", "COMPOSITE") : "") +
      "</CompleteMultipartUploadResult>",
  );
}

export async function abortMultipartUpload(x: AuthorizedExchange, bucket: string, key: string, uploadId: string): Promise<void> {
  checkKey(key);
  await x.uploads.abort(bucket, key, uploadId);
  x.res.statusCode = 204;
  x.res.end();
}

/** ListMultipartUploads with prefix, key-marker / upload-id-marker and max-uploads (no delimiter). */
export async function listMultipartUploads(x: AuthorizedExchange, bucket: string): Promise<void> {
  if (queryParam(x, "delimiter") !== undefined) throw notImplemented("The local object store lists multipart uploads without a delimiter.");
  const prefix = queryParam(x, "prefix") ?? "";
  const keyMarker = queryParam(x, "key-marker") ?? "";
  const uploadIdMarker = queryParam(x, "upload-id-marker") ?? "";
  const maxUploads = parseListLimit(queryParam(x, "max-uploads"), "max-uploads");
  const urlEncode = queryParam(x, "encoding-type") === "url";
  const text = (value: string) => (urlEncode ? encodeKey(value) : value);

  const after = (await x.uploads.list(bucket)).filter((u) => {
    if (!u.key.startsWith(prefix)) return false;
    if (keyMarker === "") return true;
    const order = Buffer.compare(Buffer.from(u.key, "utf8"), Buffer.from(keyMarker, "utf8"));
    // Without upload-id-marker S3 resumes after every upload of the marker key.
    return order > 0 || (order === 0 && uploadIdMarker !== "" && u.uploadId > uploadIdMarker);
  });
  const page = after.slice(0, maxUploads);
  const truncated = after.length > page.length;
  const last = page.at(-1);
  sendXml(
    x,
    `<ListMultipartUploadsResult xmlns="${S3_XML_NAMESPACE}">` +
      xmlElement("Bucket", bucket) +
      xmlElement("KeyMarker", text(keyMarker)) +
      xmlElement("UploadIdMarker", uploadIdMarker) +
      xmlElement("NextKeyMarker", text(last?.key ?? "")) +
      xmlElement("NextUploadIdMarker", last?.uploadId ?? "") +
      xmlElement("Prefix", text(prefix)) +
      xmlElement("MaxUploads", maxUploads) +
      (urlEncode ? xmlElement("EncodingType", "url") : "") +
      xmlElement("IsTruncated", truncated) +
      page
        .map(
          (u) =>
            "<Upload>" +
            xmlElement("Key", text(u.key)) +
            xmlElement("UploadId", u.uploadId) +
            owner("Initiator") +
            owner("Owner") +
            xmlElement("StorageClass", "STANDARD") +
            xmlElement("Initiated", u.initiated) +
            (u.checksumAlgorithm ? xmlElement("ChecksumAlgorithm", u.checksumAlgorithm.toUpperCase()) + xmlElement("ChecksumType", "COMPOSITE") : "") +
            "</Upload>",
        )
        .join("") +
      "</ListMultipartUploadsResult>",
  );
}

/** x-amz-checksum-algorithm of CreateMultipartUpload (a header, or a presigned URL's query parameter). */
function requestedAlgorithm(x: AuthorizedExchange): ChecksumAlgorithm | undefined {
  const value =
    header(x, "x-amz-checksum-algorithm") ??
    (x.auth.kind === "presigned" ? x.query.find((p) => p.name.toLowerCase() === "x-amz-checksum-algorithm")?.value : undefined);
  if (value === undefined) return undefined;
  const algorithm = value.trim().toLowerCase();
  if (algorithm === "crc64nvme") throw notImplemented("The local object store cannot verify CRC64NVME; use CRC32, CRC32C, SHA1 or SHA256.");
  if (!isSupportedChecksum(algorithm)) {
    throw invalidArgument("Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]", {
      ArgumentName: "x-amz-checksum-algorithm",
      ArgumentValue: value,
    });
  }
  return algorithm;
}

function parsePartNumber(text: string | undefined): number {
  const value = text !== undefined && /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MAX_PART_NUMBER)) {
    throw invalidArgument(`Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`, {
      ArgumentName: "partNumber",
      ArgumentValue: text ?? "",
    });
  }
  return value;
}

function parseListLimit(text: string | undefined, name: string, fallback = MAX_LIST_ENTRIES): number {
  if (text === undefined) return fallback;
  if (!/^\d{1,9}$/.test(text)) throw invalidArgument(`Provided ${name} not an integer or within integer range`, { ArgumentName: name, ArgumentValue: text });
  return name.startsWith("max-") ? Math.min(Number(text), MAX_LIST_ENTRIES) : Number(text);
}

const malformedXml = () =>
  new S3Error(400, "MalformedXML", "The XML you provided was not well-formed or did not validate against our published schema");

/** The `<Part>` list of a CompleteMultipartUpload document, in the order given (the caller checks the order). */
function parseCompleteRequest(xml: string, upload: UploadRecord): RequestedPart[] {
  if (!/<CompleteMultipartUpload[\s>]/.test(xml)) throw malformedXml();
  const parts: RequestedPart[] = [];
  for (const part of xmlRecords(xml, "Part")) {
    const field = (name: string) => xmlText(part, name)?.trim();
    const partNumber = field("PartNumber");
    const etag = field("ETag");
    if (partNumber === undefined || !/^\d{1,9}$/.test(partNumber) || etag === undefined) throw malformedXml();
    const checksum = upload.checksumAlgorithm ? field(checksumElement(upload.checksumAlgorithm)) : undefined;
    parts.push({ partNumber: Number(partNumber), etag, ...(checksum !== undefined ? { checksum } : {}) });
  }
  if (parts.length === 0) throw malformedXml();
  return parts;
}

/** `ChecksumCRC32C` and friends, as S3 names the elements. */
function checksumElement(algorithm: ChecksumAlgorithm): string {
  return `Checksum${algorithm.toUpperCase()}`;
}

function owner(element: string): string {
  return `<${element}>${xmlElement("ID", OWNER_ID)}${xmlElement("DisplayName", OWNER_ID)}</${element}>`;
}

function sendXml(x: AuthorizedExchange, inner: string): void {
  const body = Buffer.from(XML_DECLARATION + inner, "utf8");
  x.res.statusCode = 200;
  x.res.setHeader("Content-Type", "application/xml");
  x.res.setHeader("Content-Length", String(body.length));
  x.res.end(body);
}
