import type { Project } from "./project-repository.port";

/** A project as the dashboard shows it: the stored project plus its upload statistics. */
export interface ProjectView extends Project {
  /** `deleting` while a background purge removes its files (see dashboard/purge.ts). */
  status: "active" | "deleting";
  /** Completed uploads currently stored. */
  fileCount: number;
  lastUploadAt?: string;
}

export interface ProjectChanges {
  name?: string;
  description?: string;
  color?: string;
}

/**
 * The dashboard's view of projects. Projects live in a workspace: every method but the lookups
 * by id alone (`workspaceOf`, `find`) is scoped by the workspace's id, so a project of another
 * workspace is simply not found there. Who may ask is decided before (projectAccess).
 */
export interface ProjectCatalog {
  list(workspaceId: string): Promise<ProjectView[]>;
  /** undefined when the workspace holds no project with this id. */
  get(workspaceId: string, projectId: string): Promise<ProjectView | undefined>;
  /** The workspace of a project, from its id alone (gsi1); undefined when there is no such project. */
  workspaceOf(projectId: string): Promise<string | undefined>;
  /** A project by its id alone: workspaceOf, then a strongly consistent read in that workspace. */
  find(projectId: string): Promise<ProjectView | undefined>;
  /**
   * Project and name-uniqueness item in one transaction; ConflictError(already_exists) on a taken
   * name, ConflictError(limit_reached) when the workspace has MAX_PROJECTS projects (exact under
   * concurrent creates; every removal frees a place).
   */
  create(project: Project): Promise<void>;
  /**
   * Applies the changes to an active project (a rename moves the name item in the same
   * transaction). ConflictError(already_exists) on a taken name; false when the project is gone
   * or being deleted.
   */
  update(current: ProjectView, changes: ProjectChanges): Promise<boolean>;
  /** active → deleting; false when it was not active (gone or already deleting). */
  markDeleting(workspaceId: string, projectId: string): Promise<boolean>;
  /** Removes the project and its name item (the last step of a purge). */
  remove(workspaceId: string, projectId: string, name: string): Promise<void>;
  /** Counts a completed upload on the project; nothing happens when the project is gone. */
  recordUpload(workspaceId: string, projectId: string, at: string): Promise<void>;
  /** Takes a deleted completed upload off the project's count. */
  forgetUpload(workspaceId: string, projectId: string): Promise<void>;
}
