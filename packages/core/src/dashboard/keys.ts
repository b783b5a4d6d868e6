import { ConflictError, NotFoundError } from "../errors/domain-errors";
import { hashSecret } from "../ids/random-ids";
import type { ApiKey, UsageDay } from "../ports";
import type { CreateKey, KeyRef } from "./dashboard.schema";
import type { DashboardDeps } from "./dashboard-deps";
import type { CreatedKeyAnswer, KeyAnswer, KeyUsage } from "./dashboard-answers";
import { MAX_ACTIVE_KEYS } from "./limits";
import { ownProject } from "./projects";

export const keyNotFound = () => new NotFoundError("key_not_found", "No API key with this client id in your account");

/** The caller's key, or 404: another account's client id answers exactly like an unknown one. */
async function ownKey(deps: Pick<DashboardDeps, "keys">, userId: string, { clientId }: KeyRef): Promise<ApiKey> {
  const key = await deps.keys.get(clientId);
  if (!key || key.userId !== userId) throw keyNotFound();
  return key;
}

export { MAX_ACTIVE_KEYS };

export async function createKey(deps: Pick<DashboardDeps, "keys" | "projects" | "clock" | "ids">, userId: string, input: CreateKey): Promise<CreatedKeyAnswer> {
  const project = await ownProject(deps, userId, input.projectId);
  if (project.status !== "active") throw new ConflictError("project_deleting", "This project is being deleted");
  const clientId = deps.ids.clientId();
  const clientSecret = deps.ids.clientSecret();
  const key: ApiKey = {
    clientId,
    secretHash: hashSecret(clientSecret),
    name: input.name,
    projectId: project.projectId,
    userId,
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
  // The only answer besides regenerate that carries the secret; only its hash is stored.
  return {
    clientId,
    clientSecret,
    name: key.name,
    projectId: key.projectId,
    projectName: project.name,
    status: key.status,
    createdAt: key.createdAt,
    lastUsedAt: null,
  };
}

export async function listKeys(deps: Pick<DashboardDeps, "keys" | "projects" | "usage">, userId: string): Promise<KeyAnswer[]> {
  const projects = await deps.projects.list(userId);
  const perProject = await Promise.all(
    projects.map(async (p) => (await deps.keys.listByProject(p.projectId)).map((key) => ({ key, project: p }))),
  );
  const all = perProject.flat().filter(({ key }) => key.userId === userId);
  const answers = await Promise.all(
    all.map(async ({ key, project }) => ({
      clientId: key.clientId,
      name: key.name,
      projectId: key.projectId,
      projectName: project.name,
      status: key.status,
      createdAt: key.createdAt,
      lastUsedAt: (await deps.usage.lastUsedAt(key.clientId)) ?? null,
    })),
  );
  return answers.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** A new secret for the same client id; the old secret fails from the next request on. */
export async function regenerateKey(deps: Pick<DashboardDeps, "keys" | "ids">, userId: string, input: KeyRef) {
  const key = await ownKey(deps, userId, input);
  if (key.status !== "active") throw new ConflictError("key_revoked", "A revoked key cannot be regenerated; create a new one");
  const clientSecret = deps.ids.clientSecret();
  if (!(await deps.keys.replaceSecret(userId, key.clientId, hashSecret(clientSecret)))) {
    throw new ConflictError("key_revoked", "A revoked key cannot be regenerated; create a new one");
  }
  return { clientId: key.clientId, clientSecret };
}

/** Revoking is idempotent; the key item stays (status revoked) so its usage stays readable. */
export async function revokeKey(deps: Pick<DashboardDeps, "keys" | "clock">, userId: string, input: KeyRef) {
  const key = await ownKey(deps, userId, input);
  if (key.status === "active") await deps.keys.revoke(userId, key, deps.clock.now().toISOString());
}

export const USAGE_DAYS = 30;

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The last 30 UTC days (today included), one entry per day, zeros where nothing happened. */
export async function keyUsage(
  deps: Pick<DashboardDeps, "keys" | "usage" | "clock">,
  userId: string,
  input: KeyRef,
): Promise<KeyUsage> {
  const key = await ownKey(deps, userId, input);
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
