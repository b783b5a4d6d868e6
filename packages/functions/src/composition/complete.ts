import {
  isDashboardUpload,
  keyWorkspaceId,
  recordChange,
  type CompleteDeps,
  type CompletedFile,
  type MultipartStore,
  type Uploader,
} from "@hangar/core";
import { S3MultipartStore, S3ObjectStore } from "@hangar/core/s3";
import { S3PackageInspector } from "@hangar/core/s3-inspector";
import { logger } from "../observability/logger";
import { record } from "../observability/metrics";
import { auditLog } from "./audit-log";
import { once } from "./once";
import { getRuntime } from "./root";
import { s3Client } from "./s3-client";

/**
 * Keeps the key's usage and the project's file count current (the project in the key's
 * workspace), and records a dashboard upload in the workspace's audit log (build.uploaded; an
 * API key's uploads are counted on its usage instead). The writes run together; a failure is
 * logged, never turned into a failed complete (the upload itself is stored).
 */
async function countCompleted(file: CompletedFile, caller: Uploader): Promise<void> {
  const { usage, projects } = getRuntime();
  const workspaceId = keyWorkspaceId(caller);
  await Promise.all([
    isDashboardUpload(caller) ? undefined : usage?.uploadCompleted(caller.clientId, new Date(file.completedAt), file.fileSize),
    projects.recordUpload(workspaceId, file.projectId, file.completedAt),
    caller.actor
      ? recordChange({ audit: auditLog() }, caller.actor, {
          workspaceId,
          action: "build.uploaded",
          target: { type: "build", id: file.fileId, label: file.fileName },
          details: { projectId: file.projectId, fileSize: file.fileSize },
        })
      : undefined,
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
