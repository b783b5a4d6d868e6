import { auditActor } from "../audit/audit-actor";
import type { AuditLog } from "../ports/audit-log.port";
import type { Clock } from "../ports/clock.port";
import type { UserRepository } from "../ports/user-repository.port";
import type { Membership, Workspace, WorkspaceCatalog } from "../ports/workspace-catalog.port";
import { workspaceAccess, workspaceNotFound } from "./access";
import type { Actor } from "./actor";
import { newWorkspaceId } from "./new-workspace-id";
import { permissionsOf, type Role } from "./roles";
import type { WorkspaceAnswer } from "./workspace-answers";

export type { WorkspaceAnswer } from "./workspace-answers";
import type { CreateWorkspace, RenameWorkspace, WorkspaceRef } from "./workspace.schema";

/** What the workspace and member use cases need (composition: functions/src/composition/workspaces.ts). */
export interface WorkspaceDeps {
  workspaces: WorkspaceCatalog;
  /** Members are listed with their account's address and display name. */
  users: Pick<UserRepository, "get">;
  audit: AuditLog;
  clock: Clock;
  /** Ids of new workspaces (tests pin them); newWorkspaceId by default. */
  workspaceIds?: () => string;
}

export function workspaceAnswer(workspace: Workspace, role: Role): WorkspaceAnswer {
  return {
    workspaceId: workspace.workspaceId,
    name: workspace.name,
    personal: workspace.personal,
    role,
    permissions: permissionsOf(role),
    memberCount: workspace.memberCount,
    createdAt: workspace.createdAt,
  };
}

/** The caller's workspaces: their personal one first, then by name. */
export async function listWorkspaces(deps: WorkspaceDeps, actor: Actor): Promise<{ items: WorkspaceAnswer[] }> {
  const mine = await deps.workspaces.listForUser(actor.userId);
  const items = mine
    .map(({ workspace, membership }) => workspaceAnswer(workspace, membership.role))
    .sort((a, b) => {
      // Only the caller's own personal workspace leads; one they were invited into sorts by name.
      const own = (w: WorkspaceAnswer) => (w.personal && w.role === "owner" ? 0 : 1);
      return own(a) - own(b) || a.name.localeCompare(b.name) || a.workspaceId.localeCompare(b.workspaceId);
    });
  return { items };
}

/** A new team workspace; its creator is its first owner (MAX_WORKSPACES_PER_USER counts it). */
export async function createWorkspace(deps: WorkspaceDeps, actor: Actor, input: CreateWorkspace): Promise<WorkspaceAnswer> {
  const workspace = await deps.workspaces.create({
    workspaceId: (deps.workspaceIds ?? newWorkspaceId)(),
    name: input.name,
    personal: false,
    createdAt: deps.clock.now().toISOString(),
    createdBy: actor.userId,
  });
  await deps.audit.record({
    workspaceId: workspace.workspaceId,
    actor: auditActor(actor),
    action: "workspace.created",
    target: { type: "workspace", id: workspace.workspaceId, label: workspace.name },
  });
  return workspaceAnswer(workspace, "owner");
}

/** The workspace item, read after access was granted: gone meanwhile reads as not found. */
async function existing(deps: WorkspaceDeps, workspaceId: string): Promise<Workspace> {
  const workspace = await deps.workspaces.get(workspaceId);
  if (!workspace) throw workspaceNotFound();
  return workspace;
}

export async function getWorkspace(deps: WorkspaceDeps, actor: Actor, input: WorkspaceRef): Promise<WorkspaceAnswer> {
  const membership = await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.read");
  return workspaceAnswer(await existing(deps, input.workspaceId), membership.role);
}

export async function renameWorkspace(deps: WorkspaceDeps, actor: Actor, input: WorkspaceRef & RenameWorkspace): Promise<WorkspaceAnswer> {
  const membership = await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.update");
  const before = await existing(deps, input.workspaceId);
  if (before.name === input.name) return workspaceAnswer(before, membership.role);
  const renamed = await deps.workspaces.rename(input.workspaceId, input.name);
  if (!renamed) throw workspaceNotFound();
  await deps.audit.record({
    workspaceId: input.workspaceId,
    actor: auditActor(actor),
    action: "workspace.renamed",
    target: { type: "workspace", id: input.workspaceId, label: renamed.name },
    details: { from: before.name, to: renamed.name },
  });
  return workspaceAnswer(renamed, membership.role);
}

/** For members.ts: the caller's membership and the workspace answer after a change. */
export async function answerFor(deps: WorkspaceDeps, membership: Membership): Promise<WorkspaceAnswer> {
  return workspaceAnswer(await existing(deps, membership.workspaceId), membership.role);
}
