import { presignUpload } from "@hangar/core";
import { presignDeps } from "../composition/presign";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { httpFunction, json } from "../middleware/http-function";

export const handler = httpFunction(
  "presign",
  {
    "POST /api/upload/api-key/presign": {
      handler: async (_e, c) => json(200, await presignUpload(presignDeps(), c.apiKey, c.body)),
    },
  },
  { apiKey: apiKeyAuth(getRuntime) },
);
