import type { RetentionPolicy } from "../releases/retention";
import type { Project } from "./project-repository.port";

/** A project as the dashboard shows it: the stored project plus its upload statistics. */
export interface ProjectView extends Project {
  /** `deleting` while a background purge removes its files (see dashboard/purge.ts). */
  status: "active" | "deleting";
  /** Completed uploads currently stored. */
  fileCount: number;
  lastUploadAt?: string;
  /** The retention policy the daily run applies (docs/release-safety.md); absent when none. */
  retention?: RetentionPolicy;
  /**
   * Bytes of the completed builds stored, kept exact by ADDs at complete and at removal; absent on
   * a project stored before it was counted, until `countStorage` counted it once.
   */
  storageBytes?: number;
}

export interface ProjectChanges {
  name?: string;
  description?: string;
  color?: string;
  /** A policy replaces the project's; null removes it. */
  retention?: RetentionPolicy | null;
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
  /** Takes a deleted completed upload (and its bytes) off the project's counts. */
  forgetUpload(workspaceId: string, projectId: string, bytes?: number): Promise<void>;
  /**
   * The projects with a retention policy, in every workspace (the daily run's work list): one
   * Query of a well-known partition, not a Scan of the table.
   */
  withRetention(): Promise<{ workspaceId: string; projectId: string }[]>;
  /** Takes a project that no longer exists off that list. */
  forgetRetention(projectId: string): Promise<void>;
  /**
   * The storage of a project stored before it was counted, counted once: `sum` adds up its
   * completed builds, and the result is kept only if no upload or removal was counted meanwhile
   * (else it counts again, a few times). undefined when the project is gone or stayed too busy.
   */
  countStorage(workspaceId: string, projectId: string, sum: () => Promise<number>): Promise<number | undefined>;
}
