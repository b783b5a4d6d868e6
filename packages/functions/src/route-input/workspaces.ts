import { ChangeRole, CreateWorkspace, MemberRef, RenameWorkspace, TransferOwnership, workspaceNotFound } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { dashboard, workspace, type RouteInput } from "./rows";

// A malformed member id names no member; a malformed workspace id, no workspace: both are 404s.
const member = { params: MemberRef, notFound: workspaceNotFound } as const;

/** The workspaces function's routes (routes.ts). */
export const input = {
  "GET /api/workspaces": dashboard({}),
  "POST /api/workspaces": dashboard({ body: CreateWorkspace }),
  "GET /api/workspaces/{workspaceId}": dashboard(workspace),
  "PATCH /api/workspaces/{workspaceId}": dashboard({ ...workspace, body: RenameWorkspace }),
  "GET /api/workspaces/{workspaceId}/members": dashboard(workspace),
  "PATCH /api/workspaces/{workspaceId}/members/{userId}": dashboard({ ...member, body: ChangeRole }),
  "DELETE /api/workspaces/{workspaceId}/members/{userId}": dashboard(member),
  "POST /api/workspaces/{workspaceId}/transfer": dashboard({ ...workspace, body: TransferOwnership }),
} as const satisfies Record<RouteKeyOf<"workspaces">, RouteInput>;
