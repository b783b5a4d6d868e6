import { GetObjectCommand } from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import { InspectError, messageOf } from "../inspect-result";
import { checkRange } from "./check-range";
import type { RandomAccessReader, ReadStats } from "./random-access-reader";

export interface S3RangeReaderOptions {
  client: S3Client;
  bucket: string;
  key: string;
  /** From the HEAD the caller already did; saves a request and bounds every range. */
  size: number;
  /**
   * Version id from that HEAD (versioned bucket): every range comes from exactly that version, whatever is
   * written to the key meanwhile. This is what makes the inspected bytes the ones later served.
   */
  versionId?: string;
  /** ETag from that HEAD: a package replaced mid-parse fails instead of mixing two files (unversioned buckets). */
  ifMatch?: string;
}

/**
 * Reads a package in place in S3 with ranged GETs, so a gigabyte IPA costs a few requests and
 * a few hundred KB instead of a download into a Lambda's memory or /tmp.
 */
export class S3RangeReader implements RandomAccessReader {
  readonly stats: ReadStats = { bytesRead: 0, reads: 0 };
  readonly size: number;

  constructor(private readonly options: S3RangeReaderOptions) {
    this.size = options.size;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length, this.size);
    if (length === 0) return Buffer.alloc(0);
    const { client, bucket, key, versionId, ifMatch } = this.options;
    let bytes: Uint8Array;
    try {
      const response = await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key: key,
          // HTTP ranges are inclusive at both ends.
          Range: `bytes=${offset}-${offset + length - 1}`,
          ...(versionId ? { VersionId: versionId } : {}),
          ...(ifMatch ? { IfMatch: ifMatch } : {}),
        }),
      );
      if (!response.Body) throw new Error("empty response body");
      bytes = await response.Body.transformToByteArray();
    } catch (error) {
      throw new InspectError(
        "read_failed",
        `Cannot read s3://${bucket}/${key} bytes ${offset}+${length}: ${messageOf(error)}`,
        { cause: error },
      );
    }
    if (bytes.length !== length) {
      throw new InspectError(
        "read_failed",
        `s3://${bucket}/${key}: asked for ${length} bytes at ${offset}, got ${bytes.length}`,
      );
    }
    this.stats.reads += 1;
    this.stats.bytesRead += length;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close(): Promise<void> {}
}
