import { Presign } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { api, dashboard, project, type RouteInput } from "./rows";

/** The presign function's routes (routes.ts). */
export const input = {
  "POST /api/upload/api-key/presign": api({ body: Presign }),
  "POST /api/projects/{projectId}/uploads": dashboard({ ...project, body: Presign }),
} as const satisfies Record<RouteKeyOf<"presign">, RouteInput>;
