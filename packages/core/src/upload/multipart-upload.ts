/**
 * Multipart uploads, beside the spec's presign → PUT → complete (which stays as it is): a build
 * past one PUT's 5 GiB, or any build a client wants to send in parallel, resumable parts.
 *
 * Checksums: every upload is created with CRC32C (or CRC32, the client's choice at start), so S3
 * verifies each part as it arrives and refuses one without its checksum. A presigned URL cannot carry an unsigned `x-amz-*` header, so
 * the checksum must be signed into the part's URL: the client computes each part's CRC32C before
 * asking for its URL (`partChecksums`, at start or later through the parts route). CRC32C rather
 * than SHA-256: the checksum guards against corruption in transit (the signature, not the
 * checksum, stops tampering), and a client computes CRC32C at memory speed where SHA-256 would
 * dominate a CLI's or a browser's CPU; CRC64NVME, S3's newer default, has no COMPOSITE multipart
 * type. CRC32 is the other choice, for a client with a native CRC32 (Node's zlib.crc32): CRC32C in
 * JavaScript cost the CLI (and the local store checking it) a second of CPU per GiB, most of what
 * kept a loopback upload behind curl's single PUT. SHA-256 is not offered for the same cost. URLs are asked for in batches, so a client need not hash a
 * 30 GiB file before its first byte goes out. Each URL also signs the part's exact length, so the
 * parts add up to the declared size by construction.
 */
import { ConflictError, InvalidPartsError, NotFoundError, PayloadTooLargeError, ValidationError } from "../errors/domain-errors";
import type { IdSource } from "../ids/random-ids";
import type { Clock, FileRecord, FileRepository, MultipartStore, PartChecksumAlgorithm, PartSigner } from "../ports";
import { finishUpload, outcomeOf, type CompleteDeps } from "./complete-upload";
import { objectKey, parseObjectKey } from "./object-key";
import { assertFileType, pendingRecord } from "./presign-upload";
import {
  GENERIC_MEDIA_TYPE,
  type AbortMultipart,
  type CompleteMultipart,
  type CompleteResult,
  type PartChecksums,
  type PartUrl,
  type PartUrls,
  type PartUrlsResult,
  type StartMultipart,
  type StartMultipartResult,
} from "./upload.schema";
import type { LinkBases, UploadSettings } from "./upload-settings";
import type { Uploader } from "./uploader";

const MiB = 1024 ** 2;
/** S3: at most 10,000 parts, each but the last at least 5 MiB. */
export const MAX_PARTS = 10_000;
const MIN_PART_SIZE = 8 * MiB;
/** Past MIN_PART_SIZE × this many bytes, parts grow so that a file goes in about this many. */
const TARGET_PARTS = 32;
/** Where growing stops (until 10,000 of them no longer hold the file: 625 GiB). */
const MAX_GROWN_PART_SIZE = 64 * MiB;

/**
 * 8 MiB up to 256 MiB (small enough that a lost part costs little and that 4 connections share
 * even a small build), then the whole number of MiB that makes 32 parts, at most 64 MiB (2 GiB
 * goes in 32 parts of 64 MiB, 30 GiB in 480), and past 625 GiB what keeps 10,000 parts. Growing:
 * each part costs its own request, signed URL, checksum pass, stored record and ETag on both
 * sides; 2 GiB in 256 parts of 8 MiB cost the local store 0.33 s more CPU per GiB and the CLI
 * 0.22 s more than 64 MiB parts did: most of what parts lost against one PUT on loopback.
 * Capped at 64 MiB: a part lost on a slow link is sent again whole, and the dashboard reads a
 * part into memory to checksum it.
 */
export function partSizeFor(fileSize: number): number {
  const grown = Math.min(MAX_GROWN_PART_SIZE, Math.ceil(fileSize / TARGET_PARTS / MiB) * MiB);
  return Math.max(MIN_PART_SIZE, grown, Math.ceil(fileSize / MAX_PARTS / MiB) * MiB);
}

export const partCountOf = (file: { fileSize: number; partSize: number }) => Math.ceil(file.fileSize / file.partSize);

function partLength(file: { fileSize: number; partSize: number }, partNumber: number): number {
  return partNumber < partCountOf(file) ? file.partSize : file.fileSize - (partCountOf(file) - 1) * file.partSize;
}

export interface MultipartDeps {
  files: FileRepository;
  multipart: MultipartStore;
  signer: PartSigner;
  clock: Clock;
  ids: IdSource;
  settings: UploadSettings;
}

const notFound = () =>
  new NotFoundError("upload_not_found", "No pending multipart upload with this key and upload id for this API key's project");

type MultipartRecord = FileRecord & { uploadId: string; partSize: number };

const algorithmOf = (file: FileRecord): PartChecksumAlgorithm => file.checksumAlgorithm ?? "CRC32C";

/**
 * The caller's multipart record for this key and upload id. Another project's key, another upload's
 * id, a single-PUT record: all answer exactly like an unknown key, as complete does.
 */
async function findUpload(files: FileRepository, caller: Uploader, key: string, uploadId: string): Promise<MultipartRecord> {
  const parsed = parseObjectKey(key);
  if (!parsed || parsed.projectId !== caller.projectId) throw notFound();
  const file = await files.get(parsed.fileId);
  if (!file || file.key !== key || file.projectId !== caller.projectId || file.uploadId !== uploadId || file.partSize === undefined) {
    throw notFound();
  }
  return file as MultipartRecord;
}

/** Pending and not past its TTL (DynamoDB deletes lazily); anything else names no open upload. */
function isOpen(file: FileRecord, now: Date): boolean {
  return file.status === "pending" && !(file.expiresAt !== undefined && file.expiresAt <= now.getTime() / 1000);
}

function assertPartsExist(file: { fileSize: number; partSize: number }, parts: PartChecksums, algorithm: PartChecksumAlgorithm): void {
  const count = partCountOf(file);
  const past = parts.filter((p) => p.partNumber > count);
  if (past.length > 0) {
    throw new ValidationError(
      past.slice(0, 5).map((p) => ({ field: "partChecksums", message: `part ${p.partNumber} is past the last part (${count})` })),
    );
  }
  // S3 would refuse the part's PUT ("Checksum Type mismatch"); said here, before any byte goes.
  const field = algorithm === "CRC32" ? "checksumCRC32" : "checksumCRC32C";
  const other = parts.filter((p) => p[field] === undefined);
  if (other.length > 0) {
    throw new ValidationError(
      other.slice(0, 5).map((p) => ({ field: "partChecksums", message: `part ${p.partNumber}: this upload's parts carry ${field}` })),
    );
  }
}

async function signParts(deps: MultipartDeps, file: MultipartRecord, parts: PartChecksums): Promise<PartUrl[]> {
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  return Promise.all(
    sorted.map(async (p) => ({
      partNumber: p.partNumber,
      uploadUrl: await deps.signer.presignPart({
        key: file.key,
        uploadId: file.uploadId,
        partNumber: p.partNumber,
        size: partLength(file, p.partNumber),
        ...(p.checksumCRC32 !== undefined ? { checksumCRC32: p.checksumCRC32 } : { checksumCRC32C: p.checksumCRC32C! }),
        expiresInSeconds: deps.settings.partUrlExpiresSeconds,
      }),
    })),
  );
}

const expireAt = (deps: MultipartDeps, now: Date) => new Date(now.getTime() + deps.settings.partUrlExpiresSeconds * 1000).toISOString();

export async function startMultipartUpload(deps: MultipartDeps, caller: Uploader, input: StartMultipart): Promise<StartMultipartResult> {
  assertFileType(input.fileName, input.fileType);
  const max = deps.settings.maxMultipartFileSize;
  if (input.fileSize > max) {
    throw new PayloadTooLargeError("file_too_large", `fileSize exceeds the maximum of ${max} bytes for a multipart upload`, { maxFileSize: max });
  }
  const now = deps.clock.now();
  const fileId = deps.ids.fileId();
  const key = objectKey(caller.projectId, fileId, input.fileName);
  const partSize = partSizeFor(input.fileSize);
  const algorithm = input.checksumAlgorithm ?? "CRC32C";
  assertPartsExist({ fileSize: input.fileSize, partSize }, input.partChecksums ?? [], algorithm);

  // The upload before the record (the record names its id). Should the record write fail, the upload
  // holds no part and the bucket's lifecycle rule aborts it after a day.
  const uploadId = await deps.multipart.create(key, GENERIC_MEDIA_TYPE, algorithm);
  const file: MultipartRecord = {
    ...pendingRecord(caller, input, { fileId, key }, now, deps.settings),
    uploadId,
    partSize,
    ...(algorithm === "CRC32" ? { checksumAlgorithm: algorithm } : {}),
  };
  await deps.files.createPending(file);
  return {
    fileId,
    key,
    uploadId,
    partSize,
    partCount: partCountOf(file),
    parts: await signParts(deps, file, input.partChecksums ?? []),
    expireAt: expireAt(deps, now),
  };
}

/** Fresh part URLs: for parts not asked for yet, or to resume after earlier URLs expired. */
export async function presignParts(deps: MultipartDeps, caller: Uploader, input: PartUrls): Promise<PartUrlsResult> {
  const file = await findUpload(deps.files, caller, input.key, input.uploadId);
  const now = deps.clock.now();
  // A completed upload takes no more parts (S3 refuses them too): its build is immutable.
  if (!isOpen(file, now)) throw notFound();
  assertPartsExist(file, input.partChecksums, algorithmOf(file));
  return { parts: await signParts(deps, file, input.partChecksums), expireAt: expireAt(deps, now) };
}

/** Drops the parts stored so far and the pending record; the key is free of it. */
export async function abortMultipartUpload(deps: Pick<MultipartDeps, "files" | "multipart" | "clock">, caller: Uploader, input: AbortMultipart): Promise<void> {
  const file = await findUpload(deps.files, caller, input.key, input.uploadId);
  if (!isOpen(file, deps.clock.now())) throw notFound();
  await deps.multipart.abort(file.key, file.uploadId);
  await deps.files.deletePending(file.fileId);
}

const unquoted = (etag: string) => etag.trim().replace(/^"|"$/g, "");

/**
 * CompleteMultipartUpload, then exactly the spec's complete (finishUpload). The part list is
 * checked against ListParts first, so a missing part or a wrong ETag is named in our error rather
 * than S3's; S3 checks it again. A repeated complete answers from the record: S3 would answer
 * NoSuchUpload, the upload id naming nothing once completed.
 */
export async function completeMultipartUpload(
  deps: CompleteDeps & { multipart: MultipartStore },
  caller: Uploader,
  input: CompleteMultipart,
  links: LinkBases,
): Promise<CompleteResult> {
  const file = await findUpload(deps.files, caller, input.key, input.uploadId);
  const now = deps.clock.now();
  if (file.status === "pending" && !isOpen(file, now)) throw notFound();
  if (input.fileName !== undefined || input.fileType !== undefined) assertFileType(input.fileName ?? file.fileName, input.fileType ?? file.fileType);
  const mismatched = (["fileName", "fileType", "fileSize"] as const).filter((f) => input[f] !== undefined && file[f] !== input[f]);
  if (mismatched.length > 0) {
    throw new ConflictError("upload_mismatch", `Does not match the multipart upload: ${mismatched.join(", ")}`, {
      fields: mismatched.map((field) => ({ field, message: "differs from the multipart upload" })),
    });
  }
  if (file.status !== "pending") return outcomeOf(file, links);

  const count = partCountOf(file);
  const past = input.parts.filter((p) => p.partNumber > count).map((p) => p.partNumber);
  if (past.length > 0) {
    throw new InvalidPartsError("part_mismatch", `This upload has ${count} parts; no part ${past[0]}`, { partNumbers: past.slice(0, 20) });
  }
  const listed = new Set(input.parts.map((p) => p.partNumber));
  const unlisted = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !listed.has(n));
  if (unlisted.length > 0) {
    throw new InvalidPartsError("part_missing", `List every part: ${unlisted.length} of ${count} missing (first: ${unlisted[0]})`, {
      partNumbers: unlisted.slice(0, 20),
    });
  }

  const stored = await deps.multipart.listParts(file.key, file.uploadId);
  // Gone from S3 while our record is pending: a concurrent complete assembled it (its record write
  // follows), or it was aborted. The record, or the object itself, tells which.
  if (stored) {
    const byNumber = new Map(stored.map((p) => [p.partNumber, p]));
    const notUploaded = input.parts.filter((p) => !byNumber.has(p.partNumber)).map((p) => p.partNumber);
    if (notUploaded.length > 0) {
      throw new InvalidPartsError("part_missing", `Part ${notUploaded[0]} was not uploaded (${notUploaded.length} missing)`, {
        partNumbers: notUploaded.slice(0, 20),
      });
    }
    const wrong = input.parts.filter((p) => {
      const s = byNumber.get(p.partNumber)!;
      return (
        unquoted(s.etag) !== unquoted(p.etag) ||
        (p.checksumCRC32C !== undefined && p.checksumCRC32C !== s.checksumCRC32C) ||
        (p.checksumCRC32 !== undefined && p.checksumCRC32 !== s.checksumCRC32)
      );
    });
    if (wrong.length > 0) {
      throw new InvalidPartsError(
        "part_mismatch",
        `The ETag or checksum of part ${wrong[0]!.partNumber} is not the stored part's (${wrong.length} wrong); send what each part's PUT answered`,
        { partNumbers: wrong.slice(0, 20).map((p) => p.partNumber) },
      );
    }
    const parts = [...stored].sort((a, b) => a.partNumber - b.partNumber);
    const completed = await deps.multipart.complete(
      file.key,
      file.uploadId,
      parts.map((p) => ({
        partNumber: p.partNumber,
        etag: p.etag,
        ...(p.checksumCRC32C ? { checksumCRC32C: p.checksumCRC32C } : {}),
        ...(p.checksumCRC32 ? { checksumCRC32: p.checksumCRC32 } : {}),
      })),
    );
    if (completed) return finishUpload(deps, caller, file, input, links, now);
  }
  const current = await deps.files.get(file.fileId);
  if (current && current.status !== "pending") return outcomeOf(current, links);
  if (!current || !(await deps.storage.head(file.key))) throw notFound();
  return finishUpload(deps, caller, current, input, links, now);
}
