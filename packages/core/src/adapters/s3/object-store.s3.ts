import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectVersionsCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { DependencyError } from "../../errors/domain-errors";
import type { ObjectHead, ObjectStore } from "../../ports";

function s3Failure(operation: string, error: unknown): DependencyError {
  const name = error instanceof Error ? error.name : "UnknownError";
  return new DependencyError("s3", `S3 ${operation} failed (${name})`, { cause: error });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

/** HEAD, GET, PUT and DELETE through the S3 client; presigning lives in S3UrlSigner (no client needed). */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async head(key: string): Promise<ObjectHead | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        ...(out.VersionId ? { versionId: out.VersionId } : {}),
        ...(out.ETag ? { etag: out.ETag } : {}),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw s3Failure("HeadObject", error);
    }
  }

  async read(key: string, maxBytes: number): Promise<(ObjectHead & { body?: Uint8Array }) | undefined> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const head: ObjectHead = {
        size: out.ContentLength ?? 0,
        ...(out.VersionId ? { versionId: out.VersionId } : {}),
        ...(out.ETag ? { etag: out.ETag } : {}),
      };
      if (!out.Body || head.size > maxBytes) {
        // Only the headers were wanted: close the connection's stream instead of downloading it.
        (out.Body as { destroy?: () => void } | undefined)?.destroy?.();
        return head;
      }
      const body = await out.Body.transformToByteArray();
      if (body.length !== head.size) throw new Error(`read ${body.length} of ${head.size} bytes`);
      return { ...head, body };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw s3Failure("GetObject", error);
    }
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<{ versionId?: string }> {
    try {
      const out = await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
      return out.VersionId ? { versionId: out.VersionId } : {};
    } catch (error) {
      throw s3Failure("PutObject", error);
    }
  }

  async delete(key: string, versionId?: string): Promise<void> {
    try {
      // S3 answers 204 for a key that does not exist: nothing to special-case.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key, ...(versionId ? { VersionId: versionId } : {}) }));
    } catch (error) {
      throw s3Failure("DeleteObject", error);
    }
  }

  async listVersions(key: string): Promise<{ versionId: string }[]> {
    const versions: { versionId: string }[] = [];
    let keyMarker: string | undefined;
    let versionIdMarker: string | undefined;
    // Prefix = the key also lists longer keys that start with it; only exact matches count.
    for (;;) {
      let page;
      try {
        page = await this.client.send(
          new ListObjectVersionsCommand({
            Bucket: this.bucket,
            Prefix: key,
            ...(keyMarker !== undefined ? { KeyMarker: keyMarker } : {}),
            ...(versionIdMarker !== undefined ? { VersionIdMarker: versionIdMarker } : {}),
          }),
        );
      } catch (error) {
        throw s3Failure("ListObjectVersions", error);
      }
      for (const v of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]) {
        if (v.Key === key) versions.push({ versionId: v.VersionId ?? "null" });
      }
      if (!page.IsTruncated) return versions;
      keyMarker = page.NextKeyMarker;
      versionIdMarker = page.NextVersionIdMarker;
    }
  }
}
