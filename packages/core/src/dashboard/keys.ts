import { ConflictError, NotFoundError } from "../errors/domain-errors";
import { hashSecret } from "../ids/random-ids";
import { keyWorkspaceId, type ApiKey, type UsageDay } from "../ports";
import type { Actor } from "../workspaces/actor";
import { userActor } from "../webhooks/event-builders";
import { workspaceAccess } from "../workspaces/access";
import type { Action } from "../workspaces/roles";
import { recordChange } from "./audit-record";
import type { CreateKey, KeyRef, WorkspaceQuery } from "./dashboard.schema";
import type { DashboardDeps } from "./dashboard-deps";
import type { CreatedKeyAnswer, KeyAnswer, KeyUsage } from "./dashboard-answers";
import { MAX_ACTIVE_KEYS } from "./limits";
import { ownProject, workspaceOf } from "./projects";

export const keyNotFound = () => new NotFoundError("key_not_found", "No API key with this client id in your workspaces");

/**
 * A key of a workspace the actor is a member of, allowed `action` there; else 404 exactly like an
 * unknown client id (a non-member learns nothing), or 403 for a member whose role does not allow
 * it. Who created the key does not matter: it belongs to the workspace.
 */
async function workspaceKey(
  deps: Pick<DashboardDeps, "keys" | "workspaces">,
  actor: Actor,
  { clientId }: KeyRef,
  action: Action,
): Promise<{ key: ApiKey; workspaceId: string }> {
  const key = await deps.keys.get(clientId);
  if (!key) throw keyNotFound();
  const workspaceId = keyWorkspaceId(key);
  await workspaceAccess(deps, actor.userId, workspaceId, action).catch((error: unknown) => {
    throw error instanceof NotFoundError ? keyNotFound() : error;
  });
  return { key, workspaceId };
}

/** Who created each key: one read per distinct creator (a workspace has few). */
async function creatorsOf(deps: Pick<DashboardDeps, "users">, userIds: string[]): Promise<Map<string, string | null>> {
  const distinct = [...new Set(userIds)];
  const users = await Promise.all(distinct.map((id) => deps.users.get(id)));
  return new Map(distinct.map((id, i) => [id, users[i]?.email ?? null]));
}

export { MAX_ACTIVE_KEYS };

export async function createKey(
  deps: Pick<DashboardDeps, "keys" | "projects" | "workspaces" | "users" | "audit" | "clock" | "ids" | "events">,
  actor: Actor,
  input: CreateKey,
): Promise<CreatedKeyAnswer> {
  const project = await ownProject(deps, actor, input.projectId, "keys.manage");
  if (project.status !== "active") throw new ConflictError("project_deleting", "This project is being deleted");
  const clientId = deps.ids.clientId();
  const clientSecret = deps.ids.clientSecret();
  const key: ApiKey = {
    clientId,
    secretHash: hashSecret(clientSecret),
    name: input.name,
    projectId: project.projectId,
    workspaceId: project.workspaceId,
    userId: actor.userId,
    status: "active",
    createdAt: deps.clock.now().toISOString(),
  };
  try {
    // The limit is kept by the write itself, so parallel creates cannot pass it.
    await deps.keys.create(key);
  } catch (error) {
    if (error instanceof ConflictError && error.code === "limit_reached") {
      throw new ConflictError("limit_reached", `A project can have at most ${MAX_ACTIVE_KEYS} active keys; revoke one to create another`);
    }
    throw error;
  }
  const [email] = await Promise.all([
    creatorsOf(deps, [actor.userId]).then((m) => m.get(actor.userId) ?? null),
    recordChange(deps, actor, {
      workspaceId: project.workspaceId,
      action: "key.created",
      target: { type: "key", id: clientId, label: key.name },
      details: { projectId: project.projectId, projectName: project.name },
    }),
  ]);
  await deps.events?.publish({
    type: "key.created",
    occurredAt: key.createdAt,
    workspaceId: project.workspaceId,
    projectId: project.projectId,
    branch: null,
    data: { workspaceId: project.workspaceId, key: { clientId, name: key.name, projectId: project.projectId }, actor: userActor(actor, email) },
  });
  // The only answer besides regenerate that carries the secret; only its hash is stored.
  return {
    clientId,
    clientSecret,
    name: key.name,
    projectId: key.projectId,
    projectName: project.name,
    workspaceId: project.workspaceId,
    createdBy: { userId: actor.userId, email },
    status: key.status,
    createdAt: key.createdAt,
    lastUsedAt: null,
  };
}

/** Every key of the workspace's projects, whoever created it, newest first. */
export async function listKeys(
  deps: Pick<DashboardDeps, "keys" | "projects" | "workspaces" | "users" | "usage">,
  actor: Actor,
  input: WorkspaceQuery,
): Promise<KeyAnswer[]> {
  const { workspaceId } = await workspaceAccess(deps, actor.userId, workspaceOf(actor, input), "workspace.read");
  const projects = await deps.projects.list(workspaceId);
  const perProject = await Promise.all(
    projects.map(async (p) => (await deps.keys.listByProject(p.projectId)).map((key) => ({ key, project: p }))),
  );
  const all = perProject.flat();
  const creators = await creatorsOf(deps, all.map(({ key }) => key.userId));
  const answers = await Promise.all(
    all.map(async ({ key, project }) => ({
      clientId: key.clientId,
      name: key.name,
      projectId: key.projectId,
      projectName: project.name,
      workspaceId,
      createdBy: { userId: key.userId, email: creators.get(key.userId) ?? null },
      status: key.status,
      createdAt: key.createdAt,
      lastUsedAt: (await deps.usage.lastUsedAt(key.clientId)) ?? null,
    })),
  );
  return answers.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

const revokedKey = () => new ConflictError("key_revoked", "A revoked key cannot be regenerated; create a new one");

/** A new secret for the same client id; the old secret fails from the next request on. Any member with keys.manage may. */
export async function regenerateKey(deps: Pick<DashboardDeps, "keys" | "workspaces" | "audit" | "ids">, actor: Actor, input: KeyRef) {
  const { key, workspaceId } = await workspaceKey(deps, actor, input, "keys.manage");
  if (key.status !== "active") throw revokedKey();
  const clientSecret = deps.ids.clientSecret();
  if (!(await deps.keys.replaceSecret(key, hashSecret(clientSecret)))) throw revokedKey();
  await recordChange(deps, actor, { workspaceId, action: "key.regenerated", target: { type: "key", id: key.clientId, label: key.name } });
  return { clientId: key.clientId, clientSecret };
}

/** Revoking is idempotent; the key item stays (status revoked) so its usage stays readable. Any member with keys.manage may. */
export async function revokeKey(deps: Pick<DashboardDeps, "keys" | "workspaces" | "audit" | "clock" | "events">, actor: Actor, input: KeyRef) {
  const { key, workspaceId } = await workspaceKey(deps, actor, input, "keys.manage");
  if (key.status !== "active") return;
  const now = deps.clock.now().toISOString();
  if (await deps.keys.revoke(workspaceId, key, now)) {
    await recordChange(deps, actor, { workspaceId, action: "key.revoked", target: { type: "key", id: key.clientId, label: key.name } });
    await deps.events?.publish({
      type: "key.revoked",
      occurredAt: now,
      workspaceId,
      projectId: key.projectId,
      branch: null,
      data: { workspaceId, key: { clientId: key.clientId, name: key.name, projectId: key.projectId }, actor: userActor(actor) },
    });
  }
}

export const USAGE_DAYS = 30;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The last 30 UTC days (today included), one entry per day, zeros where nothing happened. */
export async function keyUsage(
  deps: Pick<DashboardDeps, "keys" | "workspaces" | "usage" | "clock">,
  actor: Actor,
  input: KeyRef,
): Promise<KeyUsage> {
  const { key } = await workspaceKey(deps, actor, input, "workspace.read");
  const today = deps.clock.now();
  const dayList = Array.from({ length: USAGE_DAYS }, (_, i) =>
    dayOf(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (USAGE_DAYS - 1 - i)))),
  );
  const stored = new Map<string, UsageDay>(
    (await deps.usage.days(key.clientId, dayList[0]!, dayList[USAGE_DAYS - 1]!)).map((d) => [d.day, d]),
  );
  const totals = { accepted: 0, rateLimited: 0, uploads: 0, bytes: 0 };
  let lastUsedAt: string | undefined;
  const days = dayList.map((day) => {
    const d = stored.get(day);
    const entry = {
      day,
      accepted: Math.max(0, (d?.requests ?? 0) - (d?.rateLimited ?? 0)),
      rateLimited: d?.rateLimited ?? 0,
      uploads: d?.uploads ?? 0,
      bytes: d?.bytes ?? 0,
    };
    totals.accepted += entry.accepted;
    totals.rateLimited += entry.rateLimited;
    totals.uploads += entry.uploads;
    totals.bytes += entry.bytes;
    if (d?.lastUsedAt) lastUsedAt = d.lastUsedAt;
    return entry;
  });
  lastUsedAt ??= await deps.usage.lastUsedAt(key.clientId);
  return { clientId: key.clientId, from: dayList[0]!, to: dayList[USAGE_DAYS - 1]!, days, totals, lastUsedAt: lastUsedAt ?? null };
}
