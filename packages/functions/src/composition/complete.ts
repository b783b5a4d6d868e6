import {
  keyWorkspaceId,
  recordChange,
  type CompleteDeps,
  type CompletedFile,
  type FileRecord,
  type LinkBases,
  type MultipartStore,
  type Uploader,
} from "@hangar/core";
import { buildPayload, buildRouting, uploaderActor } from "@hangar/core/events";
import { DynamoFileCatalog } from "@hangar/core/dynamo";
import { RangedPackageInspector, S3RestMultipartStore, S3RestObjectStore, S3RestRangeReader } from "@hangar/core/s3-rest";
import { logger } from "../observability/logger";
import { record } from "../observability/metrics";
import { auditLog } from "./audit-log";
import { eventPublisher } from "./events";
import { once } from "./once";
import { getRuntime } from "./root";
import { s3Requester } from "./s3-requester";

/**
 * Records a dashboard upload in the workspace's audit log (build.uploaded; an API key's uploads
 * are counted on its usage instead, by the completing transaction with the project's counters)
 * and publishes build.completed for the workspace's webhooks (one queue send). Both run together;
 * a failure is logged, never turned into a failed complete (the upload itself is stored).
 */
async function announceCompleted(file: CompletedFile, caller: Uploader, links: LinkBases): Promise<void> {
  const workspaceId = keyWorkspaceId(caller);
  await Promise.all([
    caller.actor
      ? recordChange({ audit: auditLog() }, caller.actor, {
          workspaceId,
          action: "build.uploaded",
          target: { type: "build", id: file.fileId, label: file.fileName },
          details: { projectId: file.projectId, fileSize: file.fileSize },
        })
      : undefined,
    eventPublisher().publish({
      type: "build.completed",
      occurredAt: file.completedAt,
      workspaceId,
      ...buildRouting(file),
      data: {
        workspaceId,
        build: buildPayload(file, links),
        installable: file.metadata.installable !== false,
        installBlocker: typeof file.metadata.reason === "string" ? file.metadata.reason : null,
        diff: file.diff ?? null,
        actor: uploaderActor(caller),
      },
    }),
  ]).catch((error: unknown) => logger.warn("could not announce a completed upload", { error: error as Error, fileId: file.fileId }));
}

/** Publishes build.rejected: a package that could not be read (the CI learns it from the answer too). */
async function publishRejected(file: FileRecord, caller: Uploader): Promise<void> {
  const workspaceId = keyWorkspaceId(caller);
  await eventPublisher().publish({
    type: "build.rejected",
    occurredAt: new Date().toISOString(),
    workspaceId,
    ...buildRouting(file),
    data: {
      workspaceId,
      build: buildPayload(file, null),
      rejection: file.rejection ?? { reason: "invalid_package", message: "The package could not be read" },
      actor: uploaderActor(caller),
    },
  });
}

/**
 * The complete function's ports: S3's object calls (HEAD, the GET of a small package, ranged GETs
 * of a large one, the icon PUT) with the extractor, whose timings go to the metrics, and the
 * multipart store (complete assembles multipart uploads; the multipart function starts and aborts
 * them). Signed fetches, not the S3 client: complete makes a few object calls only, and its cold
 * start is on every CI upload's path (core's adapters/s3/s3-request.ts). Kept out of the shared
 * root so the other functions' bundles carry none of it.
 */
export const completeDeps = once((): CompleteDeps & { multipart: MultipartStore } => {
  const { settings, files, clock, ids, upload, db } = getRuntime();
  const s3 = s3Requester(settings);
  return {
    files,
    storage: new S3RestObjectStore(s3),
    inspector: new RangedPackageInspector(
      (pkg) => new S3RestRangeReader(s3, pkg),
      (stats) => {
        record.extractionTime(stats.durationMs);
        record.bytesRead(stats.bytesRead);
      },
    ),
    multipart: new S3RestMultipartStore(s3),
    clock,
    ids,
    settings: upload,
    // Only its page(): the previous build of the same app, for the diff complete stores.
    history: new DynamoFileCatalog(db, settings.HANGAR_TABLE_NAME, () => clock.now()),
    countUsage: getRuntime().usage !== undefined,
    onCompleted: announceCompleted,
    onRejected: publishRejected,
  };
});
