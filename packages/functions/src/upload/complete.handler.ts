import { InvalidPackageError, completeMultipartUpload, completeUpload } from "@hangar/core";
import { completeDeps } from "../composition/complete";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability";

async function complete(event: HttpEvent, context: ContextFor<"POST /api/upload/api-key/complete">): Promise<HttpResult> {
  const deps = completeDeps();
  const links = linkBases(event, getRuntime().settings);
  // An uploadId made it a multipart complete (core's parseCompleteBody); without one, the spec's complete.
  const body = context.body;
  try {
    const result = body.multipart
      ? await completeMultipartUpload(deps, context.apiKey, body.input, links)
      : await completeUpload(deps, context.apiKey, body.input, links);
    record.uploadCompleted();
    return json(200, result);
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
}

export const handler = httpFunction("complete", { "POST /api/upload/api-key/complete": { handler: complete } }, { apiKey: apiKeyAuth(getRuntime) });
