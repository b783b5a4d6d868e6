// Namespace import: `import { z }` defeats tree-shaking and adds ~370 KB to every bundle.
import * as z from "zod";
import { hashSecret, type IdSource } from "../ids/random-ids";
import type { ApiKeyRepository, Clock, Project, ProjectRepository } from "../ports";

export const CreateApiKey = z.object({
  email: z.string().email(),
  projectName: z.string().trim().min(1).max(100),
  keyName: z.string().trim().min(1).max(100).default("default"),
  projectDescription: z.string().max(1000).default(""),
  projectColor: z.string().max(32).default("blue"),
});
export type CreateApiKey = z.input<typeof CreateApiKey>;

export interface CreatedApiKey {
  clientId: string;
  /** Shown once: only its hash is stored. */
  clientSecret: string;
  projectId: string;
}

export interface CreateApiKeyDeps {
  apiKeys: ApiKeyRepository;
  projects: ProjectRepository;
  clock: Clock;
  ids: IdSource;
}

/**
 * Mints a key for a project, creating the user and the project when they do not exist yet.
 * Used by `npm run key:create` (local and deployed stages) until the dashboard exists.
 */
export async function createApiKey(deps: CreateApiKeyDeps, raw: CreateApiKey): Promise<CreatedApiKey> {
  const input = CreateApiKey.parse(raw);
  const now = deps.clock.now().toISOString();
  const email = input.email.toLowerCase();

  let user = await deps.projects.getUserByEmail(email);
  if (!user) {
    user = { userId: deps.ids.userId(), email, createdAt: now };
    await deps.projects.createUser(user);
  }
  let project: Project | undefined = await deps.projects.findProjectByName(user.userId, input.projectName);
  if (!project) {
    project = {
      projectId: deps.ids.projectId(),
      userId: user.userId,
      name: input.projectName,
      description: input.projectDescription,
      color: input.projectColor,
      createdAt: now,
    };
    await deps.projects.createProject(project);
  }

  const clientId = deps.ids.clientId();
  const clientSecret = deps.ids.clientSecret();
  await deps.apiKeys.create({
    clientId,
    secretHash: hashSecret(clientSecret),
    name: input.keyName,
    projectId: project.projectId,
    userId: user.userId,
    status: "active",
    createdAt: now,
  });
  return { clientId, clientSecret, projectId: project.projectId };
}
