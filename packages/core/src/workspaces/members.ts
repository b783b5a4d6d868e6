import { auditActor } from "../audit/audit-actor";
import { NotFoundError, ValidationError } from "../errors/domain-errors";
import type { Membership } from "../ports/workspace-catalog.port";
import { workspaceAccess } from "./access";
import type { Actor } from "./actor";
import { can, type Role } from "./roles";
import { ForbiddenError } from "./workspace-errors";
import type { ChangeRole, MemberRef, TransferOwnership, WorkspaceRef } from "./workspace.schema";
import type { MemberAnswer } from "./workspace-answers";
import { answerFor, type WorkspaceAnswer, type WorkspaceDeps } from "./workspaces";

export type { MemberAnswer } from "./workspace-answers";

const memberNotFound = () => new NotFoundError("member_not_found", "No member with this id in this workspace");

async function memberAnswer(deps: WorkspaceDeps, actor: Actor, membership: Membership): Promise<MemberAnswer> {
  const user = await deps.users.get(membership.userId);
  return {
    userId: membership.userId,
    email: user?.email ?? null,
    displayName: user?.displayName ?? null,
    role: membership.role,
    joinedAt: membership.joinedAt,
    lastActiveAt: membership.lastActiveAt ?? null,
    you: membership.userId === actor.userId,
  };
}

/** Every member with their account's address and name, owners first, then by address. */
export async function listMembers(deps: WorkspaceDeps, actor: Actor, input: WorkspaceRef): Promise<{ items: MemberAnswer[] }> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.read");
  const members = await deps.workspaces.listMembers(input.workspaceId);
  // At most MAX_MEMBERS strongly consistent GetItems, in parallel (the user items hold the names).
  const items = await Promise.all(members.map((m) => memberAnswer(deps, actor, m)));
  const rank: Record<Role, number> = { owner: 0, admin: 1, developer: 2, viewer: 3 };
  items.sort((a, b) => rank[a.role] - rank[b.role] || (a.email ?? "").localeCompare(b.email ?? "") || a.userId.localeCompare(b.userId));
  return { items };
}

/**
 * The member to act on, once the caller may act on members at all: `members.manage` for
 * everyone else, `owners.manage` when the change makes, unmakes or removes an owner (roles.ts).
 */
async function target(deps: WorkspaceDeps, actor: Actor, input: MemberRef, newRole?: Role): Promise<Membership> {
  const caller = await workspaceAccess(deps, actor.userId, input.workspaceId, "members.manage");
  const member = input.userId === actor.userId ? caller : await deps.workspaces.membership(input.workspaceId, input.userId);
  if (!member) throw memberNotFound();
  if ((member.role === "owner" || newRole === "owner") && !can(caller.role, "owners.manage")) throw new ForbiddenError(caller.role, "owners.manage");
  return member;
}

/** A member's new role. The last owner cannot be demoted (409 `last_owner`, exact under concurrency). */
export async function changeMemberRole(deps: WorkspaceDeps, actor: Actor, input: MemberRef & ChangeRole): Promise<MemberAnswer> {
  const member = await target(deps, actor, input, input.role);
  if (member.role === input.role) return memberAnswer(deps, actor, member);
  const changed = await deps.workspaces.changeRole(input.workspaceId, input.userId, input.role);
  await deps.audit.record({
    workspaceId: input.workspaceId,
    actor: auditActor(actor),
    action: "member.role_changed",
    target: { type: "member", id: input.userId },
    details: { from: member.role, to: input.role },
  });
  return memberAnswer(deps, actor, changed);
}

/**
 * Removes a member, or (the caller's own id) leaves: leaving needs nothing but membership. The
 * access check of every later request reads the membership strongly consistently, so the removed
 * person's sessions lose the workspace from their next request. Keys they made stay: they belong
 * to the workspace's projects.
 */
export async function removeMember(deps: WorkspaceDeps, actor: Actor, input: MemberRef): Promise<void> {
  const leaving = input.userId === actor.userId;
  const member = leaving ? await workspaceAccess(deps, actor.userId, input.workspaceId, "workspace.read") : await target(deps, actor, input);
  await deps.workspaces.removeMember(input.workspaceId, input.userId);
  await deps.audit.record({
    workspaceId: input.workspaceId,
    actor: auditActor(actor),
    action: leaving ? "member.left" : "member.removed",
    target: { type: "member", id: input.userId },
    details: { role: member.role },
  });
}

/** The named member becomes owner and the caller (an owner) admin, in one transaction. */
export async function transferOwnership(deps: WorkspaceDeps, actor: Actor, input: WorkspaceRef & TransferOwnership): Promise<WorkspaceAnswer> {
  const caller = await workspaceAccess(deps, actor.userId, input.workspaceId, "owners.manage");
  if (input.userId === actor.userId) throw new ValidationError([{ field: "userId", message: "is you: name the member who becomes owner" }]);
  const member = await deps.workspaces.membership(input.workspaceId, input.userId);
  if (!member) throw memberNotFound();
  await deps.workspaces.transferOwnership(input.workspaceId, actor.userId, input.userId);
  await deps.audit.record({
    workspaceId: input.workspaceId,
    actor: auditActor(actor),
    action: "ownership.transferred",
    target: { type: "member", id: input.userId },
    details: { from: actor.userId, previousRole: member.role },
  });
  return answerFor(deps, { ...caller, role: "admin" });
}
