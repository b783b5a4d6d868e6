import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { DependencyError } from "../../errors/domain-errors";
import type { ObjectStorage, PresignGetInput, PresignPutInput } from "../../ports";
import { contentDisposition } from "./content-disposition";

function s3Failure(operation: string, error: unknown): DependencyError {
  const name = error instanceof Error ? error.name : "UnknownError";
  return new DependencyError("s3", `S3 ${operation} failed (${name})`, { cause: error });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

/**
 * The S3 client must be built with `requestChecksumCalculation: "WHEN_REQUIRED"`: otherwise
 * SDK v3 signs a CRC32 of an empty body into presigned PUTs, and every real upload fails.
 */
export class S3ObjectStorage implements ObjectStorage {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async presignPut({ key, size, contentType, expiresInSeconds }: PresignPutInput): Promise<string> {
    // Signing Content-Length and Content-Type makes S3 itself refuse another size or type.
    return getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentLength: size, ContentType: contentType }),
      { expiresIn: expiresInSeconds, signableHeaders: new Set(["content-length", "content-type"]) },
    );
  }

  async presignGet({ key, downloadName, expiresInSeconds, inline }: PresignGetInput): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentDisposition: contentDisposition(downloadName, inline ? "inline" : "attachment"),
      }),
      { expiresIn: expiresInSeconds },
    );
  }

  async head(key: string): Promise<{ size: number } | undefined> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: out.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw s3Failure("HeadObject", error);
    }
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
    } catch (error) {
      throw s3Failure("PutObject", error);
    }
  }
}
