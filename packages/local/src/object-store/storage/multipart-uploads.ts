import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createChecksum, type ChecksumAlgorithm } from "../body/checksums";
import { S3Error, noSuchBucket } from "../s3-error";
import { unlinkIfPresent, type FileObjectStorage, type VersioningStatus } from "./file-object-storage";
import { KeyedLock } from "./keyed-lock";
import type { ObjectRecord } from "./object-record";

/** Beside the key shards in each bucket folder; a name no shard (2 hex digits) can take. */
const UPLOADS_DIR = ".uploads";
const UPLOAD_FILE = "upload.json";
/** Upload ids this store issues: 48 random bytes in base64url; anything else names no upload. */
const UPLOAD_ID = /^[A-Za-z0-9_-]{64}$/;
/** S3: every part but the last must be at least 5 MiB, checked when the upload is completed. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
export const MAX_PART_NUMBER = 10_000;

/** What CreateMultipartUpload fixed for the object the upload will become. */
export interface UploadRecord {
  uploadId: string;
  key: string;
  /** ISO 8601. */
  initiated: string;
  contentType: string;
  metadata: Record<string, string>;
  headers: Record<string, string>;
  /** x-amz-checksum-algorithm of the upload: each part must then carry that checksum, and the object gets the composite. */
  checksumAlgorithm?: ChecksumAlgorithm;
}

export interface PartRecord {
  partNumber: number;
  /** Quoted MD5 hex of the part's bytes. */
  etag: string;
  size: number;
  /** ISO 8601. */
  lastModified: string;
  /** File name of the bytes, in the upload's folder. */
  blob: string;
  /** Base64 checksum of the part under the upload's algorithm, when it has one. */
  checksum?: string;
}

/** One entry of a CompleteMultipartUpload request. */
export interface RequestedPart {
  partNumber: number;
  etag: string;
  checksum?: string;
}

export const noSuchUpload = (uploadId: string) =>
  new S3Error(404, "NoSuchUpload", "The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.", {
    UploadId: uploadId,
  });

/**
 * Multipart uploads on the local filesystem: `dataDir/<bucket>/.uploads/<uploadId>/upload.json` plus, per
 * part, `part-<n>.json` and its bytes `part-<n>.<uuid>.bin`. Uploads survive restarts (unlike `.tmp`), as
 * they do on S3 until completed, aborted or expired by the bucket's lifecycle rule.
 *
 * A part arrives in a temp file (verified by the caller) and is renamed into place under the upload's lock,
 * so a re-sent part number replaces the previous bytes atomically and an abort or completion racing a part
 * upload leaves either the part refused with NoSuchUpload or the upload finished without it. Completion
 * moves the listed parts' files into the key's folder as the segments of one new object version (see
 * `ObjectRecord.segments`) and deletes the rest of the upload: its id names nothing afterwards.
 *
 * Rejected alternative: concatenating the parts into one file. Copying measured 1–5 s per GiB on a busy
 * machine, which puts a 6 GiB build's completion near API Gateway's 29 s and needs twice the disk; moving
 * files takes milliseconds at any size, and reads stream across segments with one buffer as before.
 */
export class MultipartUploads {
  private readonly locks = new KeyedLock();

  constructor(private readonly objects: FileObjectStorage) {}

  async create(
    bucket: string,
    key: string,
    fields: Omit<UploadRecord, "uploadId" | "key" | "initiated">,
  ): Promise<UploadRecord> {
    await this.requireBucket(bucket);
    const upload: UploadRecord = { ...fields, uploadId: randomBytes(48).toString("base64url"), key, initiated: new Date().toISOString() };
    const dir = this.uploadDir(bucket, upload.uploadId);
    await mkdir(dir, { recursive: true });
    await this.writeJson(join(dir, UPLOAD_FILE), upload);
    return upload;
  }

  /** The upload `uploadId` of `key`; NoSuchUpload when it does not exist or belongs to another key. */
  async get(bucket: string, key: string, uploadId: string): Promise<UploadRecord> {
    await this.requireBucket(bucket);
    if (!UPLOAD_ID.test(uploadId)) throw noSuchUpload(uploadId);
    let upload: UploadRecord;
    try {
      upload = JSON.parse(await readFile(join(this.uploadDir(bucket, uploadId), UPLOAD_FILE), "utf8")) as UploadRecord;
    } catch (error) {
      if (errorCode(error) === "ENOENT") throw noSuchUpload(uploadId);
      throw error;
    }
    if (upload.key !== key) throw noSuchUpload(uploadId);
    return upload;
  }

  /** Every upload in progress in the bucket, by key then initiation time (ListMultipartUploads order). */
  async list(bucket: string): Promise<UploadRecord[]> {
    await this.requireBucket(bucket);
    let ids: string[];
    try {
      ids = await readdir(join(this.objects.dataDir, bucket, UPLOADS_DIR));
    } catch (error) {
      if (errorCode(error) === "ENOENT") return [];
      throw error;
    }
    const uploads: UploadRecord[] = [];
    for (const id of ids) {
      if (!UPLOAD_ID.test(id)) continue;
      try {
        uploads.push(JSON.parse(await readFile(join(this.uploadDir(bucket, id), UPLOAD_FILE), "utf8")) as UploadRecord);
      } catch (error) {
        // Completed or aborted while listing.
        if (errorCode(error) !== "ENOENT") throw error;
      }
    }
    const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
    return uploads.sort((a, b) => byteOrder(a.key, b.key) || a.initiated.localeCompare(b.initiated) || a.uploadId.localeCompare(b.uploadId));
  }

  /**
   * Stores a verified part from `tempFile` (moved, never copied), replacing any earlier part with that number.
   * The temp file is deleted when the upload no longer exists. The caller found the upload (`get`) before
   * the body came; whether it still exists is the move itself: completion and abort delete the upload's
   * folder under the same lock, so the rename into it fails then (reading upload.json again cost every
   * part one more file read).
   */
  async putPart(
    bucket: string,
    key: string,
    uploadId: string,
    tempFile: string,
    fields: Omit<PartRecord, "blob" | "lastModified">,
  ): Promise<PartRecord> {
    return this.locks.run(uploadId, async () => {
      const dir = this.uploadDir(bucket, uploadId);
      const name = partName(fields.partNumber);
      const previous = await this.readPart(dir, fields.partNumber);
      const part: PartRecord = { ...fields, blob: `${name}.${randomUUID()}.bin`, lastModified: new Date().toISOString() };
      try {
        await rename(tempFile, join(dir, part.blob));
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error;
        await unlinkIfPresent(tempFile);
        throw noSuchUpload(uploadId);
      }
      await this.writeJson(join(dir, `${name}.json`), part);
      if (previous) await unlinkIfPresent(join(dir, previous.blob));
      return part;
    });
  }

  /** The upload's parts by part number. */
  async listParts(bucket: string, upload: UploadRecord): Promise<PartRecord[]> {
    const dir = this.uploadDir(bucket, upload.uploadId);
    const parts: PartRecord[] = [];
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if (errorCode(error) === "ENOENT") throw noSuchUpload(upload.uploadId);
      throw error;
    }
    for (const name of names) {
      const match = /^part-(\d{5})\.json$/.exec(name);
      if (!match) continue;
      const part = await this.readPart(dir, Number(match[1]));
      if (part) parts.push(part);
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async abort(bucket: string, key: string, uploadId: string): Promise<void> {
    await this.locks.run(uploadId, async () => {
      await this.get(bucket, key, uploadId);
      await rm(this.uploadDir(bucket, uploadId), { recursive: true, force: true });
    });
  }

  /**
   * CompleteMultipartUpload: checks the requested list against the stored parts as S3 does, writes the
   * listed parts' bytes in order as a new version of the key, then deletes the upload (unlisted parts too).
   */
  async complete(
    bucket: string,
    key: string,
    uploadId: string,
    requested: readonly RequestedPart[],
  ): Promise<{ record: ObjectRecord; versioning: VersioningStatus | undefined; partCount: number }> {
    return this.locks.run(uploadId, async () => {
      const upload = await this.get(bucket, key, uploadId);
      const dir = this.uploadDir(bucket, uploadId);
      const stored = new Map((await this.listParts(bucket, upload)).map((p) => [p.partNumber, p]));
      const parts = checkRequestedParts(upload, stored, requested);

      const md5s = Buffer.concat(parts.map((p) => Buffer.from(p.etag.slice(1, -1), "hex")));
      const checksums: Record<string, string> = {};
      if (upload.checksumAlgorithm) {
        // S3's COMPOSITE checksum: the algorithm over the concatenated binary part checksums, then `-<count>`.
        const composite = createChecksum(upload.checksumAlgorithm);
        composite.update(Buffer.concat(parts.map((p) => Buffer.from(p.checksum ?? "", "base64"))));
        checksums[upload.checksumAlgorithm] = `${composite.digestBase64()}-${parts.length}`;
      }
      // The part files become the object's segments (moved, not copied): completing takes the same time at any size.
      const object = await this.objects.putObject(
        bucket,
        key,
        parts.map((p) => ({ path: join(dir, p.blob), size: p.size })),
        {
          size: parts.reduce((sum, p) => sum + p.size, 0),
          etag: `"${createHash("md5").update(md5s).digest("hex")}-${parts.length}"`,
          contentType: upload.contentType,
          metadata: upload.metadata,
          headers: upload.headers,
          checksums,
        },
      );
      await rm(dir, { recursive: true, force: true });
      return { ...object, partCount: parts.length };
    });
  }

  private uploadDir(bucket: string, uploadId: string): string {
    return join(this.objects.dataDir, bucket, UPLOADS_DIR, uploadId);
  }

  private async requireBucket(bucket: string): Promise<void> {
    if (!(await this.objects.bucketExists(bucket))) throw noSuchBucket(bucket);
  }

  private async readPart(dir: string, partNumber: number): Promise<PartRecord | undefined> {
    try {
      return JSON.parse(await readFile(join(dir, `${partName(partNumber)}.json`), "utf8")) as PartRecord;
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw error;
    }
  }

  /** Written whole then renamed, so a reader never sees half a record. */
  private async writeJson(path: string, value: unknown): Promise<void> {
    const temp = this.objects.tempFile();
    await writeFile(temp, JSON.stringify(value));
    await rename(temp, path);
  }
}

/** The stored parts a CompleteMultipartUpload request names, in its order, or S3's refusal. */
function checkRequestedParts(upload: UploadRecord, stored: ReadonlyMap<number, PartRecord>, requested: readonly RequestedPart[]): PartRecord[] {
  const parts: PartRecord[] = [];
  let previous = 0;
  for (const entry of requested) {
    if (entry.partNumber <= previous) {
      throw new S3Error(400, "InvalidPartOrder", "The list of parts was not in ascending order. The parts list must be specified in order by part number.", {
        UploadId: upload.uploadId,
      });
    }
    previous = entry.partNumber;
    const part = stored.get(entry.partNumber);
    // S3 takes the ETag with or without its quotes.
    if (!part || part.etag !== `"${entry.etag.trim().replace(/^"|"$/g, "")}"`) throw invalidPart(upload, entry);
    const algorithm = upload.checksumAlgorithm;
    if (algorithm) {
      if (entry.checksum === undefined) {
        throw new S3Error(
          400,
          "InvalidRequest",
          `The upload was created using a ${algorithm} checksum. The complete request must include the checksum for each part. ` +
            `It was missing for part ${entry.partNumber} in the request.`,
        );
      }
      if (entry.checksum.trim() !== part.checksum) throw invalidPart(upload, entry);
    }
    parts.push(part);
  }
  parts.slice(0, -1).forEach((part) => {
    if (part.size < MIN_PART_BYTES) {
      throw new S3Error(400, "EntityTooSmall", "Your proposed upload is smaller than the minimum allowed object size.", {
        ProposedSize: String(part.size),
        MinSizeAllowed: String(MIN_PART_BYTES),
        PartNumber: String(part.partNumber),
        ETag: part.etag,
      });
    }
  });
  return parts;
}

const invalidPart = (upload: UploadRecord, entry: RequestedPart) =>
  new S3Error(
    400,
    "InvalidPart",
    "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
    { UploadId: upload.uploadId, PartNumber: String(entry.partNumber), ETag: entry.etag },
  );

function partName(partNumber: number): string {
  return `part-${String(partNumber).padStart(5, "0")}`;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
