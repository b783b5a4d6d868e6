import { DiffQuery, UpdateFile, WorkspacePageQuery } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { dashboard, file, workspace, type RouteInput } from "./rows";

/** The files function's routes (routes.ts). */
export const input = {
  "GET /api/files": dashboard({ query: WorkspacePageQuery }),
  "GET /api/files/{fileId}": dashboard(file),
  "DELETE /api/files/{fileId}": dashboard(file),
  "GET /api/files/{fileId}/diff": dashboard({ ...file, query: DiffQuery }),
  "PATCH /api/files/{fileId}": dashboard({ ...file, body: UpdateFile }),
  // Issue 24 item 4, expiry warnings (docs/release-safety.md). The opt-out token is checked by its MAC in the use case.
  "GET /api/workspaces/{workspaceId}/expiring": dashboard(workspace),
} as const satisfies Record<RouteKeyOf<"files">, RouteInput>;
