import { abortMultipartUpload, presignParts, startMultipartUpload } from "@hangar/core";
import { getMultipartStore } from "../composition/multipart-store";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { httpFunction, json } from "../middleware/http-function";

function deps() {
  const runtime = getRuntime();
  return { ...runtime, multipart: getMultipartStore(), signer: runtime.signer, settings: runtime.upload };
}

export const handler = httpFunction(
  "multipart",
  {
    "POST /api/upload/api-key/multipart": { handler: async (_e, c) => json(200, await startMultipartUpload(deps(), c.apiKey, c.body)) },
    "POST /api/upload/api-key/multipart/parts": { handler: async (_e, c) => json(200, await presignParts(deps(), c.apiKey, c.body)) },
    "DELETE /api/upload/api-key/multipart": {
      handler: async (_e, c) => {
        await abortMultipartUpload(deps(), c.apiKey, c.body);
        return { statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" };
      },
    },
  },
  { apiKey: apiKeyAuth(getRuntime) },
);
