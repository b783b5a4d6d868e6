import { NotFoundError } from "../errors/domain-errors";
import type { Membership, WorkspaceCatalog } from "../ports/workspace-catalog.port";
import { can, type Action } from "./roles";
import { ForbiddenError } from "./workspace-errors";
import { WORKSPACE_ID } from "./workspace-ids";

export const workspaceNotFound = () => new NotFoundError("workspace_not_found", "No workspace with this id among yours");

/**
 * The caller's membership of a workspace, allowed to do `action`: 404 when they are not a member
 * (exactly as for an id that does not exist), 403 `forbidden` naming the permission when their
 * role does not allow it. Every use case on a workspace's data starts here (or at projectAccess).
 * A catalog with `touch` also records the member's activity (lastActiveAt) here.
 */
export async function workspaceAccess(
  deps: { workspaces: Pick<WorkspaceCatalog, "membership"> & Partial<Pick<WorkspaceCatalog, "touch">> },
  userId: string,
  workspaceId: string,
  action: Action,
): Promise<Membership> {
  const membership = WORKSPACE_ID.test(workspaceId) ? await deps.workspaces.membership(workspaceId, userId) : undefined;
  if (!membership) throw workspaceNotFound();
  if (!can(membership.role, action)) throw new ForbiddenError(membership.role, action);
  // The members page's "last active": at most one write per member and hour (the catalog skips a
  // fresh one without I/O). Bookkeeping only, so its failure never fails the request it rides on.
  await deps.workspaces.touch?.(membership).catch(() => undefined);
  return membership;
}
