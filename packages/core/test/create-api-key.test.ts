import { describe, expect, it } from "vitest";
import { ConflictError, createApiKey, personalWorkspaceId, secretMatches, type Project, type ProjectRepository, type User } from "../src";
import { MemoryApiKeys, fixedClock, sequentialIds } from "./support/fakes";

/** Unique by e-mail and by (workspace, project name), like the DynamoDB adapter's transactions. */
class MemoryProjects implements ProjectRepository {
  users = new Map<string, User>();
  projects = new Map<string, Project>();
  /** Lets a test play a concurrent caller that creates the same user or project first. */
  beforeCreate?: () => void;
  async getUserByEmail(email: string) {
    return this.users.get(email);
  }
  async createUser(user: User) {
    this.beforeCreate?.();
    if (this.users.has(user.email)) throw new ConflictError("already_exists", "user exists");
    this.users.set(user.email, user);
  }
  async findProjectByName(workspaceId: string, name: string) {
    return this.projects.get(`${workspaceId}/${name.toLowerCase()}`);
  }
  async createProject(project: Project) {
    this.beforeCreate?.();
    const k = `${project.workspaceId}/${project.name.toLowerCase()}`;
    if (this.projects.has(k)) throw new ConflictError("already_exists", "project exists");
    this.projects.set(k, project);
  }
}

function setup() {
  const projects = new MemoryProjects();
  const apiKeys = new MemoryApiKeys();
  return { projects, apiKeys, deps: { projects, apiKeys, clock: fixedClock(), ids: sequentialIds() } };
}

describe("createApiKey", () => {
  it("creates user and project once, then mints further keys for the same project", async () => {
    const { deps, apiKeys, projects } = setup();
    const first = await createApiKey(deps, { email: "Dev@Example.com", projectName: "Demo" });
    const second = await createApiKey(deps, { email: "dev@example.com", projectName: "demo " });
    expect(second.projectId).toBe(first.projectId);
    expect(second.clientId).not.toBe(first.clientId);
    const stored = apiKeys.keys.get(first.clientId)!;
    expect(stored.secretHash).not.toContain(first.clientSecret);
    expect(secretMatches(first.clientSecret, stored.secretHash)).toBe(true);
    // The project and the key are in the user's personal workspace.
    const user = projects.users.get("dev@example.com")!;
    expect(stored.workspaceId).toBe(personalWorkspaceId(user.userId));
    expect(projects.projects.get(`${personalWorkspaceId(user.userId)}/demo`)?.projectId).toBe(first.projectId);
  });

  it("takes the concurrent winner's user and project instead of failing", async () => {
    const { deps, projects } = setup();
    const winnerUser = { userId: "usr_winner0000000000", email: "a@b.co", createdAt: "t" };
    const workspaceId = personalWorkspaceId(winnerUser.userId);
    const winnerProject = { projectId: "prj_winner", workspaceId, userId: winnerUser.userId, name: "P", description: "", color: "blue", createdAt: "t" };
    projects.beforeCreate = () => {
      projects.users.set(winnerUser.email, winnerUser);
      projects.projects.set(`${workspaceId}/p`, winnerProject);
    };
    const created = await createApiKey(deps, { email: "a@b.co", projectName: "P" });
    expect(created.projectId).toBe("prj_winner");
  });

  it("refuses an invalid e-mail or empty project name", async () => {
    const { deps } = setup();
    await expect(createApiKey(deps, { email: "nope", projectName: "P" })).rejects.toMatchObject({ code: "invalid_request" });
    await expect(createApiKey(deps, { email: "a@b.co", projectName: "  " })).rejects.toMatchObject({ code: "invalid_request" });
  });
});
