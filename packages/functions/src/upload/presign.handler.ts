import { presignUpload } from "@hangar/core";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { httpFunction, json } from "../middleware/http-function";

export const handler = httpFunction(
  "presign",
  {
    "POST /api/upload/api-key/presign": {
      handler: async (_e, c) => {
        const runtime = getRuntime();
        return json(200, await presignUpload({ ...runtime, storage: runtime.signer, settings: runtime.upload }, c.apiKey, c.body));
      },
    },
  },
  { apiKey: apiKeyAuth(getRuntime) },
);
