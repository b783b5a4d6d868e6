import { InvalidPackageError, completeMultipartUpload, completeUpload, type ApiKey, type CompletedFile } from "@hangar/core";
import { getPackageAccess } from "../composition/inspector";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { logger, record } from "../observability";

/**
 * Keeps the key's usage and the project's file count current. Both writes run together; a
 * failure is logged, never turned into a failed complete (the upload itself is stored).
 */
async function countCompleted(file: CompletedFile, caller: ApiKey): Promise<void> {
  const runtime = getRuntime();
  await Promise.all([
    runtime.usage?.uploadCompleted(caller.clientId, new Date(file.completedAt), file.fileSize),
    runtime.projects.recordUpload(caller.userId, file.projectId, file.completedAt),
  ]).catch((error: unknown) => logger.warn("could not count a completed upload", { error: error as Error, fileId: file.fileId }));
}

async function complete(event: HttpEvent, context: ContextFor<"POST /api/upload/api-key/complete">): Promise<HttpResult> {
  const runtime = getRuntime();
  const { store, inspector, multipart } = getPackageAccess((stats) => {
    record.extractionTime(stats.durationMs);
    record.bytesRead(stats.bytesRead);
  });
  const deps = { ...runtime, storage: store, inspector, settings: runtime.upload, onCompleted: countCompleted };
  const links = linkBases(event, runtime.settings);
  // An uploadId made it a multipart complete (core's parseCompleteBody); without one, the spec's complete.
  const body = context.body;
  try {
    const result = body.multipart
      ? await completeMultipartUpload({ ...deps, multipart }, context.apiKey, body.input, links)
      : await completeUpload(deps, context.apiKey, body.input, links);
    record.uploadCompleted();
    return json(200, result);
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
}

export const handler = httpFunction("complete", { "POST /api/upload/api-key/complete": { handler: complete } }, { apiKey: apiKeyAuth(getRuntime) });
