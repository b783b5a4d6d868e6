import { ConflictError, NotFoundError, ValidationError } from "../errors/domain-errors";
import type { ProjectView } from "../ports";
import { PROJECT_ID, type CreateProject, type DeleteProject, type ProjectRef, type UpdateProject } from "./dashboard.schema";
import type { Budget, DashboardDeps } from "./dashboard-deps";
import type { ProjectAnswer } from "./dashboard-answers";
import { MAX_PROJECTS } from "./limits";
import { PROJECT_COLORS, type ProjectColor } from "./palette";
import { purgeProject, stopProject } from "./purge";

export function projectAnswer(p: ProjectView): ProjectAnswer {
  return {
    projectId: p.projectId,
    name: p.name,
    description: p.description,
    color: p.color,
    colorHex: PROJECT_COLORS[p.color as ProjectColor]?.hex ?? PROJECT_COLORS.gray.hex,
    status: p.status,
    fileCount: p.fileCount,
    lastUploadAt: p.lastUploadAt ?? null,
    createdAt: p.createdAt,
  };
}

export const projectNotFound = () => new NotFoundError("project_not_found", "No project with this id in your account");

/**
 * The caller's project, or 404 for anything else: another account's id looks exactly like an
 * unknown one. The shape is checked here too because a key's body names its project (createKey),
 * and that field is only bounded by its schema.
 */
export async function ownProject(deps: Pick<DashboardDeps, "projects">, userId: string, projectId: string) {
  const project = PROJECT_ID.test(projectId) ? await deps.projects.get(userId, projectId) : undefined;
  if (!project) throw projectNotFound();
  return project;
}

const nameTaken = () =>
  new ConflictError("already_exists", "You already have a project with this name", {
    fields: [{ field: "name", message: "is already the name of one of your projects" }],
  });

export { MAX_PROJECTS };

export async function createProject(deps: Pick<DashboardDeps, "projects" | "clock" | "ids">, userId: string, input: CreateProject) {
  const project: ProjectView = {
    projectId: deps.ids.projectId(),
    userId,
    name: input.name,
    description: input.description,
    color: input.color,
    createdAt: deps.clock.now().toISOString(),
    status: "active",
    fileCount: 0,
  };
  try {
    // The limit is kept by the write itself, so parallel creates cannot pass it.
    await deps.projects.create(project);
  } catch (error) {
    if (error instanceof ConflictError && error.code === "limit_reached") {
      throw new ConflictError("limit_reached", `An account can have at most ${MAX_PROJECTS} projects; delete one to create another`);
    }
    if (error instanceof ConflictError) throw nameTaken();
    throw error;
  }
  return projectAnswer(project);
}

export async function listProjects(deps: Pick<DashboardDeps, "projects">, userId: string) {
  const projects = await deps.projects.list(userId);
  projects.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return projects.map(projectAnswer);
}

export async function getProject(deps: Pick<DashboardDeps, "projects">, userId: string, input: ProjectRef) {
  return projectAnswer(await ownProject(deps, userId, input.projectId));
}

const deleting = () => new ConflictError("project_deleting", "This project is being deleted");

/** `input`: the project's id (from the path) and the changes (the body); omitted fields stay. */
export async function updateProject(deps: Pick<DashboardDeps, "projects">, userId: string, input: ProjectRef & UpdateProject) {
  const { projectId, ...fields } = input;
  const project = await ownProject(deps, userId, projectId);
  if (project.status !== "active") throw deleting();
  const changes = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  try {
    if (!(await deps.projects.update(project, changes))) throw projectNotFound();
  } catch (error) {
    if (error instanceof ConflictError) throw nameTaken();
    throw error;
  }
  return projectAnswer({ ...project, ...changes });
}

/**
 * Deleting asks for the project's name, like the dashboard's confirm box, so a stray DELETE (a
 * script, a wrong id pasted) cannot wipe a project. Keys stop working at once; files are purged
 * within `budget`, and what is left goes to the background with the project shown as deleting.
 */
export async function deleteProject(
  deps: DashboardDeps,
  userId: string,
  input: ProjectRef & DeleteProject,
  budget: Budget,
): Promise<{ status: "deleted" | "deleting" }> {
  const project = await ownProject(deps, userId, input.projectId);
  if (input.confirmName.trim().normalize("NFC").toLowerCase() !== project.name.toLowerCase()) {
    throw new ValidationError([{ field: "confirmName", message: "does not match the project's name" }]);
  }
  await stopProject(deps, project);
  const task = { kind: "project", userId, projectId: project.projectId } as const;
  if ((await purgeProject(deps, task, budget)) === "done") return { status: "deleted" };
  await deps.background.schedule(task);
  return { status: "deleting" };
}
