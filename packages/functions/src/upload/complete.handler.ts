import {
  Complete,
  CompleteMultipart,
  InvalidPackageError,
  completeMultipartUpload,
  completeUpload,
  parseInput,
  type ApiKey,
  type CompletedFile,
} from "@hangar/core";
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

async function complete(event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  const runtime = getRuntime();
  const { store, inspector, multipart } = getPackageAccess((stats) => {
    record.extractionTime(stats.durationMs);
    record.bytesRead(stats.bytesRead);
  });
  const deps = { ...runtime, storage: store, inspector, settings: runtime.upload, onCompleted: countCompleted };
  const links = linkBases(event, runtime.settings);
  // An uploadId makes it a multipart complete; without one, the spec's complete exactly as before.
  const multipartBody = "uploadId" in (context.body as object);
  try {
    const result = multipartBody
      ? await completeMultipartUpload({ ...deps, multipart }, context.apiKey, parseInput(CompleteMultipart, context.body), links)
      : await completeUpload(deps, context.apiKey, parseInput(Complete, context.body), links);
    record.uploadCompleted();
    return json(200, result);
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
}

export const handler = httpFunction(
  "complete",
  // 2 MiB: a multipart complete lists up to 10,000 parts (~100 bytes each); the spec's body is far smaller.
  { "POST /api/upload/api-key/complete": { json: { maxBytes: 2 * 1024 * 1024 }, handler: complete } },
  { apiKey: apiKeyAuth(getRuntime) },
);
