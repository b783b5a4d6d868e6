import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { S3Error, noSuchBucket } from "../s3-error";
import { isValidBucketName } from "./bucket-name";
import { KeyedLock } from "./keyed-lock";
import { openObjectBytes, segmentsOf, type ObjectBytes } from "./object-bytes";
import { NULL_VERSION, isDeleteMarker, parseKeyHistory, type DeleteMarker, type KeyHistory, type ObjectRecord } from "./object-record";

const TEMP_DIR = ".tmp";
const BUCKET_MARKER = ".bucket.json";

export interface BucketInfo {
  name: string;
  creationDate: Date;
}

export type VersioningStatus = "Enabled" | "Suspended";

export interface OpenedObject {
  record: ObjectRecord;
  /** The bytes, opened: they stay readable even if the object is overwritten or deleted meanwhile. */
  bytes: ObjectBytes;
  /** The bucket's versioning state; undefined = never configured (S3 then sends no version ids). */
  versioning: VersioningStatus | undefined;
}

/** What a GET/HEAD finds: an object version, a delete marker, or nothing. */
export type LookupResult =
  | ({ kind: "object" } & OpenedObject)
  | { kind: "deleteMarker"; marker: DeleteMarker; versioning: VersioningStatus | undefined }
  | { kind: "missing" };

export interface DeleteResult {
  /** The version removed, or the delete marker created; undefined when the bucket was never versioned. */
  versionId?: string;
  /** The removed version was a delete marker, or a delete marker was created. */
  deleteMarker: boolean;
}

/** Version ids this store issues: 24 random bytes in base64url (S3's are opaque strings of similar length). */
export const VERSION_ID = /^[A-Za-z0-9_-]{32}$/;

export function newVersionId(): string {
  return randomBytes(24).toString("base64url");
}

/**
 * Objects on the local filesystem: `dataDir/<bucket>/<2 hex>/<sha256(key)>.json` is the sidecar of a key
 * (every version, newest first, each naming its bytes file next to it). File names derive from a hash of the
 * key, never from the key itself, so no key (`..`, `/`, NUL, 1 KB of UTF-8) can reach outside the bucket
 * folder or hit file-name limits. Bucket names are validated to S3's rules before they touch a path.
 * Writes land in `dataDir/.tmp` first and are renamed into place, so a reader sees an old object or a
 * complete new one, never a partial one.
 *
 * Versioning follows S3: in a bucket never configured, a PUT replaces the object (version "null") and a
 * DELETE removes it; with versioning Enabled every PUT adds a version with a fresh id and a DELETE without
 * a version id only adds a delete marker; Suspended writes and deletes the "null" version and keeps the rest.
 * Only a DELETE naming a version id ever removes a versioned object's bytes.
 */
export class FileObjectStorage {
  private readonly keyLocks = new KeyedLock();
  /**
   * Each bucket's marker (creation date, versioning) once read or written. This store is the data
   * dir's only writer while it runs (the stack lock), and every bucket change goes through this
   * class, so the cache cannot go stale; without it every request stat()ed the bucket folder and
   * read its marker file, twice for a GET (the request's check and the object lookup's).
   */
  private readonly markers = new Map<string, { createdAt: Date; versioning?: VersioningStatus }>();

  private constructor(readonly dataDir: string) {}

  static async open(dataDir: string): Promise<FileObjectStorage> {
    await mkdir(dataDir, { recursive: true });
    // Leftovers of uploads interrupted by a crash or shutdown: never part of an object.
    await rm(join(dataDir, TEMP_DIR), { recursive: true, force: true });
    await mkdir(join(dataDir, TEMP_DIR));
    return new FileObjectStorage(dataDir);
  }

  /** A fresh path in the data dir's temp folder (same filesystem as the objects, so rename is atomic). */
  tempFile(): string {
    return join(this.dataDir, TEMP_DIR, randomUUID());
  }

  async bucketExists(bucket: string): Promise<boolean> {
    if (!isValidBucketName(bucket)) return false;
    return this.markers.has(bucket) || isDirectory(join(this.dataDir, bucket));
  }

  /** Returns false when the bucket already existed (CreateBucket is idempotent for its owner). */
  async createBucket(bucket: string): Promise<boolean> {
    if (!isValidBucketName(bucket)) {
      throw new S3Error(400, "InvalidBucketName", "The specified bucket is not valid.", { BucketName: bucket });
    }
    try {
      await mkdir(join(this.dataDir, bucket));
    } catch (error) {
      if (errorCode(error) === "EEXIST") return false;
      throw error;
    }
    await this.writeMarker(bucket, { createdAt: new Date().toISOString() });
    return true;
  }

  async deleteBucket(bucket: string): Promise<void> {
    await this.requireBucket(bucket);
    // S3 refuses while any version or delete marker remains, not only current objects.
    if ((await this.listHistories(bucket)).length > 0) {
      throw new S3Error(409, "BucketNotEmpty", "The bucket you tried to delete is not empty", { BucketName: bucket });
    }
    this.markers.delete(bucket);
    await rm(join(this.dataDir, bucket), { recursive: true, force: true });
  }

  async listBuckets(): Promise<BucketInfo[]> {
    const entries = await readdir(this.dataDir, { withFileTypes: true });
    const buckets: BucketInfo[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !isValidBucketName(entry.name)) continue;
      buckets.push({ name: entry.name, creationDate: (await this.readMarker(entry.name)).createdAt });
    }
    return buckets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** GetBucketVersioning: undefined until versioning was first configured (S3 then answers an empty configuration). */
  async getVersioning(bucket: string): Promise<VersioningStatus | undefined> {
    await this.requireBucket(bucket);
    return (await this.readMarker(bucket)).versioning;
  }

  /** PutBucketVersioning. As on S3, a bucket once versioned can be suspended but never returns to unversioned. */
  async putVersioning(bucket: string, status: VersioningStatus): Promise<void> {
    await this.requireBucket(bucket);
    const marker = await this.readMarker(bucket);
    await this.writeMarker(bucket, { createdAt: marker.createdAt.toISOString(), versioning: status });
  }

  /**
   * Moves a fully received and verified temp file into place as a new version of `key` (or as its "null"
   * version when the bucket is not versioning). The bytes get a fresh file name and the sidecar is swapped by
   * rename, so concurrent readers keep a consistent (old or new) object. A list of files (a completed
   * multipart upload's parts) is moved the same way and kept as the object's segments, in that order.
   */
  async putObject(
    bucket: string,
    key: string,
    source: string | readonly { path: string; size: number }[],
    fields: Omit<ObjectRecord, "key" | "blob" | "segments" | "lastModified" | "versionId">,
  ): Promise<{ record: ObjectRecord; versioning: VersioningStatus | undefined }> {
    await this.requireBucket(bucket);
    const { dir, hash, sidecar } = this.locate(bucket, key);
    return this.withKeyLock(bucket, key, async () => {
      const versioning = (await this.readMarker(bucket)).versioning;
      await mkdir(dir, { recursive: true });
      const history = (await this.readHistory(sidecar)) ?? { key, versions: [] };
      const versionId = versioning === "Enabled" ? newVersionId() : NULL_VERSION;
      const files = typeof source === "string" ? [{ path: source, size: fields.size }] : source;
      const segments = files.map((file) => ({ path: file.path, blob: `${hash}.${randomUUID()}.bin`, size: file.size }));
      const record: ObjectRecord = {
        ...fields,
        key,
        versionId,
        blob: segments[0]!.blob,
        ...(typeof source === "string" ? {} : { segments: segments.map(({ blob, size }) => ({ blob, size })) }),
        lastModified: new Date().toISOString(),
      };
      for (const segment of segments) await rename(segment.path, join(dir, segment.blob));
      // Writing the "null" version replaces the previous "null" version (unversioned or suspended bucket).
      const replaced = history.versions.filter((v) => v.versionId === versionId);
      history.versions = [record, ...history.versions.filter((v) => v.versionId !== versionId)];
      await this.writeHistory(sidecar, history);
      await this.unlinkBlobs(dir, replaced);
      return { record, versioning };
    });
  }

  /**
   * The current version of `key`, or the version named by `versionId`. A delete marker is returned as such
   * (the caller answers 404 or 405 as S3 does); "missing" covers an unknown key and an unknown version alike.
   */
  async openObject(bucket: string, key: string, versionId?: string): Promise<LookupResult> {
    await this.requireBucket(bucket);
    const { dir, sidecar } = this.locate(bucket, key);
    const versioning = (await this.readMarker(bucket)).versioning;
    // A concurrent overwrite or version delete may remove the bytes file between reading the sidecar and opening it; read again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const history = await this.readHistory(sidecar);
      const entry = versionId === undefined ? history?.versions[0] : history?.versions.find((v) => v.versionId === versionId);
      if (!entry) return { kind: "missing" };
      if (isDeleteMarker(entry)) return { kind: "deleteMarker", marker: entry, versioning };
      try {
        return { kind: "object", record: entry, bytes: await openObjectBytes(dir, entry), versioning };
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error;
      }
    }
    throw new S3Error(503, "SlowDown", "The object changed repeatedly while being read; retry.");
  }

  /**
   * DeleteObject. With `versionId`, that version (object or delete marker) is removed for good. Without it,
   * an unversioned bucket loses the object, while a versioned one only gains a delete marker (its "null"
   * version is replaced by the marker when suspended): earlier versions stay readable by version id.
   */
  async deleteObject(bucket: string, key: string, versionId?: string): Promise<DeleteResult> {
    await this.requireBucket(bucket);
    const { dir, sidecar } = this.locate(bucket, key);
    return this.withKeyLock(bucket, key, async () => {
      const versioning = (await this.readMarker(bucket)).versioning;
      const history = (await this.readHistory(sidecar)) ?? { key, versions: [] };
      if (versionId === undefined && versioning !== undefined) {
        const marker: DeleteMarker = {
          key,
          versionId: versioning === "Enabled" ? newVersionId() : NULL_VERSION,
          deleteMarker: true,
          lastModified: new Date().toISOString(),
        };
        const replaced = history.versions.filter((v) => v.versionId === marker.versionId);
        history.versions = [marker, ...history.versions.filter((v) => v.versionId !== marker.versionId)];
        await mkdir(dir, { recursive: true });
        await this.writeHistory(sidecar, history);
        await this.unlinkBlobs(dir, replaced);
        return { versionId: marker.versionId, deleteMarker: true };
      }
      const target = versionId ?? NULL_VERSION;
      const removed = history.versions.filter((v) => v.versionId === target);
      if (removed.length === 0) return versionId === undefined ? { deleteMarker: false } : { versionId, deleteMarker: false };
      history.versions = history.versions.filter((v) => v.versionId !== target);
      if (history.versions.length === 0) await unlinkIfPresent(sidecar);
      else await this.writeHistory(sidecar, history);
      await this.unlinkBlobs(dir, removed);
      const wasMarker = removed.some(isDeleteMarker);
      return versionId === undefined ? { deleteMarker: wasMarker } : { versionId, deleteMarker: wasMarker };
    });
  }

  /** The current version of every key whose current version is not a delete marker, sorted by key in UTF-8 byte order (S3's listing order). */
  async listObjects(bucket: string): Promise<ObjectRecord[]> {
    const records: ObjectRecord[] = [];
    for (const history of await this.listHistories(bucket)) {
      const current = history.versions[0];
      if (current && !isDeleteMarker(current)) records.push(current);
    }
    return records.sort((a, b) => Buffer.compare(Buffer.from(a.key, "utf8"), Buffer.from(b.key, "utf8")));
  }

  /** Every key's history (versions and delete markers, newest first), for ListObjectVersions. */
  async listVersions(bucket: string): Promise<KeyHistory[]> {
    return this.listHistories(bucket);
  }

  private async listHistories(bucket: string): Promise<KeyHistory[]> {
    await this.requireBucket(bucket);
    const bucketDir = join(this.dataDir, bucket);
    const histories: KeyHistory[] = [];
    for (const shard of await readdir(bucketDir, { withFileTypes: true })) {
      if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
      for (const name of await readdir(join(bucketDir, shard.name))) {
        if (!name.endsWith(".json")) continue;
        const history = await this.readHistory(join(bucketDir, shard.name, name));
        if (history && history.versions.length > 0) histories.push(history);
      }
    }
    return histories;
  }

  private async requireBucket(bucket: string): Promise<void> {
    if (!(await this.bucketExists(bucket))) throw noSuchBucket(bucket);
  }

  private async readMarker(bucket: string): Promise<{ createdAt: Date; versioning?: VersioningStatus }> {
    const known = this.markers.get(bucket);
    if (known) return known;
    const marker = await this.readMarkerFile(bucket);
    this.markers.set(bucket, marker);
    return marker;
  }

  private async readMarkerFile(bucket: string): Promise<{ createdAt: Date; versioning?: VersioningStatus }> {
    try {
      const marker = JSON.parse(await readFile(join(this.dataDir, bucket, BUCKET_MARKER), "utf8")) as Record<string, unknown>;
      if (typeof marker.createdAt === "string") {
        const versioning = marker.versioning === "Enabled" || marker.versioning === "Suspended" ? marker.versioning : undefined;
        return { createdAt: new Date(marker.createdAt), ...(versioning ? { versioning } : {}) };
      }
    } catch {
      // A bucket folder made by hand has no marker: unversioned, and its folder time is the best creation date.
    }
    return { createdAt: (await stat(join(this.dataDir, bucket))).mtime };
  }

  private async writeMarker(bucket: string, marker: { createdAt: string; versioning?: VersioningStatus }): Promise<void> {
    const temp = this.tempFile();
    await writeFile(temp, JSON.stringify(marker));
    await rename(temp, join(this.dataDir, bucket, BUCKET_MARKER));
    this.markers.set(bucket, { createdAt: new Date(marker.createdAt), ...(marker.versioning ? { versioning: marker.versioning } : {}) });
  }

  private locate(bucket: string, key: string) {
    const hash = createHash("sha256").update(key, "utf8").digest("hex");
    const dir = join(this.dataDir, bucket, hash.slice(0, 2));
    return { dir, hash, sidecar: join(dir, `${hash}.json`) };
  }

  private async readHistory(sidecar: string): Promise<KeyHistory | undefined> {
    let text: string;
    try {
      text = await readFile(sidecar, "utf8");
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw error;
    }
    return parseKeyHistory(text, sidecar);
  }

  private async writeHistory(sidecar: string, history: KeyHistory): Promise<void> {
    const temp = this.tempFile();
    await writeFile(temp, JSON.stringify(history));
    await rename(temp, sidecar);
  }

  private async unlinkBlobs(dir: string, entries: readonly KeyHistory["versions"][number][]): Promise<void> {
    for (const entry of entries) {
      if (isDeleteMarker(entry)) continue;
      for (const segment of segmentsOf(entry)) await unlinkIfPresent(join(dir, segment.blob));
    }
  }

  /** Serialises writers of one key in this process, so an overwrite never loses track of the bytes file it replaces. */
  private withKeyLock<T>(bucket: string, key: string, work: () => Promise<T>): Promise<T> {
    return this.keyLocks.run(`${bucket}/${key}`, work);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
}

export async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}
