import { DeleteObjectCommand, ListObjectVersionsCommand, type S3Client } from "@aws-sdk/client-s3";
import { DependencyError } from "../../errors/domain-errors";
import type { ObjectPurger } from "../../ports";

/** Deletes run this many at a time: enough to be quick, few enough not to trip S3's per-prefix limits. */
const PARALLEL_DELETES = 16;

function s3Failure(operation: string, error: unknown): DependencyError {
  const name = error instanceof Error ? error.name : "UnknownError";
  return new DependencyError("s3", `S3 ${operation} failed (${name})`, { cause: error });
}

/**
 * The bucket is versioned, so a plain DeleteObject would only add a delete marker and keep every
 * byte. This lists versions and delete markers under a prefix and deletes each by version id,
 * which removes it for good. One DeleteObject per version (not DeleteObjects) so the same code
 * runs against the local object store.
 */
export class S3ObjectPurger implements ObjectPurger {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async purgePrefix(prefix: string): Promise<{ deleted: number; more: boolean }> {
    let listed;
    try {
      listed = await this.client.send(new ListObjectVersionsCommand({ Bucket: this.bucket, Prefix: prefix, MaxKeys: 1000 }));
    } catch (error) {
      throw s3Failure("ListObjectVersions", error);
    }
    const targets = [...(listed.Versions ?? []), ...(listed.DeleteMarkers ?? [])]
      .filter((v) => v.Key?.startsWith(prefix))
      .map((v) => ({ Key: v.Key!, VersionId: v.VersionId ?? "null" }));
    let next = 0;
    const worker = async () => {
      while (next < targets.length) {
        const target = targets[next++]!;
        try {
          await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, ...target }));
        } catch (error) {
          throw s3Failure("DeleteObject", error);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_DELETES, targets.length) }, worker));
    return { deleted: targets.length, more: listed.IsTruncated === true };
  }
}
