import { presignUpload } from "@hangar/core";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { uploaderOf } from "../composition/dashboard-upload";
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
    // The dashboard's browser upload: the same answer, for the session's own project.
    "POST /api/projects/{projectId}/uploads": {
      handler: async (_e, c) => json(200, await presignUpload(presignDeps(), await uploaderOf(c), c.body)),
    },
  },
  { apiKey: apiKeyAuth(getRuntime), ...dashboardRouteMiddlewares() },
);
