import { isDashboardUpload, type CompleteDeps, type CompletedFile, type MultipartStore, type Uploader } from "@hangar/core";
import { S3MultipartStore, S3ObjectStore } from "@hangar/core/s3";
import { S3PackageInspector } from "@hangar/core/s3-inspector";
import { logger } from "../observability/logger";
import { record } from "../observability/metrics";
import { once } from "./once";
import { getRuntime } from "./root";
import { s3Client } from "./s3-client";

/**
 * Keeps the key's usage and the project's file count current. Both writes run together; a
 * failure is logged, never turned into a failed complete (the upload itself is stored). A
 * dashboard upload counts on the project only: it used no key.
 */
async function countCompleted(file: CompletedFile, caller: Uploader): Promise<void> {
  const { usage, projects } = getRuntime();
  await Promise.all([
    isDashboardUpload(caller) ? undefined : usage?.uploadCompleted(caller.clientId, new Date(file.completedAt), file.fileSize),
    projects.recordUpload(caller.userId, file.projectId, file.completedAt),
  ]).catch((error: unknown) => logger.warn("could not count a completed upload", { error: error as Error, fileId: file.fileId }));
}

/**
 * The complete function's ports: an S3 client (HEAD, ranged GETs, the icon PUT) with the
 * extractor, whose timings go to the metrics, and the multipart store (complete assembles
 * multipart uploads; the multipart function starts and aborts them). Kept out of the shared
 * root so the other functions' bundles carry neither.
 */
export const completeDeps = once((): CompleteDeps & { multipart: MultipartStore } => {
  const { settings, files, clock, ids, upload } = getRuntime();
  const s3 = s3Client(settings);
  const bucket = settings.HANGAR_BUCKET_NAME;
  return {
    files,
    storage: new S3ObjectStore(s3, bucket),
    inspector: new S3PackageInspector(s3, bucket, (stats) => {
      record.extractionTime(stats.durationMs);
      record.bytesRead(stats.bytesRead);
    }),
    multipart: new S3MultipartStore(s3, bucket),
    clock,
    ids,
    settings: upload,
    onCompleted: countCompleted,
  };
});
