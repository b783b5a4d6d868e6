import {
  Complete,
  CompleteMultipart,
  InvalidPackageError,
  completeMultipartUpload,
  completeUpload,
  parseInput,
} from "@hangar/core";
import { completeDeps } from "../composition/complete";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability";

async function complete(event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  const deps = completeDeps();
  const links = linkBases(event, getRuntime().settings);
  // An uploadId makes it a multipart complete; without one, the spec's complete exactly as before.
  const multipartBody = "uploadId" in (context.body as object);
  try {
    const result = multipartBody
      ? await completeMultipartUpload(deps, context.apiKey, parseInput(CompleteMultipart, context.body), links)
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
