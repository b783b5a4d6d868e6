import { abortMultipartUpload, presignParts, startMultipartUpload } from "@hangar/core";
import { dashboardRouteMiddlewares } from "../composition/dashboard-http";
import { uploaderOf } from "../composition/dashboard-upload";
import { multipartDeps } from "../composition/multipart";
import { getRuntime } from "../composition/root";
import { apiKeyAuth } from "../middleware/api-key-auth";
import { httpFunction, json } from "../middleware/http-function";

const aborted = () => ({ statusCode: 204, headers: { "Cache-Control": "no-store" }, body: "" });

export const handler = httpFunction(
  "multipart",
  {
    "POST /api/upload/api-key/multipart": { handler: async (_e, c) => json(200, await startMultipartUpload(multipartDeps(), c.apiKey, c.body)) },
    "POST /api/upload/api-key/multipart/parts": { handler: async (_e, c) => json(200, await presignParts(multipartDeps(), c.apiKey, c.body)) },
    "DELETE /api/upload/api-key/multipart": {
      handler: async (_e, c) => {
        await abortMultipartUpload(multipartDeps(), c.apiKey, c.body);
        return aborted();
      },
    },
    // The dashboard's browser uploads: the same use cases, for the session's own project.
    "POST /api/projects/{projectId}/uploads/multipart": {
      handler: async (_e, c) => json(200, await startMultipartUpload(multipartDeps(), await uploaderOf(c), c.body)),
    },
    "POST /api/projects/{projectId}/uploads/multipart/parts": {
      handler: async (_e, c) => json(200, await presignParts(multipartDeps(), await uploaderOf(c), c.body)),
    },
    "DELETE /api/projects/{projectId}/uploads/multipart": {
      handler: async (_e, c) => {
        await abortMultipartUpload(multipartDeps(), await uploaderOf(c), c.body);
        return aborted();
      },
    },
  },
  { apiKey: apiKeyAuth(getRuntime), ...dashboardRouteMiddlewares() },
);
