import type { RouteKeyOf } from "../routes";
import { page, shareKey, type RouteInput } from "./rows";

/** The download function's routes (routes.ts). */
export const input = {
  "GET /download/{userKey}": page(shareKey),
  "HEAD /download/{userKey}": page(shareKey),
} as const satisfies Record<RouteKeyOf<"download">, RouteInput>;
