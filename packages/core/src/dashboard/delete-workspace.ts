import { ConflictError, ValidationError } from "../errors/domain-errors";
import { workspaceAccess, workspaceNotFound } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import type { DeleteWorkspace, WorkspaceRef } from "../workspaces/workspace.schema";
import type { WorkspaceCatalog } from "../ports";
import type { Budget, DashboardDeps } from "./dashboard-deps";
import { deleteWholeWorkspace, type WorkspacePurgeDeps } from "./purge";

/** A workspace delete's ports: a project delete's, and the workspace catalog (access, the workspace, its removal). */
export type DeleteWorkspaceDeps = Omit<DashboardDeps, "workspaces"> &
  WorkspacePurgeDeps & { workspaces: Pick<WorkspaceCatalog, "membership" | "get" | "markDeleting" | "remove"> };

/**
 * Deletes a team workspace with everything in it, confirmed by its name (owners only:
 * `workspace.delete`). A personal workspace is never deleted this way (409 `personal_workspace`:
 * it goes with its account). Its projects are purged like project deletes (builds, objects, share
 * links, keys), then its members, invitations, audit log and the workspace itself
 * (purge.ts deleteWholeWorkspace): "deleted" when all of it fitted in `budget`, else "deleting"
 * and the rest continues in the background. From the first step on every member gets 404 for it
 * and its keys are refused. No audit entry: the workspace's log goes with it.
 */
export async function deleteWorkspace(
  deps: DeleteWorkspaceDeps,
  actor: Actor,
  input: WorkspaceRef & DeleteWorkspace,
  budget: Budget,
): Promise<{ status: "deleted" | "deleting" }> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.delete");
  const workspace = await deps.workspaces.get(input.workspaceId);
  if (!workspace || workspace.deleting) throw workspaceNotFound();
  if (workspace.personal) {
    throw new ConflictError("personal_workspace", "A personal workspace cannot be deleted; it is deleted with its account");
  }
  if (input.confirmName.trim().normalize("NFC").toLowerCase() !== workspace.name.toLowerCase()) {
    throw new ValidationError([{ field: "confirmName", message: "does not match the workspace's name" }]);
  }
  return { status: await deleteWholeWorkspace(deps, input.workspaceId, budget) };
}
