import { parseCompleteBody } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { api, dashboard, project, type RouteInput } from "./rows";

/** The complete function's routes (routes.ts). */
export const input = {
  // 2 MiB: a multipart complete lists up to 10,000 parts (~100 bytes each); the spec's body is far smaller.
  "POST /api/upload/api-key/complete": api({ body: parseCompleteBody, maxBodyBytes: 2 * 1024 * 1024 }),
  "POST /api/projects/{projectId}/uploads/complete": dashboard({ ...project, body: parseCompleteBody, maxBodyBytes: 2 * 1024 * 1024 }),
} as const satisfies Record<RouteKeyOf<"complete">, RouteInput>;
