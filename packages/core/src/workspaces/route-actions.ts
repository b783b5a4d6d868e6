import type { Action } from "./roles";

/**
 * The permission each dashboard route on a workspace's data needs, by route key (routes.ts): the
 * policy of roles.ts applied to the HTTP API, for people (docs/teams.md prints it) and for
 * test/workspace-roles.test.ts, which calls every such route as every role and checks the answer
 * against `can(role, ROUTE_ACTIONS[route])`. Browser-safe, like roles.ts.
 *
 * Where the rule depends on the target rather than the route it says so: a member route aimed at
 * an owner needs `owners.manage` instead, and removing oneself (leaving) needs only membership.
 */
export const ROUTE_ACTIONS = {
  // Projects (a create names its workspace in the body, default the caller's personal one).
  "POST /api/projects": "projects.manage",
  "GET /api/projects": "workspace.read",
  "GET /api/projects/{projectId}": "workspace.read",
  "PATCH /api/projects/{projectId}": "projects.manage",
  "DELETE /api/projects/{projectId}": "projects.manage",
  "GET /api/projects/{projectId}/files": "workspace.read",
  // Builds uploaded from the dashboard.
  "POST /api/projects/{projectId}/uploads": "builds.manage",
  "POST /api/projects/{projectId}/uploads/multipart": "builds.manage",
  "POST /api/projects/{projectId}/uploads/multipart/parts": "builds.manage",
  "DELETE /api/projects/{projectId}/uploads/multipart": "builds.manage",
  "POST /api/projects/{projectId}/uploads/complete": "builds.manage",
  // API keys of the workspace's projects, whoever created them.
  "POST /api/keys": "keys.manage",
  "GET /api/keys": "workspace.read",
  "DELETE /api/keys/{clientId}": "keys.manage",
  "POST /api/keys/{clientId}/regenerate": "keys.manage",
  "GET /api/keys/{clientId}/usage": "workspace.read",
  // Builds and their share links.
  "GET /api/files": "workspace.read",
  "GET /api/files/{fileId}": "workspace.read",
  "DELETE /api/files/{fileId}": "builds.manage",
  "GET /api/files/{fileId}/diff": "workspace.read",
  "PATCH /api/files/{fileId}/share": "links.manage",
  "POST /api/files/{fileId}/share/regenerate": "links.manage",
  // The workspace and its members.
  "GET /api/workspaces/{workspaceId}": "workspace.read",
  "PATCH /api/workspaces/{workspaceId}": "workspace.update",
  "DELETE /api/workspaces/{workspaceId}": "workspace.delete",
  "GET /api/workspaces/{workspaceId}/members": "workspace.read",
  "PATCH /api/workspaces/{workspaceId}/members/{userId}": "members.manage",
  "DELETE /api/workspaces/{workspaceId}/members/{userId}": "members.manage",
  "POST /api/workspaces/{workspaceId}/transfer": "owners.manage",
  // Invitations and the audit log (their routes come with the invitations and audit functions).
  "POST /api/workspaces/{workspaceId}/invitations": "members.manage",
  "GET /api/workspaces/{workspaceId}/invitations": "members.manage",
  "DELETE /api/workspaces/{workspaceId}/invitations/{invitationId}": "members.manage",
  "POST /api/workspaces/{workspaceId}/invitations/{invitationId}/resend": "members.manage",
  "GET /api/workspaces/{workspaceId}/audit": "audit.read",
  // Testers (issue 20, docs/testers.md): groups and their invite links; who is in which group.
  "GET /api/workspaces/{workspaceId}/groups": "workspace.read",
  "POST /api/workspaces/{workspaceId}/groups": "testers.manage",
  "GET /api/groups/{groupId}": "workspace.read",
  "PATCH /api/groups/{groupId}": "testers.manage",
  "DELETE /api/groups/{groupId}": "testers.manage",
  "POST /api/groups/{groupId}/testers": "testers.manage",
  "DELETE /api/groups/{groupId}/testers/{email}": "testers.manage",
  "POST /api/groups/{groupId}/invite-link": "testers.manage",
  "DELETE /api/groups/{groupId}/invite-link": "testers.manage",
  "GET /api/workspaces/{workspaceId}/testers": "workspace.read",
  "GET /api/workspaces/{workspaceId}/testers/{email}/installs": "workspace.read",
  // Sending builds to testers, and what became of it.
  "POST /api/files/{fileId}/distribute": "builds.distribute",
  "GET /api/files/{fileId}/distributions": "workspace.read",
  "GET /api/files/{fileId}/installs": "workspace.read",
  "GET /api/projects/{projectId}/default-groups": "workspace.read",
  "PUT /api/projects/{projectId}/default-groups": "projects.manage",
  // The project's public app page and the update tokens shipped inside its test builds.
  "GET /api/projects/{projectId}/app-page": "workspace.read",
  "PUT /api/projects/{projectId}/app-page": "projects.manage",
  "GET /api/projects/{projectId}/update-tokens": "workspace.read",
  "POST /api/projects/{projectId}/update-tokens": "projects.manage",
  "DELETE /api/projects/{projectId}/update-tokens/{tokenId}": "projects.manage",
  // Webhooks, Slack and Teams notifications (issue 21, docs/webhooks.md) and their delivery logs.
  "GET /api/workspaces/{workspaceId}/webhooks": "workspace.read",
  "POST /api/workspaces/{workspaceId}/webhooks": "webhooks.manage",
  "GET /api/webhooks/{webhookId}": "workspace.read",
  "PATCH /api/webhooks/{webhookId}": "webhooks.manage",
  "DELETE /api/webhooks/{webhookId}": "webhooks.manage",
  "POST /api/webhooks/{webhookId}/rotate-secret": "webhooks.manage",
  "POST /api/webhooks/{webhookId}/test": "webhooks.manage",
  "GET /api/webhooks/{webhookId}/deliveries": "workspace.read",
  "POST /api/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver": "webhooks.manage",
  // iOS devices (issue 22, docs/devices.md): members see them; developers and up rename, remove and
  // register them with Apple.
  "GET /api/workspaces/{workspaceId}/devices": "workspace.read",
  "GET /api/workspaces/{workspaceId}/devices/export": "workspace.read",
  "PATCH /api/devices/{deviceId}": "devices.manage",
  "DELETE /api/devices/{deviceId}": "devices.manage",
  "GET /api/files/{fileId}/devices": "workspace.read",
  "POST /api/workspaces/{workspaceId}/devices/apple": "devices.manage",
  // Release safety (issue 24, docs/release-safety.md): retention (its settings ride on the project's
  // PATCH, projects.manage), pinning a build, and the builds about to expire (the dashboard's banner).
  "GET /api/projects/{projectId}/retention/preview": "workspace.read",
  "PATCH /api/files/{fileId}": "builds.manage",
  "GET /api/workspaces/{workspaceId}/expiring": "workspace.read",
} as const satisfies Record<string, Action>;

export type WorkspaceRouteKey = keyof typeof ROUTE_ACTIONS;
