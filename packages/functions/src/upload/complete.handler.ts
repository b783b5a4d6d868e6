import { Complete, InvalidPackageError, completeUpload, parseInput } from "@hangar/core";
import { getPackageAccess } from "../composition/inspector";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import type { ContextFor, HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction, json } from "../middleware/http-function";
import { record } from "../observability";

async function complete(event: HttpEvent, context: ContextFor<"apiKey">): Promise<HttpResult> {
  const runtime = getRuntime();
  const { store, inspector } = getPackageAccess((stats) => {
    record.extractionTime(stats.durationMs);
    record.bytesRead(stats.bytesRead);
  });
  const input = parseInput(Complete, context.body);
  try {
    const result = await completeUpload(
      { ...runtime, storage: store, inspector, settings: runtime.upload },
      context.apiKey,
      input,
      linkBases(event, runtime.settings),
    );
    record.uploadCompleted();
    return json(200, result);
  } catch (error) {
    if (error instanceof InvalidPackageError) record.uploadRejected(error.reason);
    throw error;
  }
}

export const handler = httpFunction(
  "complete",
  { "POST /api/upload/api-key/complete": { json: true, handler: complete } },
  { apiKey: apiKeyAuth(getRuntime) },
);
