import { InvalidPackageError, completeMultipartUpload, completeUpload, type CompleteResult, type Uploader } from "@hangar/core";
import { completeDeps } from "../composition/complete";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { uploaderOf } from "../composition/dashboard-upload";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability";

type CompleteBody = ContextFor<"POST /api/upload/api-key/complete">["body"];

async function complete(event: HttpEvent, caller: Uploader, body: CompleteBody): Promise<HttpResult> {
  const deps = completeDeps();
  const links = linkBases(event, getRuntime().settings);
  // An uploadId made it a multipart complete (core's parseCompleteBody); without one, the spec's complete.
  try {
    const result: CompleteResult = body.multipart
      ? await completeMultipartUpload(deps, caller, body.input, links)
      : await completeUpload(deps, caller, body.input, links);
    record.uploadCompleted();
    return json(200, result);
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
}

export const handler = httpFunction(
  "complete",
  {
    "POST /api/upload/api-key/complete": { handler: async (e, c) => complete(e, c.apiKey, c.body) },
    // The dashboard's browser upload (single or multipart body alike), for the session's own project.
    "POST /api/projects/{projectId}/uploads/complete": { handler: async (e, c) => complete(e, await uploaderOf(c), c.body) },
  },
  { apiKey: apiKeyAuth(getRuntime), ...dashboardRouteMiddlewares() },
);
