import type { RouteKeyOf } from "../routes";
import { api, type RouteInput } from "./rows";

/** The openapi function's routes (routes.ts). */
export const input = {
  "GET /api/openapi.json": api({}),
} as const satisfies Record<RouteKeyOf<"openapi">, RouteInput>;
