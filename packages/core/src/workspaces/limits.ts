/**
 * Limits of teams (docs/teams.md), each exact under concurrency: a counter on the item that owns
 * the limit, changed only by a transaction whose condition checks it (`memberCount < MAX_MEMBERS`
 * on the workspace, `workspaceCount < MAX_WORKSPACES_PER_USER` on the user), as the project and
 * key limits are (adapters/dynamo/counted-limits.dynamo.ts).
 */

/** Workspaces one account may belong to (its personal one included): the switcher stays one list. */
export const MAX_WORKSPACES_PER_USER = 50;

/** Members of one workspace: the members page is one list, and every member is a person to trust. */
export const MAX_MEMBERS = 100;

/** Pending invitations of one workspace (each one is mail sent on the workspace's behalf). */
export const MAX_PENDING_INVITATIONS = 50;

/** A workspace's name, in characters (a team or company name; the switcher shows it on one line). */
export const MAX_WORKSPACE_NAME = 80;
