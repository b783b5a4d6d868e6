import { downloadLocation } from "@hangar/core";
import { getRuntime } from "../composition/root";
import { httpRoute } from "../middleware/http-route";

/**
 * The stable link handed out at complete: always answers with a fresh short-lived presigned GET,
 * so the link itself never expires and the bucket stays private.
 */
export const handler = httpRoute({ auth: false, json: false }, async (event) => {
  const runtime = getRuntime();
  const location = await downloadLocation({ files: runtime.files, storage: runtime.signer }, event.pathParameters?.userKey, runtime.upload.downloadExpiresSeconds);
  return { statusCode: 302, headers: { Location: location, "Cache-Control": "no-store" }, body: "" };
});
