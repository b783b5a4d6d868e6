import { RegisterWithApple } from "@hangar/core/devices-apple-schema";
import type { RouteKeyOf } from "../routes";
import { dashboard, workspace, type RouteInput } from "./rows";

/** The apple function's routes (routes.ts). */
export const input = {
  // Register with Apple (devdash, docs/devices.md).
  "POST /api/workspaces/{workspaceId}/devices/apple": dashboard({ ...workspace, body: RegisterWithApple }),
} as const satisfies Record<RouteKeyOf<"apple">, RouteInput>;
