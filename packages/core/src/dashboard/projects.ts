import { ConflictError, ValidationError } from "../errors/domain-errors";
import type { ProjectChanges, ProjectView } from "../ports";
import type { RetentionPolicy } from "../releases/retention";
import { withStorage } from "../releases/project-storage";
import type { Actor } from "../workspaces/actor";
import { workspaceAccess } from "../workspaces/access";
import { projectAccess, projectNotFound } from "../workspaces/project-access";
import type { Action } from "../workspaces/roles";
import { personalWorkspaceId } from "../workspaces/workspace-ids";
import { recordChange } from "./audit-record";
import type { CreateProject, DeleteProject, ProjectRef, RetentionInput, UpdateProject, WorkspaceQuery } from "./dashboard.schema";
import type { Budget, DashboardDeps } from "./dashboard-deps";
import type { ProjectAnswer } from "./dashboard-answers";
import { MAX_PROJECTS } from "./limits";
import { PROJECT_COLORS, type ProjectColor } from "./palette";
import { purgeProject, stopProject } from "./purge";

export function projectAnswer(p: ProjectView): ProjectAnswer {
  return {
    projectId: p.projectId,
    workspaceId: p.workspaceId,
    name: p.name,
    description: p.description,
    color: p.color,
    colorHex: PROJECT_COLORS[p.color as ProjectColor]?.hex ?? PROJECT_COLORS.gray.hex,
    status: p.status,
    fileCount: p.fileCount,
    lastUploadAt: p.lastUploadAt ?? null,
    createdAt: p.createdAt,
    retention: p.retention ? { keepLatest: p.retention.keepLatest ?? null, maxAgeDays: p.retention.maxAgeDays ?? null } : null,
    storageBytes: p.storageBytes ?? null,
  };
}

/**
 * A project the actor may act on (`action`), or 404 for anything else: a project of a workspace
 * they are not a member of looks exactly like an unknown id. The shape is checked too because a
 * key's body names its project (createKey), and that field is only bounded by its schema.
 */
export async function ownProject(deps: Pick<DashboardDeps, "projects" | "workspaces">, actor: Actor, projectId: string, action: Action) {
  return (await projectAccess(deps, actor.userId, projectId, action)).project;
}

/** The workspace a list or a create is about: the one named, else the actor's personal workspace. */
export const workspaceOf = (actor: Actor, input: WorkspaceQuery): string => input.workspaceId ?? personalWorkspaceId(actor.userId);

const nameTaken = () =>
  new ConflictError("already_exists", "This workspace already has a project with this name", {
    fields: [{ field: "name", message: "is already the name of a project in this workspace" }],
  });

export { MAX_PROJECTS };

export async function createProject(
  deps: Pick<DashboardDeps, "projects" | "workspaces" | "audit" | "clock" | "ids">,
  actor: Actor,
  input: CreateProject,
) {
  const { workspaceId } = await workspaceAccess(deps, actor.userId, workspaceOf(actor, input), "projects.manage");
  const project: ProjectView = {
    projectId: deps.ids.projectId(),
    workspaceId,
    userId: actor.userId,
    name: input.name,
    description: input.description,
    color: input.color,
    createdAt: deps.clock.now().toISOString(),
    status: "active",
    fileCount: 0,
    storageBytes: 0,
  };
  try {
    // The limit is kept by the write itself, so parallel creates cannot pass it.
    await deps.projects.create(project);
  } catch (error) {
    if (error instanceof ConflictError && error.code === "limit_reached") {
      throw new ConflictError("limit_reached", `A workspace can have at most ${MAX_PROJECTS} projects; delete one to create another`);
    }
    if (error instanceof ConflictError) throw nameTaken();
    throw error;
  }
  await recordChange(deps, actor, {
    workspaceId,
    action: "project.created",
    target: { type: "project", id: project.projectId, label: project.name },
  });
  return projectAnswer(project);
}

export async function listProjects(deps: Pick<DashboardDeps, "projects" | "workspaces"> & Partial<Pick<DashboardDeps, "files">>, actor: Actor, input: WorkspaceQuery) {
  const { workspaceId } = await workspaceAccess(deps, actor.userId, workspaceOf(actor, input), "workspace.read");
  const projects = await Promise.all((await deps.projects.list(workspaceId)).map((p) => withStorage(deps, p)));
  projects.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return projects.map(projectAnswer);
}

export async function getProject(deps: Pick<DashboardDeps, "projects" | "workspaces"> & Partial<Pick<DashboardDeps, "files">>, actor: Actor, input: ProjectRef) {
  return projectAnswer(await withStorage(deps, await ownProject(deps, actor, input.projectId, "workspace.read")));
}

/** The stored form of a policy: the numbers it names (null: retention off). */
function retentionPolicyOf(input: RetentionInput | null): RetentionPolicy | null {
  if (!input) return null;
  const policy: RetentionPolicy = {};
  if (typeof input.keepLatest === "number") policy.keepLatest = input.keepLatest;
  if (typeof input.maxAgeDays === "number") policy.maxAgeDays = input.maxAgeDays;
  return policy;
}

const deleting = () => new ConflictError("project_deleting", "This project is being deleted");

/** `input`: the project's id (from the path) and the changes (the body); omitted fields stay. */
export async function updateProject(
  deps: Pick<DashboardDeps, "projects" | "workspaces" | "audit">,
  actor: Actor,
  input: ProjectRef & UpdateProject,
) {
  const { projectId, ...fields } = input;
  const project = await ownProject(deps, actor, projectId, "projects.manage");
  if (project.status !== "active") throw deleting();
  const { retention, ...rest } = fields;
  const changes: ProjectChanges = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  if (retention !== undefined) changes.retention = retentionPolicyOf(retention);
  try {
    if (!(await deps.projects.update(project, changes))) throw projectNotFound();
  } catch (error) {
    if (error instanceof ConflictError) throw nameTaken();
    throw error;
  }
  const { retention: policy, ...plain } = changes;
  const updated: ProjectView = { ...project, ...plain };
  if (policy !== undefined) {
    if (policy) updated.retention = policy;
    else delete updated.retention;
  }
  await recordChange(deps, actor, {
    workspaceId: project.workspaceId,
    action: "project.updated",
    target: { type: "project", id: project.projectId, label: updated.name },
    // Which fields changed, and a rename's old name (the new one is the target's label).
    details: {
      fields: Object.keys(changes).sort().join(","),
      ...(changes.name !== undefined && changes.name !== project.name ? { previousName: project.name } : {}),
      // The policy as it now is (null: off), so the log answers "who turned retention on, and to what".
      ...(policy !== undefined ? { keepLatest: policy?.keepLatest ?? null, maxAgeDays: policy?.maxAgeDays ?? null } : {}),
    },
  });
  return projectAnswer(updated);
}

/**
 * Deleting asks for the project's name, like the dashboard's confirm box, so a stray DELETE (a
 * script, a wrong id pasted) cannot wipe a project. Keys stop working at once; files are purged
 * within `budget`, and what is left goes to the background with the project shown as deleting.
 */
export async function deleteProject(
  deps: DashboardDeps,
  actor: Actor,
  input: ProjectRef & DeleteProject,
  budget: Budget,
): Promise<{ status: "deleted" | "deleting" }> {
  const project = await ownProject(deps, actor, input.projectId, "projects.manage");
  if (input.confirmName.trim().normalize("NFC").toLowerCase() !== project.name.toLowerCase()) {
    throw new ValidationError([{ field: "confirmName", message: "does not match the project's name" }]);
  }
  await stopProject(deps, project);
  await recordChange(deps, actor, {
    workspaceId: project.workspaceId,
    action: "project.deleted",
    target: { type: "project", id: project.projectId, label: project.name },
  });
  const task = { kind: "project", workspaceId: project.workspaceId, projectId: project.projectId } as const;
  if ((await purgeProject(deps, task, budget)) === "done") return { status: "deleted" };
  await deps.background.schedule(task);
  return { status: "deleting" };
}
