import {
  changeMemberRole,
  createWorkspace,
  getWorkspace,
  listMembers,
  listWorkspaces,
  removeMember,
  renameWorkspace,
  transferOwnership,
} from "@hangar/core";
import { dashboardFunction } from "../composition/dashboard-http";
import { workspaceDeps } from "../composition/workspaces";
import { actorOf } from "../middleware/actor";
import { json } from "../middleware/http-function";
import { noContent } from "../projects/answers";

/** Workspaces and members (docs/teams.md); every use case checks the caller's role itself. */
export const handler = dashboardFunction("workspaces", {
  "GET /api/workspaces": { handler: async (_e, c) => json(200, await listWorkspaces(workspaceDeps(), actorOf(c))) },
  "POST /api/workspaces": { handler: async (_e, c) => json(201, await createWorkspace(workspaceDeps(), actorOf(c), c.body)) },
  "GET /api/workspaces/{workspaceId}": { handler: async (_e, c) => json(200, await getWorkspace(workspaceDeps(), actorOf(c), c.params)) },
  "PATCH /api/workspaces/{workspaceId}": {
    handler: async (_e, c) => json(200, await renameWorkspace(workspaceDeps(), actorOf(c), { ...c.params, ...c.body })),
  },
  "GET /api/workspaces/{workspaceId}/members": {
    handler: async (_e, c) => json(200, await listMembers(workspaceDeps(), actorOf(c), c.params)),
  },
  "PATCH /api/workspaces/{workspaceId}/members/{userId}": {
    handler: async (_e, c) => json(200, await changeMemberRole(workspaceDeps(), actorOf(c), { ...c.params, ...c.body })),
  },
  // Your own id: leave the workspace.
  "DELETE /api/workspaces/{workspaceId}/members/{userId}": {
    handler: async (_e, c) => {
      await removeMember(workspaceDeps(), actorOf(c), c.params);
      return noContent();
    },
  },
  "POST /api/workspaces/{workspaceId}/transfer": {
    handler: async (_e, c) => json(200, await transferOwnership(workspaceDeps(), actorOf(c), { ...c.params, ...c.body })),
  },
});
