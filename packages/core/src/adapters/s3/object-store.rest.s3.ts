import { InspectError, type RandomAccessReader, type ReadStats } from "@hangar/inspect";
import { AwsServiceError } from "../../aws/aws-json-call";
import { DependencyError } from "../../errors/domain-errors";
import type { MultipartStore, ObjectHead, ObjectStore, PartChecksumAlgorithm, StoredPackage, StoredPart } from "../../ports";
import { S3_XML_NAMESPACE, xmlElement, xmlRecords, xmlText } from "../../html/xml";
import { answerText as text, s3ErrorOf, S3Requester, type S3Answer } from "./s3-request";

/**
 * The functions' S3 adapters on signed fetches (s3-request.ts says why), the only ones the service
 * has: the object store (complete, and the reaper's deletes and seals), the ranged reads of a large
 * package (complete), and the multipart calls (complete and multipart). A missing key is absent,
 * every other failure a DependencyError (503), reads pinned to the version or ETag the caller saw.
 */
export function s3Failure(operation: string, error: unknown): DependencyError {
  const name = error instanceof Error ? error.name : "UnknownError";
  return new DependencyError("s3", `S3 ${operation} failed (${name})`, { cause: error });
}

const isNotFound = (error: unknown) => error instanceof AwsServiceError && (error.name === "NotFound" || error.name === "NoSuchKey" || error.status === 404);
const isNoSuchUpload = (error: unknown) => error instanceof AwsServiceError && error.name === "NoSuchUpload";

function headOf(answer: S3Answer): ObjectHead {
  const versionId = answer.headers.get("x-amz-version-id");
  const etag = answer.headers.get("etag");
  return {
    size: Number(answer.headers.get("content-length") ?? 0),
    // S3 answers "null" for an object written while versioning was off: the SDK passes it on too.
    ...(versionId ? { versionId } : {}),
    ...(etag ? { etag } : {}),
  };
}

/** HEAD, GET, PUT and DELETE of objects, and their versions' list. */
export class S3RestObjectStore implements ObjectStore {
  constructor(private readonly s3: S3Requester) {}

  async head(key: string): Promise<ObjectHead | undefined> {
    try {
      return headOf(await this.s3.send({ method: "HEAD", key }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw s3Failure("HeadObject", error);
    }
  }

  async read(key: string, maxBytes: number): Promise<(ObjectHead & { body?: Uint8Array }) | undefined> {
    try {
      const answer = await this.s3.send({ method: "GET", key, maxBodyBytes: maxBytes });
      const head = headOf(answer);
      if (!answer.body) return head;
      if (answer.body.length !== head.size) throw new Error(`read ${answer.body.length} of ${head.size} bytes`);
      return { ...head, body: answer.body };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw s3Failure("GetObject", error);
    }
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<{ versionId?: string }> {
    try {
      const answer = await this.s3.send({ method: "PUT", key, body, headers: { "content-type": contentType } });
      const versionId = answer.headers.get("x-amz-version-id");
      return versionId ? { versionId } : {};
    } catch (error) {
      throw s3Failure("PutObject", error);
    }
  }

  async delete(key: string, versionId?: string): Promise<void> {
    try {
      // S3 answers 204 for a key that does not exist: nothing to special-case.
      await this.s3.send({ method: "DELETE", key, ...(versionId ? { query: { versionId } } : {}) });
    } catch (error) {
      throw s3Failure("DeleteObject", error);
    }
  }

  async listVersions(key: string): Promise<{ versionId: string }[]> {
    const versions: { versionId: string }[] = [];
    let markers: Record<string, string> = {};
    // Prefix = the key also lists longer keys that start with it; only exact matches count.
    for (;;) {
      let page: string;
      try {
        page = text(await this.s3.send({ method: "GET", key: "", query: { versions: "", prefix: key, ...markers } }));
      } catch (error) {
        throw s3Failure("ListObjectVersions", error);
      }
      for (const record of [...xmlRecords(page, "Version"), ...xmlRecords(page, "DeleteMarker")]) {
        if (xmlText(record, "Key") === key) versions.push({ versionId: xmlText(record, "VersionId") ?? "null" });
      }
      if (xmlText(page, "IsTruncated") !== "true") return versions;
      markers = { "key-marker": xmlText(page, "NextKeyMarker") ?? "", "version-id-marker": xmlText(page, "NextVersionIdMarker") ?? "" };
    }
  }
}

/**
 * Reads a package in place with ranged GETs pinned to the version (or ETag) its HEAD saw, as
 * @hangar/inspect/s3's S3RangeReader does through the SDK for the library's users: a gigabyte IPA
 * costs a few requests, not a download.
 */
export class S3RestRangeReader implements RandomAccessReader {
  readonly stats: ReadStats = { bytesRead: 0, reads: 0 };
  readonly size: number;

  constructor(
    private readonly s3: S3Requester,
    private readonly pkg: Pick<StoredPackage, "key" | "size" | "versionId" | "etag">,
  ) {
    this.size = pkg.size;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > this.size) {
      throw new InspectError("read_failed", `Read of ${length} bytes at ${offset} is outside the package (${this.size} bytes)`);
    }
    if (length === 0) return Buffer.alloc(0);
    const { key, versionId, etag } = this.pkg;
    let bytes: Uint8Array;
    try {
      const answer = await this.s3.send({
        method: "GET",
        key,
        ...(versionId ? { query: { versionId } } : {}),
        // HTTP ranges are inclusive at both ends. The pinned version makes every range the bytes
        // HEAD saw; the ETag guards unversioned buckets.
        headers: { range: `bytes=${offset}-${offset + length - 1}`, ...(!versionId && etag ? { "if-match": etag } : {}) },
      });
      bytes = answer.body ?? new Uint8Array();
    } catch (error) {
      const bucket = this.s3.connection.bucket;
      throw new InspectError("read_failed", `Cannot read s3://${bucket}/${key} bytes ${offset}+${length}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (bytes.length !== length) {
      throw new InspectError("read_failed", `s3://${this.s3.connection.bucket}/${key}: asked for ${length} bytes at ${offset}, got ${bytes.length}`);
    }
    this.stats.reads += 1;
    this.stats.bytesRead += length;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close(): Promise<void> {}
}

/** S3's multipart calls; uploads are created with CRC32C or CRC32 (COMPOSITE) checksums. */
export class S3RestMultipartStore implements MultipartStore {
  constructor(private readonly s3: S3Requester) {}

  async create(key: string, contentType: string, checksumAlgorithm: PartChecksumAlgorithm): Promise<string> {
    try {
      const answer = await this.s3.send({ method: "POST", key, query: { uploads: "" }, headers: { "content-type": contentType, "x-amz-checksum-algorithm": checksumAlgorithm } });
      const uploadId = xmlText(text(answer), "UploadId");
      if (!uploadId) throw new Error("CreateMultipartUpload answered without an UploadId");
      return uploadId;
    } catch (error) {
      throw s3Failure("CreateMultipartUpload", error);
    }
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[] | undefined> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    for (;;) {
      let page: string;
      try {
        page = text(await this.s3.send({ method: "GET", key, query: { uploadId, ...(marker ? { "part-number-marker": marker } : {}) } }));
      } catch (error) {
        if (isNoSuchUpload(error)) return undefined;
        throw s3Failure("ListParts", error);
      }
      for (const p of xmlRecords(page, "Part")) {
        const crc32c = xmlText(p, "ChecksumCRC32C");
        const crc32 = xmlText(p, "ChecksumCRC32");
        parts.push({
          partNumber: Number(xmlText(p, "PartNumber")),
          etag: xmlText(p, "ETag")!,
          size: Number(xmlText(p, "Size") ?? 0),
          ...(crc32c ? { checksumCRC32C: crc32c } : {}),
          ...(crc32 ? { checksumCRC32: crc32 } : {}),
        });
      }
      if (xmlText(page, "IsTruncated") !== "true") return parts;
      marker = xmlText(page, "NextPartNumberMarker");
    }
  }

  async complete(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string; checksumCRC32C?: string; checksumCRC32?: string }[],
  ): Promise<boolean> {
    const body =
      `<CompleteMultipartUpload xmlns="${S3_XML_NAMESPACE}">` +
      parts
        .map(
          (p) =>
            `<Part>${xmlElement("ChecksumCRC32", p.checksumCRC32 || undefined)}` +
            `${xmlElement("ChecksumCRC32C", p.checksumCRC32C || undefined)}` +
            `${xmlElement("ETag", p.etag)}${xmlElement("PartNumber", p.partNumber)}</Part>`,
        )
        .join("") +
      "</CompleteMultipartUpload>";
    try {
      const answer = await this.s3.send({ method: "POST", key, query: { uploadId }, body, headers: { "content-type": "application/xml" } });
      // S3 may answer 200 and report a failure in the body (the connection stays open while it assembles).
      const error = s3ErrorOf(text(answer));
      if (error) throw new AwsServiceError(error.code, error.message, 200);
      return true;
    } catch (error) {
      if (isNoSuchUpload(error)) return false;
      throw s3Failure("CompleteMultipartUpload", error);
    }
  }

  async abort(key: string, uploadId: string): Promise<void> {
    try {
      await this.s3.send({ method: "DELETE", key, query: { uploadId } });
    } catch (error) {
      if (isNoSuchUpload(error)) return;
      throw s3Failure("AbortMultipartUpload", error);
    }
  }
}

export { S3Requester, type S3Connection } from "./s3-request";
export { RangedPackageInspector } from "./ranged-package-inspector";
