import { S3MultipartStore, S3ObjectStore } from "@hangar/core/s3";
import { S3PackageInspector, type InspectionStats } from "@hangar/core/s3-inspector";
import { getRuntime } from "./root";
import { s3Client } from "./s3-client";

let parts: { store: S3ObjectStore; inspector: S3PackageInspector; multipart: S3MultipartStore } | undefined;

/**
 * What only complete needs: an S3 client (HEAD, ranged GETs, the icon PUT) and the extractor.
 * Kept out of the shared root so the other functions' bundles carry neither.
 */
export function getPackageAccess(onInspected: (stats: InspectionStats) => void) {
  if (parts) return parts;
  const { settings } = getRuntime();
  const s3 = s3Client(settings);
  parts = {
    store: new S3ObjectStore(s3, settings.HANGAR_BUCKET_NAME),
    inspector: new S3PackageInspector(s3, settings.HANGAR_BUCKET_NAME, onInspected),
    // Complete assembles multipart uploads; the multipart function starts and aborts them.
    multipart: new S3MultipartStore(s3, settings.HANGAR_BUCKET_NAME),
  };
  return parts;
}
