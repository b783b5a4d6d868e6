import { NotFoundError } from "../errors/domain-errors";
import type { Membership, ProjectCatalog, ProjectView, WorkspaceCatalog } from "../ports";
import type { Action } from "./roles";
import { workspaceAccess } from "./access";

export const projectNotFound = () => new NotFoundError("project_not_found", "No project with this id in your workspaces");

/** Ids this service issues for projects (dashboard.schema.ts PROJECT_ID); checked before any read. */
const PROJECT_ID = /^[A-Za-z0-9_]{1,64}$/;

export interface ProjectAccessDeps {
  projects: Pick<ProjectCatalog, "workspaceOf" | "get">;
  workspaces: Pick<WorkspaceCatalog, "membership">;
}

/**
 * A project the caller may act on, with their membership of its workspace: the project is
 * located by its id (gsi1), then read strongly consistent beside the membership (one parallel
 * round trip, the same reads as find + workspaceAccess). A caller who is not a member of the
 * project's workspace gets 404 `project_not_found` exactly as for an id that does not exist, so
 * ids leak nothing across workspaces; a member whose role does not allow `action` gets 403
 * `forbidden` naming it (workspaceAccess).
 */
export async function projectAccess(
  deps: ProjectAccessDeps,
  userId: string,
  projectId: string,
  action: Action,
  /** The project's workspace when the caller knows it already (a file record names it): no lookup. */
  knownWorkspaceId?: string,
): Promise<{ project: ProjectView; membership: Membership }> {
  const workspaceId = !PROJECT_ID.test(projectId) ? undefined : (knownWorkspaceId ?? (await deps.projects.workspaceOf(projectId)));
  if (!workspaceId) throw projectNotFound();
  const [project, membership] = await Promise.all([
    deps.projects.get(workspaceId, projectId),
    workspaceAccess(deps, userId, workspaceId, action).catch((error: unknown) => {
      throw error instanceof NotFoundError ? projectNotFound() : error;
    }),
  ]);
  if (!project) throw projectNotFound();
  return { project, membership };
}
