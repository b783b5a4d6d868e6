import { ConflictError, NotFoundError } from "../errors/domain-errors";
import { auditActor } from "../audit/audit-actor";
import type { Invitation } from "../ports";
import { workspaceAccess, workspaceNotFound } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import { can } from "../workspaces/roles";
import { ForbiddenError } from "../workspaces/workspace-errors";
import type { InvitationDeps, InvitationLinks } from "./invitation-deps";
import { InvitationConflictError } from "./invitation-errors";
import type { CreateInvitation, InvitationRef, InvitationSent, InvitationView, WorkspaceInvitationsRef } from "./invitation.schema";
import { enforceInvitationLimits, invitationView, newToken, nowSeconds, sendInvitationMail } from "./invitation-support";

export const invitationNotFound = () => new NotFoundError("invitation_not_found", "No pending invitation with this id in this workspace");

/**
 * Invites an address to a workspace with a role (docs/teams.md, "Invitations"). Needs
 * `members.manage`; inviting as `owner` also needs `owners.manage` (an admin cannot make owners).
 * Refused with 409 when the address is already a member (`already_member`), already has a pending
 * invitation (`already_invited`, naming it: re-send or revoke that one, so one address never holds
 * two live links with different roles), or the workspace has MAX_PENDING_INVITATIONS pending
 * (`limit_reached`). Then the mail limits are counted, the invitation and its token are stored in
 * one transaction, the mail is sent, and the audit log records it. A mail that could not be sent
 * leaves the invitation standing (`mail: "failed"` in the answer: re-send it).
 */
export async function createInvitation(
  deps: InvitationDeps,
  actor: Actor,
  input: WorkspaceInvitationsRef & CreateInvitation,
  links: InvitationLinks,
): Promise<InvitationSent> {
  const { workspaceId } = input;
  const membership = await workspaceAccess(deps, actor.userId, workspaceId, "members.manage");
  if (input.role === "owner" && !can(membership.role, "owners.manage")) throw new ForbiddenError(membership.role, "owners.manage");

  const now = nowSeconds(deps);
  const [invitee, existing, workspace, inviter] = await Promise.all([
    deps.users.findByEmail(input.email),
    deps.invitations.list(workspaceId),
    deps.workspaces.get(workspaceId),
    deps.users.get(actor.userId),
  ]);
  if (!workspace || !inviter) throw workspaceNotFound();
  if (invitee && (await deps.workspaces.membership(workspaceId, invitee.userId))) {
    throw new ConflictError("already_member", "This address belongs to a member of the workspace already");
  }
  const pending = existing.filter((i) => i.expiresAt > now);
  const same = pending.find((i) => i.email === input.email);
  if (same) {
    throw new InvitationConflictError("already_invited", "This address has a pending invitation already: re-send it or revoke it first", {
      invitationId: same.invitationId,
    });
  }
  // Counted from a strongly consistent read, so sequential requests stop exactly at the limit; two
  // racing creates may pass it by one (documented in docs/teams.md; the mail limits stay exact).
  if (pending.length >= deps.settings.maxPending) {
    throw new ConflictError("limit_reached", `A workspace can have at most ${deps.settings.maxPending} pending invitations; revoke one to send another`, {
      limit: "invitations",
    });
  }
  await enforceInvitationLimits(deps, workspaceId, actor.userId);

  const { token, tokenHash, expiresAt } = newToken(deps);
  const invitation: Invitation = {
    workspaceId,
    invitationId: deps.ids.invitationId(),
    email: input.email,
    role: input.role,
    invitedBy: actor.userId,
    createdAt: deps.clock.now().toISOString(),
    expiresAt,
    tokenHash,
  };
  await deps.invitations.create(invitation);
  const mail = await sendInvitationMail(deps, invitation, token, workspace, inviter, links);
  await deps.audit.record({
    workspaceId,
    actor: auditActor(actor, inviter.email),
    action: "invitation.created",
    target: { type: "invitation", id: invitation.invitationId, label: invitation.email },
    details: { role: invitation.role, mail },
  });
  return { ...invitationView(invitation, inviter.email), mail };
}

/** The workspace's pending invitations (unexpired), newest first; needs `members.manage`. */
export async function listInvitations(deps: InvitationDeps, actor: Actor, input: WorkspaceInvitationsRef): Promise<InvitationView[]> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "members.manage");
  const now = nowSeconds(deps);
  const pending = (await deps.invitations.list(input.workspaceId)).filter((i) => i.expiresAt > now);
  // At most MAX_PENDING_INVITATIONS, from a handful of inviters: one read per inviter.
  const inviterIds = [...new Set(pending.map((i) => i.invitedBy))];
  const inviters = new Map(await Promise.all(inviterIds.map(async (id) => [id, (await deps.users.get(id))?.email ?? null] as const)));
  return pending
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((i) => invitationView(i, inviters.get(i.invitedBy) ?? null));
}

/** A pending invitation of the workspace, or 404 (an expired one is not pending). */
async function pendingInvitation(deps: InvitationDeps, input: InvitationRef): Promise<Invitation> {
  const invitation = await deps.invitations.get(input.workspaceId, input.invitationId);
  if (!invitation) throw invitationNotFound();
  return invitation;
}

/**
 * Revokes an invitation: it and its token are deleted together, so the mailed link answers
 * `invitation_gone` from the next request. Needs `members.manage` (an expired invitation TTL has
 * not removed yet can be revoked too).
 */
export async function revokeInvitation(deps: InvitationDeps, actor: Actor, input: InvitationRef): Promise<void> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, "members.manage");
  const invitation = await pendingInvitation(deps, input);
  if (!(await deps.invitations.revoke(invitation))) throw invitationNotFound();
  const revoker = await deps.users.get(actor.userId);
  await deps.audit.record({
    workspaceId: input.workspaceId,
    actor: auditActor(actor, revoker?.email),
    action: "invitation.revoked",
    target: { type: "invitation", id: invitation.invitationId, label: invitation.email },
    details: { role: invitation.role },
  });
}

/**
 * Re-sends an invitation with a new token and a new 7-day expiry; the old token is deleted in the
 * same transaction, so an earlier mail's link is dead. Needs `members.manage` (and `owners.manage`
 * for an invitation as owner); counted against the same mail limits as a new invitation. Also
 * revives an invitation that expired but is not removed yet.
 */
export async function resendInvitation(deps: InvitationDeps, actor: Actor, input: InvitationRef, links: InvitationLinks): Promise<InvitationSent> {
  const membership = await workspaceAccess(deps, actor.userId, input.workspaceId, "members.manage");
  const invitation = await pendingInvitation(deps, input);
  if (invitation.role === "owner" && !can(membership.role, "owners.manage")) throw new ForbiddenError(membership.role, "owners.manage");
  const [workspace, inviter] = await Promise.all([deps.workspaces.get(input.workspaceId), deps.users.get(actor.userId)]);
  if (!workspace || !inviter) throw workspaceNotFound();
  await enforceInvitationLimits(deps, input.workspaceId, actor.userId);

  const { token, tokenHash, expiresAt } = newToken(deps);
  const renewed: Invitation = { ...invitation, tokenHash, expiresAt, invitedBy: actor.userId };
  if (!(await deps.invitations.renew(invitation, { tokenHash, expiresAt, invitedBy: actor.userId, at: deps.clock.now().toISOString() }))) {
    throw invitationNotFound();
  }
  const mail = await sendInvitationMail(deps, renewed, token, workspace, inviter, links);
  await deps.audit.record({
    workspaceId: input.workspaceId,
    actor: auditActor(actor, inviter.email),
    action: "invitation.resent",
    target: { type: "invitation", id: invitation.invitationId, label: invitation.email },
    details: { role: invitation.role, mail },
  });
  return { ...invitationView(renewed, inviter.email), mail };
}
