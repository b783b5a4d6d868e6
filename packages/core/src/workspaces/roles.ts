/**
 * The one permission policy of a workspace (docs/teams.md has the same table for people). Every
 * use case that touches a workspace's data asks `can(role, action)` through `workspaceAccess` /
 * `projectAccess` (workspaces/access.ts); the dashboard gets `permissionsOf(role)` in each
 * workspace answer and shows only what it allows, so the rule is written once, here.
 *
 * Browser-safe (no node imports): the web app imports it through `@hangar/core/roles`.
 */
export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** What a member may be allowed to do, by area. A route needs exactly one of these. */
export const ACTIONS = [
  // Every member: see the workspace, its members, projects, builds, share links, keys and usage.
  "workspace.read",
  // Rename the workspace.
  "workspace.update",
  // Delete the workspace (and everything in it).
  "workspace.delete",
  // Invite people, revoke or re-send invitations, change the role of and remove non-owners.
  "members.manage",
  // Make or unmake owners, remove an owner, transfer ownership.
  "owners.manage",
  // Create, rename and delete projects.
  "projects.manage",
  // Upload builds from the dashboard and delete builds.
  "builds.manage",
  // Send builds to testers (distribute, by mail).
  "builds.distribute",
  // Change share-link settings and regenerate links.
  "links.manage",
  // Create, regenerate and revoke the API keys of the workspace's projects.
  "keys.manage",
  // Tester groups: create, rename, delete, add and remove testers, invite links.
  "testers.manage",
  // Read the audit log.
  "audit.read",
  // Webhooks, Slack and Teams notifications: add, change, delete, rotate secrets, test, redeliver.
  "webhooks.manage",
  // Registered iOS devices: rename, remove, register with Apple (docs/devices.md).
  "devices.manage",
] as const;
export type Action = (typeof ACTIONS)[number];

const ALL: readonly Action[] = ACTIONS;
const DEVELOPER: readonly Action[] = ["workspace.read", "builds.manage", "builds.distribute", "links.manage", "keys.manage", "devices.manage"];

/** role → the actions it allows. Each role holds every right of the roles below it. */
export const PERMISSIONS: Readonly<Record<Role, readonly Action[]>> = {
  owner: ALL,
  admin: ALL.filter((a) => a !== "workspace.delete" && a !== "owners.manage"),
  developer: DEVELOPER,
  viewer: ["workspace.read"],
};

export function can(role: Role, action: Action): boolean {
  return PERMISSIONS[role].includes(action);
}

/** Every action the role allows, in ACTIONS order (the dashboard's copy of the policy's answer). */
export function permissionsOf(role: Role): Action[] {
  return ACTIONS.filter((a) => can(role, a));
}

export const isRole = (value: unknown): value is Role => typeof value === "string" && (ROLES as readonly string[]).includes(value);
