import { BufferRangeReader, InspectError, inspectPackage, type InspectResult, type RandomAccessReader } from "@hangar/inspect";
import { ConflictError, DependencyError, InvalidPackageError } from "../../errors/domain-errors";
import type { InspectedPackage, PackageInspector, PackageMetadata, StoredPackage } from "../../ports";

export interface InspectionStats {
  bytesRead: number;
  reads: number;
  durationMs: number;
}

/** Metadata for clients: everything extraction found except the icon's bytes. */
export function toMetadata(result: InspectResult): PackageMetadata {
  // The profile's UDIDs are the file record's (docs/devices.md), never metadata clients see.
  const { icon, provisionedUdids: _udids, ...rest } = result;
  return icon ? { ...rest, icon: { path: icon.path, width: icon.width, height: icon.height } } : rest;
}

/**
 * Reads packages in place with ranged GETs (see docs/extraction.md): only the zip's tail, its
 * central directory and the few entries needed ever leave S3, whatever the package's size. A
 * small package complete has already read whole (StoredPackage.bytes) is parsed from memory.
 * The ranges come from `openRanges`: in the service, S3RestRangeReader's signed GETs
 * (object-store.rest.s3.ts, composed in the complete function's composition).
 */
export class RangedPackageInspector implements PackageInspector {
  constructor(
    private readonly openRanges: (pkg: StoredPackage) => RandomAccessReader,
    private readonly onInspected?: (stats: InspectionStats) => void,
  ) {}

  async inspect(pkg: StoredPackage): Promise<InspectedPackage> {
    // A package complete already read whole (small ones) is parsed from memory: those bytes are
    // the pinned version's, and no further request is needed.
    const reader: RandomAccessReader = pkg.bytes
      ? new BufferRangeReader(Buffer.from(pkg.bytes.buffer, pkg.bytes.byteOffset, pkg.bytes.byteLength))
      : this.openRanges(pkg);
    const started = Date.now();
    try {
      const result = await inspectPackage(reader, { fileName: pkg.fileName });
      return {
        metadata: toMetadata(result),
        ...(result.icon ? { icon: result.icon.data } : {}),
        ...(result.provisionedUdids ? { provisionedUdids: result.provisionedUdids } : {}),
      };
    } catch (error) {
      // A failed S3 read says nothing about the package: keep the upload pending and retryable.
      if (error instanceof InspectError && error.code === "read_failed") {
        if (objectWentAway(error.cause)) {
          // Deterministic, not a storage outage: answering 503 would make clients retry the same read forever.
          throw new ConflictError(
            "object_changed",
            "The uploaded object was replaced or deleted while it was being read; complete again to read what is stored now",
          );
        }
        throw new DependencyError("s3", "Reading the package from storage failed", { cause: error });
      }
      if (error instanceof InspectError) {
        throw new InvalidPackageError(error.code, error.message, { cause: error });
      }
      throw error;
    } finally {
      // What left S3: the one GET of a whole package, or the ranges read.
      const stats = pkg.bytes ? { bytesRead: pkg.bytes.byteLength, reads: 1 } : reader.stats;
      this.onInspected?.({ ...stats, durationMs: Date.now() - started });
      await reader.close();
    }
  }
}

/**
 * S3's answer when the pinned version or ETag is no longer what the key holds: the version was deleted
 * (NoSuchVersion/NoSuchKey, 404) or, without versioning, the object was replaced (PreconditionFailed, 412).
 */
function objectWentAway(error: unknown): boolean {
  const e = error as { name?: string; status?: number; $metadata?: { httpStatusCode?: number } } | undefined;
  // The SDK's exceptions carry the status in $metadata; signed fetches' (AwsServiceError) in status.
  const status = e?.$metadata?.httpStatusCode ?? e?.status;
  return (
    e?.name === "NoSuchVersion" || e?.name === "NoSuchKey" || e?.name === "PreconditionFailed" || status === 404 || status === 412
  );
}
