import { workspaceNotFound, AuditQuery, AuditWorkspaceRef } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { dashboard, type RouteInput } from "./rows";

/** The audit function's routes (routes.ts). */
export const input = {
  "GET /api/workspaces/{workspaceId}/audit": dashboard({ params: AuditWorkspaceRef, notFound: workspaceNotFound, query: AuditQuery }),
} as const satisfies Record<RouteKeyOf<"audit">, RouteInput>;
