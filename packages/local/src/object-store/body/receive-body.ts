import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Transform, type Readable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { S3Error } from "../s3-error";
import { AwsChunkedDecoder } from "./aws-chunked-decoder";
import { createChecksum, type ChecksumAlgorithm } from "./checksums";
import { fileChecksums, isNativeChecksum } from "./file-checksums";

export interface ReceiveBodyOptions {
  source: Readable;
  /** Content-Length: bytes expected on the wire; undefined for a Transfer-Encoding: chunked aws-chunked body. */
  wireLength: number | undefined;
  /** Body is `aws-chunked` (unsigned chunks); the object is the decoded bytes. */
  chunked: boolean;
  checksums: readonly ChecksumAlgorithm[];
  /** Compute the SHA-256 too (needed only when the signature covers the payload's hash). */
  sha256?: boolean;
  /** New file to create; must not exist. */
  destination: string;
}

export interface ReceivedBody {
  /** Object bytes written (decoded when chunked). */
  size: number;
  md5: Buffer;
  /** Only when asked for. */
  sha256Hex: string | undefined;
  /** Base64 digests of the object bytes, per requested algorithm. */
  checksums: Map<ChecksumAlgorithm, string>;
  /** aws-chunked trailer fields, lower-case names. */
  trailers: Map<string, string>;
}

/**
 * Streams a request body to `destination` while hashing it, never holding more than a stream buffer in
 * memory (packages reach gigabytes); the checksums Node computes natively are then taken of the written
 * file by a worker thread (file-checksums.ts), off the thread the transfer waits for. Rejects if the
 * body ends early, the connection drops, or the chunked framing is broken; the caller owns deleting
 * `destination` then.
 */
export async function receiveBody(options: ReceiveBodyOptions): Promise<ReceivedBody> {
  let wireBytes = 0;
  let size = 0;
  const md5 = createHash("md5");
  // Hashing is most of the CPU an upload costs here; skip the SHA-256 nothing will compare.
  const sha256 = options.sha256 === false ? undefined : createHash("sha256");
  const sums = options.checksums.filter((a) => !isNativeChecksum(a)).map((algorithm) => [algorithm, createChecksum(algorithm)] as const);
  const native = options.checksums.filter(isNativeChecksum);

  const countWire = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      wireBytes += chunk.length;
      callback(null, chunk);
    },
  });
  const digest = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      md5.update(chunk);
      sha256?.update(chunk);
      for (const [, sum] of sums) sum.update(chunk);
      callback(null, chunk);
    },
  });
  const decoder = options.chunked ? new AwsChunkedDecoder() : undefined;
  const file = createWriteStream(options.destination, { flags: "wx", highWaterMark: 1024 * 1024 });

  // The source is piped in rather than made part of the pipeline: a pipeline error would destroy the
  // request and with it the socket, and the client would get a reset instead of the S3 error.
  const sink = pipeline([countWire, ...(decoder ? [decoder] : []), digest, file]);
  const sourceEnded = finished(options.source);
  options.source.pipe(countWire);
  try {
    await Promise.all([sink, sourceEnded]);
  } catch (error) {
    options.source.unpipe(countWire);
    countWire.destroy(error as Error);
    // Let the file stream close before the caller deletes the file, or a late open could recreate it.
    await sink.catch(() => undefined);
    if (options.source.readableAborted && !(error instanceof S3Error)) {
      // The client dropped the connection: a normal event for uploads, not a store failure.
      throw new S3Error(400, "IncompleteBody", "The connection closed before the request body was complete.");
    }
    throw error;
  }

  // Node's HTTP parser stops at Content-Length and errors on a dropped connection; this guards the invariant.
  if (options.wireLength !== undefined && wireBytes !== options.wireLength) {
    throw new S3Error(400, "IncompleteBody", "You did not provide the number of bytes specified by the Content-Length HTTP header");
  }
  const checksums = new Map<ChecksumAlgorithm, string>(sums.map(([algorithm, sum]) => [algorithm, sum.digestBase64()]));
  const fromFile = await fileChecksums(options.destination, native);
  native.forEach((algorithm, i) => checksums.set(algorithm, fromFile[i]!));
  return {
    size,
    md5: md5.digest(),
    sha256Hex: sha256?.digest("hex"),
    checksums,
    trailers: decoder?.trailers ?? new Map(),
  };
}
