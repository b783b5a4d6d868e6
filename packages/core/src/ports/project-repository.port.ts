export interface Project {
  projectId: string;
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
  findProjectByName(userId: string, name: string): Promise<Project | undefined>;
  /** Creates the project and its per-user name uniqueness item in one transaction. */
  createProject(project: Project): Promise<void>;
}
