import { abortMultipartUpload, presignParts, startMultipartUpload } from "@hangar/core";
import { multipartDeps } from "../composition/multipart";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { httpFunction, json } from "../middleware/http-function";

export const handler = httpFunction(
  "multipart",
  {
    "POST /api/upload/api-key/multipart": { handler: async (_e, c) => json(200, await startMultipartUpload(multipartDeps(), c.apiKey, c.body)) },
    "POST /api/upload/api-key/multipart/parts": { handler: async (_e, c) => json(200, await presignParts(multipartDeps(), c.apiKey, c.body)) },
    "DELETE /api/upload/api-key/multipart": {
      handler: async (_e, c) => {
        await abortMultipartUpload(multipartDeps(), c.apiKey, c.body);
        return { statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" };
      },
    },
  },
  { apiKey: apiKeyAuth(getRuntime) },
);
