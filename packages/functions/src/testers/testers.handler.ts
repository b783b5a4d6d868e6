import {
  addTesters,
  createGroup,
  createInviteLink,
  deleteGroup,
  getGroup,
  listGroups,
  listWorkspaceTesters,
  removeTester,
  renameGroup,
  revokeInviteLink,
} from "@hangar/core/tester-groups";
import { dashboardFunction } from "../composition/dashboard-http";
import { linkBases } from "../composition/link-bases";
import { getRuntime } from "../composition/root";
import { testerGroupDeps } from "../composition/testers";
import { actorOf } from "../middleware/actor";
import type { HttpEvent } from "../middleware/http-context";
import { json } from "../middleware/http-function";
import { noContent } from "../projects/answers";

/**
 * Tester groups and their invite links (docs/testers.md "Groups"), and the workspace's testers.
 * Every route is of the dashboard kind and authenticates by session; bodies and ids arrive parsed;
 * the use cases (core/tester-groups) check the caller's role. Invite link URLs are on the
 * dashboard's public origin (`{public}/join/<token>`), the page the tester access work serves.
 */
const links = (event: HttpEvent) => ({ publicBaseUrl: linkBases(event, getRuntime().settings).publicBaseUrl });

export const handler = dashboardFunction("testers", {
  "GET /api/workspaces/{workspaceId}/groups": {
    handler: async (event, c) => json(200, { items: await listGroups(testerGroupDeps(), actorOf(c), c.params, links(event)) }),
  },
  "POST /api/workspaces/{workspaceId}/groups": {
    handler: async (event, c) => json(201, await createGroup(testerGroupDeps(), actorOf(c), { ...c.params, ...c.body }, links(event))),
  },
  "GET /api/groups/{groupId}": {
    handler: async (event, c) => json(200, await getGroup(testerGroupDeps(), actorOf(c), c.params, links(event))),
  },
  "PATCH /api/groups/{groupId}": {
    handler: async (event, c) => json(200, await renameGroup(testerGroupDeps(), actorOf(c), { ...c.params, ...c.body }, links(event))),
  },
  "DELETE /api/groups/{groupId}": {
    handler: async (_event, c) => {
      await deleteGroup(testerGroupDeps(), actorOf(c), c.params);
      return noContent();
    },
  },
  "POST /api/groups/{groupId}/testers": {
    handler: async (event, c) => json(200, await addTesters(testerGroupDeps(), actorOf(c), { ...c.params, ...c.body }, links(event))),
  },
  "DELETE /api/groups/{groupId}/testers/{email}": {
    handler: async (_event, c) => {
      await removeTester(testerGroupDeps(), actorOf(c), c.params);
      return noContent();
    },
  },
  "POST /api/groups/{groupId}/invite-link": {
    handler: async (event, c) => json(201, await createInviteLink(testerGroupDeps(), actorOf(c), { ...c.params, ...c.body }, links(event))),
  },
  "DELETE /api/groups/{groupId}/invite-link": {
    handler: async (_event, c) => {
      await revokeInviteLink(testerGroupDeps(), actorOf(c), c.params);
      return noContent();
    },
  },
  "GET /api/workspaces/{workspaceId}/testers": {
    handler: async (_event, c) => json(200, { items: await listWorkspaceTesters(testerGroupDeps(), actorOf(c), c.params) }),
  },
});
