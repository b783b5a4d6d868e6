import type { S3Client } from "@aws-sdk/client-s3";
import { S3RangeReader } from "@hangar/inspect/s3";
import { RangedPackageInspector, type InspectionStats } from "./ranged-package-inspector";

export { toMetadata, RangedPackageInspector, type InspectionStats } from "./ranged-package-inspector";

/** The package inspector on the S3 client: ranges read by @hangar/inspect's S3RangeReader. */
export class S3PackageInspector extends RangedPackageInspector {
  constructor(client: S3Client, bucket: string, onInspected?: (stats: InspectionStats) => void) {
    super(
      (pkg) =>
        new S3RangeReader({
          client,
          bucket,
          key: pkg.key,
          size: pkg.size,
          // The pinned version makes every range the bytes HEAD saw; the ETag guards unversioned buckets.
          ...(pkg.versionId ? { versionId: pkg.versionId } : pkg.etag ? { ifMatch: pkg.etag } : {}),
        }),
      onInspected,
    );
  }
}
