import { randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { recordChange } from "../dashboard/audit-record";
import { ConflictError, RateLimitedError } from "../errors/domain-errors";
import type { AuditLog, Clock, FileCatalog, RateLimiter } from "../ports";
import type { UpdateGrant } from "../testers/tester-context";
import type { LinkBases } from "../upload/upload-settings";
import type { Actor } from "../workspaces/actor";
import { projectAccess, projectNotFound, type ProjectAccessDeps } from "../workspaces/project-access";
import { InvalidUpdateTokenError, UpdateTokenNotFoundError } from "./app-page-errors";
import type { UpdateTokenRecord, UpdateTokenStore } from "./app-page-store.port";
import type { CreatedUpdateToken, CreateUpdateToken, LatestUpdate, LatestUpdateQuery, UpdateTokenRef, UpdateTokenView } from "./app-pages.schema";
import { compareBuilds } from "./compare-builds";
import { latestOfApp } from "./newer-build";
import { hashSecret } from "../ids/random-ids";

/**
 * Update tokens (docs/testers.md, "The app page and the update check"): per project, read-only,
 * revocable, made to ship inside test builds. Not API keys: the one route that takes them is
 * `GET /api/updates/latest` (auth kind `updateToken`), and no other middleware reads them.
 *
 * A token is `hut_` + 32 random bytes (base64url), shown once; stored is its SHA-256 (hex), the
 * key of its item, so a check is one GetItem. SHA-256 suits a 256-bit random secret (nothing to
 * brute-force), as for API keys (ids/random-ids.ts).
 */

/** Tokens per project: one per app and channel is plenty; the cap bounds what a leak can spread. */
export const MAX_UPDATE_TOKENS = 20;
/** lastUsedAt is written at most this often per token: a popular build must not write on every launch. */
export const LAST_USED_RESOLUTION_MS = 3600_000;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const tokenId = () => `utk_${Array.from({ length: 16 }, () => BASE62[randomInt(62)]).join("")}`;

export const updateTokenHash: (token: string) => string = hashSecret;

export interface UpdateTokenDeps extends ProjectAccessDeps {
  tokens: UpdateTokenStore;
  audit: Pick<AuditLog, "record">;
  clock: Clock;
}

const viewOf = (t: UpdateTokenRecord): UpdateTokenView => ({ tokenId: t.tokenId, name: t.name, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt ?? null });

/** GET /api/projects/{projectId}/update-tokens (workspace.read): oldest first, never the tokens. */
export async function listUpdateTokens(deps: UpdateTokenDeps, actor: Actor, input: { projectId: string }): Promise<{ items: UpdateTokenView[] }> {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "workspace.read");
  const tokens = await deps.tokens.list(project.projectId);
  return { items: tokens.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(viewOf) };
}

/** POST /api/projects/{projectId}/update-tokens (projects.manage): the token, shown this once. */
export async function createUpdateToken(deps: UpdateTokenDeps, actor: Actor, input: { projectId: string } & CreateUpdateToken): Promise<CreatedUpdateToken> {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "projects.manage");
  if (project.status !== "active") throw projectNotFound();
  const token = `hut_${randomBytes(32).toString("base64url")}`;
  const record: UpdateTokenRecord = {
    tokenId: tokenId(),
    tokenHash: updateTokenHash(token),
    projectId: project.projectId,
    workspaceId: project.workspaceId,
    name: input.name,
    createdAt: deps.clock.now().toISOString(),
    createdBy: actor.userId,
  };
  const created = await deps.tokens.create(record, MAX_UPDATE_TOKENS);
  if (created === "project_gone") throw projectNotFound();
  if (created === "limit_reached") {
    throw new ConflictError("limit_reached", `A project has at most ${MAX_UPDATE_TOKENS} update tokens; revoke one it no longer needs`, { limit: MAX_UPDATE_TOKENS });
  }
  await recordChange(deps, actor, {
    workspaceId: project.workspaceId,
    action: "update_token.created",
    target: { type: "project", id: project.projectId, label: project.name },
    details: { tokenId: record.tokenId, name: record.name },
  });
  return { tokenId: record.tokenId, name: record.name, createdAt: record.createdAt, token };
}

/** DELETE /api/projects/{projectId}/update-tokens/{tokenId} (projects.manage): refused from the next check on. */
export async function revokeUpdateToken(deps: UpdateTokenDeps, actor: Actor, input: UpdateTokenRef): Promise<void> {
  const { project } = await projectAccess(deps, actor.userId, input.projectId, "projects.manage");
  const token = (await deps.tokens.list(project.projectId)).find((t) => t.tokenId === input.tokenId);
  if (!token || !(await deps.tokens.revoke(token))) throw new UpdateTokenNotFoundError();
  await recordChange(deps, actor, {
    workspaceId: project.workspaceId,
    action: "update_token.revoked",
    target: { type: "project", id: project.projectId, label: project.name },
    details: { tokenId: token.tokenId, name: token.name },
  });
}

export interface UpdateCheckDeps {
  tokens: Pick<UpdateTokenStore, "byHash" | "touch">;
  /** Checks per token (`updateCheck`). */
  limit: RateLimiter;
  clock: Clock;
}

/** Long enough for `Bearer hut_<43>`; anything longer is not a token and is cut before hashing. */
const MAX_AUTHORIZATION = 128;

/**
 * The update check's authentication: `Authorization: Bearer hut_…`. Every request does the same
 * work — the header's value hashed, the token read and the per-token counter counted in one
 * parallel round trip — so a missing, malformed, unknown and revoked token all answer the same
 * 401 `invalid_token` in the same time. The hash read back is compared in constant time.
 */
export async function authenticateUpdateToken(deps: UpdateCheckDeps, authorization: string | undefined): Promise<UpdateGrant> {
  const now = deps.clock.now();
  const raw = (authorization ?? "").slice(0, MAX_AUTHORIZATION);
  const given = /^Bearer (hut_[A-Za-z0-9_-]{43})$/.exec(raw)?.[1];
  const hash = updateTokenHash(given ?? `invalid:${raw}`);
  const [record, decision] = await Promise.all([deps.tokens.byHash(hash), deps.limit.hit(hash, now)]);
  const stored = Buffer.from(record?.tokenHash ?? "");
  const computed = Buffer.from(hash);
  const matches = record !== undefined && given !== undefined && stored.length === computed.length && timingSafeEqual(stored, computed);
  if (!matches) throw new InvalidUpdateTokenError();
  if (!decision.allowed) throw new RateLimitedError(decision.state, Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000)));
  const since = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  if (!record.lastUsedAt || record.lastUsedAt < since) await deps.tokens.touch(hash, now.toISOString(), since);
  return { tokenId: record.tokenId, projectId: record.projectId, workspaceId: record.workspaceId };
}

export interface LatestUpdateDeps {
  files: Pick<FileCatalog, "page">;
  clock: Clock;
}

/**
 * GET /api/updates/latest: the newest completed, non-expired upload of that platform and bundle
 * id in the token's project, when it is newer than what the app says it is (compare-builds.ts);
 * undefined (204) otherwise. An app that names neither version nor build gets the newest one.
 */
export async function latestUpdate(deps: LatestUpdateDeps, grant: UpdateGrant, query: LatestUpdateQuery, bases: Pick<LinkBases, "shareBaseUrl">): Promise<LatestUpdate | undefined> {
  const latest = await latestOfApp(deps.files, grant.projectId, { platform: query.platform, bundleId: query.bundleId }, deps.clock.now());
  if (!latest) return undefined;
  const asked = query.version !== undefined || query.build !== undefined;
  if (asked && compareBuilds({ version: latest.metadata.version, build: latest.metadata.buildNumber }, { version: query.version, build: query.build }) <= 0) return undefined;
  return {
    fileId: latest.fileId,
    version: latest.metadata.version,
    build: latest.metadata.buildNumber ?? null,
    releaseNotes: latest.buildContext?.releaseNotes ?? null,
    installUrl: `${bases.shareBaseUrl}/share/${latest.userKey}`,
    uploadedAt: latest.completedAt,
  };
}
