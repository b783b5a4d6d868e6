import * as z from "zod/mini";
import { ConflictError } from "../errors/domain-errors";
import { hashSecret, type IdSource } from "../ids/random-ids";
import { parseInput } from "../validation/parse-input";
import type { ApiKeyRepository, Clock, Project, ProjectRepository } from "../ports";
import { personalWorkspaceId } from "../workspaces/workspace-ids";

const trimmedName = z.pipe(
  z.string(),
  z.transform((s) => s.trim()),
).check(z.refine((s) => s.length >= 1 && s.length <= 100, "must be 1 to 100 characters"));

export const CreateApiKey = z.object({
  email: z.email(),
  projectName: trimmedName,
  keyName: z._default(trimmedName, "default"),
  projectDescription: z._default(z.string().check(z.maxLength(1000)), ""),
  projectColor: z._default(z.string().check(z.maxLength(32)), "blue"),
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
 * Two concurrent callers may both miss and both create: the uniqueness items make one of them
 * fail with ConflictError, and that one takes the winner's record.
 */
async function findOrCreate<T>(find: () => Promise<T | undefined>, create: () => Promise<T>): Promise<T> {
  const existing = await find();
  if (existing) return existing;
  try {
    return await create();
  } catch (error) {
    const winner = error instanceof ConflictError ? await find() : undefined;
    if (winner) return winner;
    throw error;
  }
}

/**
 * Mints a key for a project, creating the user and the project when they do not exist yet.
 * Used by `npm run key:create` (local and deployed stages). The project, and so the key, is in
 * the user's personal workspace (created with the account: `deps.projects.createUser`'s caller
 * makes sure it exists), as a dashboard create without a workspace would put it.
 */
export async function createApiKey(deps: CreateApiKeyDeps, raw: CreateApiKey): Promise<CreatedApiKey> {
  const input = parseInput(CreateApiKey, raw);
  const now = deps.clock.now().toISOString();
  const email = input.email.toLowerCase();

  const user = await findOrCreate(
    () => deps.projects.getUserByEmail(email),
    async () => {
      const created = { userId: deps.ids.userId(), email, createdAt: now };
      await deps.projects.createUser(created);
      return created;
    },
  );
  const workspaceId = personalWorkspaceId(user.userId);
  const project = await findOrCreate(
    () => deps.projects.findProjectByName(workspaceId, input.projectName),
    async () => {
      const created: Project = {
        projectId: deps.ids.projectId(),
        workspaceId,
        userId: user.userId,
        name: input.projectName,
        description: input.projectDescription,
        color: input.projectColor,
        createdAt: now,
      };
      await deps.projects.createProject(created);
      return created;
    },
  );

  const clientId = deps.ids.clientId();
  const clientSecret = deps.ids.clientSecret();
  await deps.apiKeys.create({
    clientId,
    secretHash: hashSecret(clientSecret),
    name: input.keyName,
    projectId: project.projectId,
    workspaceId,
    userId: user.userId,
    status: "active",
    createdAt: now,
  });
  return { clientId, clientSecret, projectId: project.projectId };
}
