import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink, writeFile, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { S3Error, noSuchBucket } from "../s3-error";
import { isValidBucketName } from "./bucket-name";
import { parseObjectRecord, type ObjectRecord } from "./object-record";

const TEMP_DIR = ".tmp";
const BUCKET_MARKER = ".bucket.json";

export interface BucketInfo {
  name: string;
  creationDate: Date;
}

export interface OpenedObject {
  record: ObjectRecord;
  /** Open handle on the bytes: stays readable even if the object is overwritten or deleted meanwhile. */
  handle: FileHandle;
}

/**
 * Objects on the local filesystem: `dataDir/<bucket>/<2 hex>/<sha256(key)>.json` is the sidecar (key, size,
 * ETag, content type, metadata) and names the bytes file next to it. File names derive from a hash of the
 * key, never from the key itself, so no key (`..`, `/`, NUL, 1 KB of UTF-8) can reach outside the bucket
 * folder or hit file-name limits. Bucket names are validated to S3's rules before they touch a path.
 * Writes land in `dataDir/.tmp` first and are renamed into place, so a reader sees an old object or a
 * complete new one, never a partial one.
 */
export class FileObjectStorage {
  private readonly keyLocks = new Map<string, Promise<void>>();

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
    return isDirectory(join(this.dataDir, bucket));
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
    await writeFile(join(this.dataDir, bucket, BUCKET_MARKER), JSON.stringify({ createdAt: new Date().toISOString() }));
    return true;
  }

  async deleteBucket(bucket: string): Promise<void> {
    await this.requireBucket(bucket);
    if ((await this.listObjects(bucket)).length > 0) {
      throw new S3Error(409, "BucketNotEmpty", "The bucket you tried to delete is not empty", { BucketName: bucket });
    }
    await rm(join(this.dataDir, bucket), { recursive: true, force: true });
  }

  async listBuckets(): Promise<BucketInfo[]> {
    const entries = await readdir(this.dataDir, { withFileTypes: true });
    const buckets: BucketInfo[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !isValidBucketName(entry.name)) continue;
      buckets.push({ name: entry.name, creationDate: await this.bucketCreationDate(entry.name) });
    }
    return buckets.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Moves a fully received and verified temp file into place as `key`. The bytes get a fresh file name and
   * the sidecar is swapped by rename, so concurrent readers keep a consistent (old or new) object.
   */
  async putObject(
    bucket: string,
    key: string,
    tempFile: string,
    fields: Omit<ObjectRecord, "key" | "blob" | "lastModified">,
  ): Promise<ObjectRecord> {
    await this.requireBucket(bucket);
    const { dir, hash, sidecar } = this.locate(bucket, key);
    return this.withKeyLock(bucket, key, async () => {
      await mkdir(dir, { recursive: true });
      const previous = await this.readRecord(sidecar);
      const record: ObjectRecord = { ...fields, key, blob: `${hash}.${randomUUID()}.bin`, lastModified: new Date().toISOString() };
      await rename(tempFile, join(dir, record.blob));
      const sidecarTemp = this.tempFile();
      await writeFile(sidecarTemp, JSON.stringify(record));
      await rename(sidecarTemp, sidecar);
      if (previous && previous.blob !== record.blob) await unlinkIfPresent(join(dir, previous.blob));
      return record;
    });
  }

  async openObject(bucket: string, key: string): Promise<OpenedObject | undefined> {
    await this.requireBucket(bucket);
    const { dir, sidecar } = this.locate(bucket, key);
    // An overwrite between reading the sidecar and opening its bytes removes the old bytes file; read again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const record = await this.readRecord(sidecar);
      if (!record) return undefined;
      try {
        return { record, handle: await open(join(dir, record.blob), "r") };
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error;
      }
    }
    throw new S3Error(503, "SlowDown", "The object changed repeatedly while being read; retry.");
  }

  async deleteObject(bucket: string, key: string): Promise<void> {
    await this.requireBucket(bucket);
    const { dir, sidecar } = this.locate(bucket, key);
    await this.withKeyLock(bucket, key, async () => {
      const record = await this.readRecord(sidecar);
      if (!record) return;
      await unlinkIfPresent(sidecar);
      await unlinkIfPresent(join(dir, record.blob));
    });
  }

  /** Every object of the bucket, sorted by key in UTF-8 byte order (S3's listing order). */
  async listObjects(bucket: string): Promise<ObjectRecord[]> {
    await this.requireBucket(bucket);
    const bucketDir = join(this.dataDir, bucket);
    const records: ObjectRecord[] = [];
    for (const shard of await readdir(bucketDir, { withFileTypes: true })) {
      if (!shard.isDirectory() || !/^[0-9a-f]{2}$/.test(shard.name)) continue;
      for (const name of await readdir(join(bucketDir, shard.name))) {
        if (!name.endsWith(".json")) continue;
        const record = await this.readRecord(join(bucketDir, shard.name, name));
        if (record) records.push(record);
      }
    }
    return records.sort((a, b) => Buffer.compare(Buffer.from(a.key, "utf8"), Buffer.from(b.key, "utf8")));
  }

  private async requireBucket(bucket: string): Promise<void> {
    if (!(await this.bucketExists(bucket))) throw noSuchBucket(bucket);
  }

  private async bucketCreationDate(bucket: string): Promise<Date> {
    try {
      const marker = JSON.parse(await readFile(join(this.dataDir, bucket, BUCKET_MARKER), "utf8")) as { createdAt?: unknown };
      if (typeof marker.createdAt === "string") return new Date(marker.createdAt);
    } catch {
      // A bucket folder made by hand has no marker; its folder time is the best answer.
    }
    return (await stat(join(this.dataDir, bucket))).mtime;
  }

  private locate(bucket: string, key: string) {
    const hash = createHash("sha256").update(key, "utf8").digest("hex");
    const dir = join(this.dataDir, bucket, hash.slice(0, 2));
    return { dir, hash, sidecar: join(dir, `${hash}.json`) };
  }

  private async readRecord(sidecar: string): Promise<ObjectRecord | undefined> {
    let text: string;
    try {
      text = await readFile(sidecar, "utf8");
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw error;
    }
    return parseObjectRecord(text, sidecar);
  }

  /** Serialises writers of one key in this process, so an overwrite never loses track of the bytes file it replaces. */
  private async withKeyLock<T>(bucket: string, key: string, work: () => Promise<T>): Promise<T> {
    const id = `${bucket}/${key}`;
    const previous = this.keyLocks.get(id) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => current);
    this.keyLocks.set(id, chained);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.keyLocks.get(id) === chained) this.keyLocks.delete(id);
    }
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
