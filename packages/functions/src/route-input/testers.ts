import { AddTesters, CreateGroup, CreateInviteLink, GroupRef, GroupTesterRef, RenameGroup } from "@hangar/core/tester-groups-schema";
import { GroupNotFoundError } from "@hangar/core/tester-group-errors";
import type { RouteKeyOf } from "../routes";
import { dashboard, workspace, type RouteInput } from "./rows";

// A malformed group id names no group; the tester's address is any bounded text (the use case normalizes it).
const group = { params: GroupRef, notFound: () => new GroupNotFoundError() } as const;
const groupTester = { params: GroupTesterRef, notFound: () => new GroupNotFoundError() } as const;

/** The testers function's routes (routes.ts). */
export const input = {
  "GET /api/workspaces/{workspaceId}/groups": dashboard(workspace),
  "POST /api/workspaces/{workspaceId}/groups": dashboard({ ...workspace, body: CreateGroup }),
  "GET /api/groups/{groupId}": dashboard(group),
  "PATCH /api/groups/{groupId}": dashboard({ ...group, body: RenameGroup }),
  "DELETE /api/groups/{groupId}": dashboard(group),
  // 1,000 addresses of up to 254 characters, as JSON: up to ~260 KB, over the default 64 KiB.
  "POST /api/groups/{groupId}/testers": dashboard({ ...group, body: AddTesters, maxBodyBytes: 512 * 1024 }),
  "DELETE /api/groups/{groupId}/testers/{email}": dashboard(groupTester),
  "POST /api/groups/{groupId}/invite-link": dashboard({ ...group, body: CreateInviteLink }),
  "DELETE /api/groups/{groupId}/invite-link": dashboard(group),
  "GET /api/workspaces/{workspaceId}/testers": dashboard(workspace),
} as const satisfies Record<RouteKeyOf<"testers">, RouteInput>;
