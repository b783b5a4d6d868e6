export interface Project {
  projectId: string;
  /** The workspace the project belongs to (its partition: docs/data-model.md). */
  workspaceId: string;
  /** Who created it (the workspace owns it; this stays as a record). */
  userId: string;
  name: string;
  description: string;
  color: string;
  createdAt: string;
}

export interface User {
  userId: string;
  email: string;
  createdAt: string;
}

export interface ProjectRepository {
  getUserByEmail(email: string): Promise<User | undefined>;
  /** Creates the user and its e-mail uniqueness item in one transaction. */
  createUser(user: User & { passwordHash?: string }): Promise<void>;
  findProjectByName(workspaceId: string, name: string): Promise<Project | undefined>;
  /** Creates the project and its per-workspace name uniqueness item in one transaction. */
  createProject(project: Project): Promise<void>;
}
