import { AbortMultipart, PartUrls, StartMultipart } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { api, dashboard, project, type RouteInput } from "./rows";

/** The multipart function's routes (routes.ts). */
export const input = {
  "POST /api/upload/api-key/multipart": api({ body: StartMultipart }),
  "POST /api/upload/api-key/multipart/parts": api({ body: PartUrls }),
  "DELETE /api/upload/api-key/multipart": api({ body: AbortMultipart }),
  "POST /api/projects/{projectId}/uploads/multipart": dashboard({ ...project, body: StartMultipart }),
  "POST /api/projects/{projectId}/uploads/multipart/parts": dashboard({ ...project, body: PartUrls }),
  "DELETE /api/projects/{projectId}/uploads/multipart": dashboard({ ...project, body: AbortMultipart }),
} as const satisfies Record<RouteKeyOf<"multipart">, RouteInput>;
