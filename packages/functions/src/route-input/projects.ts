import { CreateProject, DeleteAccount, DeleteProject, PageQuery, RetentionPreviewQuery, UpdateProject, WorkspaceQuery, DeleteWorkspace } from "@hangar/core";
import type { RouteKeyOf } from "../routes";
import { dashboard, project, workspace, type RouteInput } from "./rows";

/** The projects function's routes (routes.ts). */
export const input = {
  "POST /api/projects": dashboard({ body: CreateProject }),
  "GET /api/projects": dashboard({ query: WorkspaceQuery }),
  "GET /api/projects/{projectId}": dashboard(project),
  "PATCH /api/projects/{projectId}": dashboard({ ...project, body: UpdateProject }),
  "DELETE /api/projects/{projectId}": dashboard({ ...project, body: DeleteProject }),
  "GET /api/projects/{projectId}/files": dashboard({ ...project, query: PageQuery }),
  "DELETE /api/account": dashboard({ body: DeleteAccount }),
  "GET /api/projects/{projectId}/retention/preview": dashboard({ ...project, query: RetentionPreviewQuery }),
  "DELETE /api/workspaces/{workspaceId}": dashboard({ ...workspace, body: DeleteWorkspace }),
} as const satisfies Record<RouteKeyOf<"projects">, RouteInput>;
