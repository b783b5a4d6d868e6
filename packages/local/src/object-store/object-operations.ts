import { pipeline } from "node:stream/promises";
import { KNOWN_CHECKSUMS, isSupportedChecksum, type ChecksumAlgorithm } from "./body/checksums";
import { receiveBody } from "./body/receive-body";
import { parseByteRange } from "./byte-range";
import { header, queryParam, type AuthorizedExchange } from "./exchange";
import { S3Error, invalidArgument, noSuchBucket, noSuchKey, noSuchVersion, notImplemented } from "./s3-error";
import { VERSION_ID, unlinkIfPresent, type VersioningStatus } from "./storage/file-object-storage";
import { NULL_VERSION, type ObjectRecord } from "./storage/object-record";

const MAX_KEY_BYTES = 1024;
/** S3's default when a PUT names no Content-Type. */
export const DEFAULT_CONTENT_TYPE = "binary/octet-stream";
/** Representation headers S3 stores with an object and serves back. */
const STORED_HEADERS = ["cache-control", "content-disposition", "content-encoding", "content-language", "expires"];
/** Query parameters that override response headers on a signed GET/HEAD, and the header each sets. */
const RESPONSE_OVERRIDES: Record<string, string> = {
  "response-content-type": "Content-Type",
  "response-content-language": "Content-Language",
  "response-expires": "Expires",
  "response-cache-control": "Cache-Control",
  "response-content-disposition": "Content-Disposition",
  "response-content-encoding": "Content-Encoding",
};
const STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
/** S3's limit for one PUT (and one part of a multipart upload). */
export const MAX_PUT_BYTES = 5 * 1024 ** 3;

/**
 * The `versionId` query parameter: undefined when absent; S3's 400 for a value that cannot be a version id
 * (an id that could be one but does not exist is a 404 NoSuchVersion, decided by the caller).
 */
export function requestedVersionId(x: AuthorizedExchange): string | undefined {
  const value = queryParam(x, "versionId");
  if (value === undefined) return undefined;
  if (value !== NULL_VERSION && !VERSION_ID.test(value)) {
    throw invalidArgument("Invalid version id specified", { ArgumentName: "versionId", ArgumentValue: value });
  }
  return value;
}

/** S3 names version ids only in buckets whose versioning was ever configured. */
export function setVersionHeader(x: AuthorizedExchange, versioning: VersioningStatus | undefined, versionId: string): void {
  if (versioning !== undefined) x.res.setHeader("x-amz-version-id", versionId);
}

export function checkKey(key: string): void {
  if (Buffer.byteLength(key, "utf8") > MAX_KEY_BYTES) {
    throw new S3Error(400, "KeyTooLongError", "Your key is too long", { MaxSizeAllowed: String(MAX_KEY_BYTES) });
  }
}

/**
 * PutObject. Every check that needs no body runs first, so a refused request writes nothing. The body is
 * streamed to a temp file while hashed, then size, SHA-256 (when signed), Content-MD5 and flexible
 * checksums are checked, and only then is the file renamed into place.
 */
export async function putObject(x: AuthorizedExchange, bucket: string, key: string): Promise<void> {
  checkKey(key);
  if (header(x, "x-amz-copy-source") !== undefined) throw notImplemented("CopyObject is not supported by the local object store.");
  if (queryParam(x, "versionId") !== undefined) throw notImplemented("PutObject does not take a versionId: every PUT makes a new version.");

  const body = await receiveVerifiedBody(x, { requireBucket: bucket, maxSize: MAX_PUT_BYTES });
  let stored: { record: ObjectRecord; versioning: VersioningStatus | undefined };
  try {
    stored = await x.storage.putObject(bucket, key, body.file, {
      size: body.size,
      etag: `"${body.md5.toString("hex")}"`,
      contentType: header(x, "content-type") ?? DEFAULT_CONTENT_TYPE,
      metadata: userMetadata(x),
      headers: storedHeaders(x),
      checksums: Object.fromEntries(body.checksums),
    });
  } catch (error) {
    await unlinkIfPresent(body.file);
    throw error;
  }

  const { record } = stored;
  x.res.statusCode = 200;
  x.res.setHeader("ETag", record.etag);
  setVersionHeader(x, stored.versioning, record.versionId);
  for (const [algorithm, value] of Object.entries(record.checksums)) x.res.setHeader(`x-amz-checksum-${algorithm}`, value);
  x.res.setHeader("Content-Length", "0");
  x.res.end();
}

/** A request body received into a temp file and checked against everything the request declared. */
export interface VerifiedBody {
  /** Temp file holding the bytes; the caller renames it into place or deletes it. */
  file: string;
  size: number;
  md5: Buffer;
  /** Base64 flexible checksums the client supplied (header, presigned query or trailer) and that matched. */
  checksums: Map<ChecksumAlgorithm, string>;
}

/**
 * The body of a PutObject or UploadPart: payload mode and lengths checked before any byte is read (so a
 * refused request writes nothing), then streamed to a temp file while hashed, then SHA-256 (when signed),
 * Content-MD5 and flexible checksums compared. On any refusal the temp file is already gone.
 */
export async function receiveVerifiedBody(
  x: AuthorizedExchange,
  options: {
    requireBucket: string;
    maxSize: number;
    /** Last checks before the body is read, given the checksum algorithms the request declares. */
    beforeBody?: (declared: readonly ChecksumAlgorithm[]) => Promise<void>;
  },
): Promise<VerifiedBody> {
  const declaredHash = x.auth.payloadHash;
  const chunked = declaredHash === STREAMING_UNSIGNED_TRAILER;
  if (declaredHash.startsWith("STREAMING-") && !chunked) {
    throw notImplemented(
      `The local object store does not implement payload mode ${declaredHash}. Send UNSIGNED-PAYLOAD or a SHA-256 ` +
        `(AWS SDK: requestChecksumCalculation: "WHEN_REQUIRED").`,
    );
  }
  const expectedSha256 = /^[0-9a-f]{64}$/i.test(declaredHash) ? declaredHash.toLowerCase() : undefined;

  // An aws-chunked body states the object size in x-amz-decoded-content-length and may itself travel with
  // Transfer-Encoding: chunked (the SDK does that for streams); any other body needs Content-Length.
  const contentLength = parseLength(header(x, "content-length"), "Content-Length");
  const objectSize = chunked
    ? parseLength(header(x, "x-amz-decoded-content-length"), "x-amz-decoded-content-length")
    : contentLength;
  if (objectSize === undefined) {
    throw new S3Error(
      411,
      "MissingContentLength",
      chunked
        ? "You must provide the x-amz-decoded-content-length header with an aws-chunked body."
        : "You must provide the Content-Length HTTP header.",
    );
  }
  if (objectSize > options.maxSize) {
    throw new S3Error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size", {
      ProposedSize: String(objectSize),
      MaxSizeAllowed: String(options.maxSize),
    });
  }

  const expectedMd5 = parseContentMd5(header(x, "content-md5"));
  const expectedChecksums = checksumHeaders(x);
  const trailerChecksums = trailerAlgorithms(x, chunked);
  const algorithms = [...new Set<ChecksumAlgorithm>([...expectedChecksums.keys(), ...trailerChecksums])];

  if (!(await x.storage.bucketExists(options.requireBucket))) throw noSuchBucket(options.requireBucket);
  await options.beforeBody?.(algorithms);

  if (x.expectContinue) x.res.writeContinue();
  const temp = x.storage.tempFile();
  try {
    const body = await receiveBody({
      source: x.req,
      wireLength: contentLength,
      chunked,
      checksums: algorithms,
      sha256: expectedSha256 !== undefined,
      destination: temp,
    });
    if (body.size !== objectSize) {
      throw new S3Error(400, "IncompleteBody", "The decoded body length does not match x-amz-decoded-content-length.");
    }
    if (expectedSha256 !== undefined && body.sha256Hex !== expectedSha256) {
      throw new S3Error(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.", {
        ClientComputedContentSHA256: expectedSha256,
        S3ComputedContentSHA256: body.sha256Hex ?? "",
      });
    }
    if (expectedMd5 !== undefined && !expectedMd5.equals(body.md5)) {
      throw new S3Error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.", {
        ExpectedDigest: expectedMd5.toString("base64"),
        CalculatedDigest: body.md5.toString("base64"),
      });
    }
    const verified = new Map<ChecksumAlgorithm, string>();
    for (const algorithm of algorithms) {
      const computed = body.checksums.get(algorithm)!;
      const provided = expectedChecksums.get(algorithm) ?? body.trailers.get(`x-amz-checksum-${algorithm}`);
      if (provided === undefined) {
        throw new S3Error(400, "MalformedTrailerError", `The request body did not end with the announced trailer x-amz-checksum-${algorithm}.`);
      }
      if (provided !== computed) {
        throw new S3Error(400, "BadDigest", `The ${algorithm.toUpperCase()} you specified did not match the calculated checksum.`);
      }
      verified.set(algorithm, computed);
    }
    return { file: temp, size: body.size, md5: body.md5, checksums: verified };
  } catch (error) {
    await unlinkIfPresent(temp);
    throw error;
  }
}

/** GetObject / HeadObject, with single byte ranges, conditional headers and response-* overrides. */
export async function getObject(x: AuthorizedExchange, bucket: string, key: string, headOnly: boolean): Promise<void> {
  checkKey(key);
  const overrides = responseOverrides(x);
  const versionId = requestedVersionId(x);
  const opened = await x.storage.openObject(bucket, key, versionId);
  if (opened.kind === "missing") throw versionId === undefined ? noSuchKey(key) : noSuchVersion(key, versionId);
  if (opened.kind === "deleteMarker") {
    const markerHeaders = { "x-amz-delete-marker": "true", "x-amz-version-id": opened.marker.versionId };
    // S3: the current version being a delete marker reads as a missing key; naming a marker's id is a 405.
    if (versionId === undefined) throw noSuchKey(key, markerHeaders);
    throw new S3Error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.", {
      Method: x.method,
      ResourceType: "DeleteMarker",
    }, { ...markerHeaders, "Last-Modified": new Date(opened.marker.lastModified).toUTCString() });
  }
  let handedToStream = false;
  try {
    const { record } = opened;
    const res = x.res;
    setVersionHeader(x, opened.versioning, record.versionId);
    res.setHeader("ETag", record.etag);
    res.setHeader("Last-Modified", new Date(record.lastModified).toUTCString());
    if (notModified(x, record)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const range = parseByteRange(header(x, "range"), record.size);
    if (range.kind === "unsatisfiable") {
      throw new S3Error(
        416,
        "InvalidRange",
        "The requested range is not satisfiable",
        { RangeRequested: header(x, "range") ?? "", ActualObjectSize: String(record.size) },
        { "Content-Range": `bytes */${record.size}` },
      );
    }
    const start = range.kind === "partial" ? range.start : 0;
    const end = range.kind === "partial" ? range.end : record.size - 1;
    const length = end - start + 1;

    res.statusCode = range.kind === "partial" ? 206 : 200;
    res.setHeader("Accept-Ranges", "bytes");
    res.setHeader("Content-Type", record.contentType);
    res.setHeader("Content-Length", String(length));
    if (range.kind === "partial") res.setHeader("Content-Range", `bytes ${start}-${end}/${record.size}`);
    for (const [name, value] of Object.entries(record.headers)) res.setHeader(name, value);
    for (const [name, value] of Object.entries(record.metadata)) res.setHeader(name, value);
    if (header(x, "x-amz-checksum-mode")?.toUpperCase() === "ENABLED" && range.kind === "full") {
      for (const [algorithm, value] of Object.entries(record.checksums)) {
        res.setHeader(`x-amz-checksum-${algorithm}`, value);
        // A multipart object's checksum is of its parts' checksums, marked `-<count>`.
        res.setHeader("x-amz-checksum-type", /-\d+$/.test(value) ? "COMPOSITE" : "FULL_OBJECT");
      }
    }
    for (const [name, value] of overrides) res.setHeader(name, value);

    if (headOnly || length === 0) {
      res.end();
      return;
    }
    const stream = opened.bytes.stream(start, end);
    handedToStream = true; // the stream closes the files when it ends or is destroyed
    try {
      await pipeline(stream, res);
    } catch {
      // The client went away mid-download; nothing left to answer.
    }
  } finally {
    if (!handedToStream) await opened.bytes.close();
  }
}

export async function deleteObject(x: AuthorizedExchange, bucket: string, key: string): Promise<void> {
  checkKey(key);
  const result = await x.storage.deleteObject(bucket, key, requestedVersionId(x));
  if (result.versionId !== undefined) x.res.setHeader("x-amz-version-id", result.versionId);
  if (result.deleteMarker) x.res.setHeader("x-amz-delete-marker", "true");
  x.res.statusCode = 204;
  x.res.end();
}

function parseLength(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text.trim())) throw invalidArgument(`${name} must be a non-negative integer.`, { ArgumentName: name });
  return Number(text.trim());
}

function parseContentMd5(text: string | undefined): Buffer | undefined {
  if (text === undefined) return undefined;
  const digest = /^[A-Za-z0-9+/]{22}==$/.test(text.trim()) ? Buffer.from(text.trim(), "base64") : undefined;
  if (digest?.length !== 16) throw new S3Error(400, "InvalidDigest", "The Content-MD5 you specified was not valid.");
  return digest;
}

/**
 * `x-amz-checksum-<algorithm>` values the body must match, from headers and — on presigned URLs, where S3
 * reads x-amz-* query parameters as headers — from the query. This is what makes a presigned URL from an SDK
 * left on default checksum settings fail here as on S3 (it pins the CRC32 of an empty body).
 */
function checksumHeaders(x: AuthorizedExchange): Map<ChecksumAlgorithm, string> {
  const found = new Map<string, string>();
  for (const [name, values] of x.headers) found.set(name, values.join(","));
  if (x.auth.kind === "presigned") for (const { name, value } of x.query) found.set(name.toLowerCase(), value);
  const expected = new Map<ChecksumAlgorithm, string>();
  for (const algorithm of KNOWN_CHECKSUMS) {
    const value = found.get(`x-amz-checksum-${algorithm}`);
    if (value === undefined) continue;
    if (!isSupportedChecksum(algorithm)) {
      throw notImplemented(`The local object store cannot verify x-amz-checksum-${algorithm}; use CRC32, CRC32C, SHA1 or SHA256.`);
    }
    expected.set(algorithm, value.trim());
  }
  return expected;
}

function trailerAlgorithms(x: AuthorizedExchange, chunked: boolean): ChecksumAlgorithm[] {
  const trailer = header(x, "x-amz-trailer");
  if (trailer === undefined) return [];
  if (!chunked) throw new S3Error(400, "InvalidRequest", "x-amz-trailer is only valid with an aws-chunked body.");
  return trailer.split(",").map((name) => {
    const algorithm = name.trim().toLowerCase().replace(/^x-amz-checksum-/, "");
    if (!isSupportedChecksum(algorithm)) {
      throw notImplemented(`The local object store cannot verify trailer ${name.trim()}; use CRC32, CRC32C, SHA1 or SHA256.`);
    }
    return algorithm;
  });
}

export function userMetadata(x: AuthorizedExchange): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, values] of x.headers) if (name.startsWith("x-amz-meta-")) metadata[name] = values.join(",");
  if (x.auth.kind === "presigned") {
    for (const { name, value } of x.query) {
      // Header values travel as raw bytes (Node hands them over as latin1); keep query values in the same form.
      if (name.toLowerCase().startsWith("x-amz-meta-")) metadata[name.toLowerCase()] = Buffer.from(value, "utf8").toString("latin1");
    }
  }
  return metadata;
}

export function storedHeaders(x: AuthorizedExchange): Record<string, string> {
  const stored: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    let value = header(x, name);
    // aws-chunked describes this request's framing, not the object.
    if (name === "content-encoding" && value !== undefined) {
      value = value.split(",").map((v) => v.trim()).filter((v) => v !== "" && v.toLowerCase() !== "aws-chunked").join(", ");
    }
    if (value) stored[name] = value;
  }
  return stored;
}

function responseOverrides(x: AuthorizedExchange): [string, string][] {
  const overrides: [string, string][] = [];
  for (const [param, headerName] of Object.entries(RESPONSE_OVERRIDES)) {
    const value = queryParam(x, param);
    if (value === undefined) continue;
    if (/[\r\n\0]/.test(value)) throw invalidArgument(`Invalid value for ${param}.`, { ArgumentName: param });
    // Node writes header strings as latin1; sending the UTF-8 bytes keeps non-ASCII file names intact.
    overrides.push([headerName, Buffer.from(value, "utf8").toString("latin1")]);
  }
  return overrides;
}

/** Conditional GET/HEAD: throws 412 for a failed If-Match / If-Unmodified-Since, returns true for a 304. */
function notModified(x: AuthorizedExchange, record: ObjectRecord): boolean {
  const matches = (list: string) =>
    list.split(",").some((tag) => {
      const t = tag.trim().replace(/^W\//, "");
      return t === "*" || t === record.etag || `"${t}"` === record.etag;
    });
  // HTTP dates have whole seconds; compare at that precision or an unchanged object looks modified.
  const modified = Math.floor(new Date(record.lastModified).getTime() / 1000);
  const since = (name: string) => {
    const text = header(x, name);
    const time = text === undefined ? Number.NaN : new Date(text).getTime();
    return Number.isNaN(time) ? undefined : Math.floor(time / 1000);
  };
  const failed = (condition: string) =>
    new S3Error(412, "PreconditionFailed", "At least one of the pre-conditions you specified did not hold", { Condition: condition });

  const ifMatch = header(x, "if-match");
  if (ifMatch !== undefined) {
    if (!matches(ifMatch)) throw failed("If-Match");
  } else {
    const unmodifiedSince = since("if-unmodified-since");
    if (unmodifiedSince !== undefined && modified > unmodifiedSince) throw failed("If-Unmodified-Since");
  }
  const ifNoneMatch = header(x, "if-none-match");
  if (ifNoneMatch !== undefined) return matches(ifNoneMatch);
  const modifiedSince = since("if-modified-since");
  return modifiedSince !== undefined && modified <= modifiedSince;
}
