import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { DependencyError } from "../../errors/domain-errors";
import type { MultipartStore, PartChecksumAlgorithm, StoredPart } from "../../ports";

function s3Failure(operation: string, error: unknown): DependencyError {
  const name = error instanceof Error ? error.name : "UnknownError";
  return new DependencyError("s3", `S3 ${operation} failed (${name})`, { cause: error });
}

const isNoSuchUpload = (error: unknown) => (error as { name?: string })?.name === "NoSuchUpload";

/** S3's multipart calls; uploads are created with CRC32C or CRC32 (COMPOSITE) checksums. */
export class S3MultipartStore implements MultipartStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async create(key: string, contentType: string, checksumAlgorithm: PartChecksumAlgorithm): Promise<string> {
    try {
      const out = await this.client.send(
        new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ChecksumAlgorithm: checksumAlgorithm }),
      );
      if (!out.UploadId) throw new Error("CreateMultipartUpload answered without an UploadId");
      return out.UploadId;
    } catch (error) {
      throw s3Failure("CreateMultipartUpload", error);
    }
  }

  async listParts(key: string, uploadId: string): Promise<StoredPart[] | undefined> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, ...(marker ? { PartNumberMarker: marker } : {}) }),
        );
      } catch (error) {
        if (isNoSuchUpload(error)) return undefined;
        throw s3Failure("ListParts", error);
      }
      for (const p of page.Parts ?? []) {
        parts.push({
          partNumber: p.PartNumber!,
          etag: p.ETag!,
          size: p.Size ?? 0,
          ...(p.ChecksumCRC32C ? { checksumCRC32C: p.ChecksumCRC32C } : {}),
          ...(p.ChecksumCRC32 ? { checksumCRC32: p.ChecksumCRC32 } : {}),
        });
      }
      if (!page.IsTruncated) return parts;
      marker = page.NextPartNumberMarker;
    }
  }

  async complete(
    key: string,
    uploadId: string,
    parts: { partNumber: number; etag: string; checksumCRC32C?: string; checksumCRC32?: string }[],
  ): Promise<boolean> {
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: {
            Parts: parts.map((p) => ({
              PartNumber: p.partNumber,
              ETag: p.etag,
              ...(p.checksumCRC32C ? { ChecksumCRC32C: p.checksumCRC32C } : {}),
              ...(p.checksumCRC32 ? { ChecksumCRC32: p.checksumCRC32 } : {}),
            })),
          },
        }),
      );
      return true;
    } catch (error) {
      if (isNoSuchUpload(error)) return false;
      throw s3Failure("CompleteMultipartUpload", error);
    }
  }

  async abort(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }));
    } catch (error) {
      if (isNoSuchUpload(error)) return;
      throw s3Failure("AbortMultipartUpload", error);
    }
  }
}
