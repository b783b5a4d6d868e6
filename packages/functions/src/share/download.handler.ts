import { downloadLocation } from "@hangar/core";
import { getRuntime } from "../composition/root";
import type { HttpEvent, HttpResult } from "../middleware/http-context";
import { httpFunction } from "../middleware/http-function";

/**
 * The stable link handed out at complete: always answers with a fresh short-lived presigned GET,
 * so the link itself never expires and the bucket stays private.
 */
async function serve(event: HttpEvent): Promise<HttpResult> {
  const runtime = getRuntime();
  const location = await downloadLocation({ files: runtime.files, storage: runtime.signer }, event.pathParameters?.userKey, runtime.upload.downloadExpiresSeconds);
  return { statusCode: 302, headers: { Location: location, "Cache-Control": "no-store" }, body: "" };
}

export const handler = httpFunction("download", {
  "GET /download/{userKey}": { handler: serve },
  "HEAD /download/{userKey}": { handler: serve },
});
