import { TooManyAttemptsError } from "../accounts/account-errors";
import { auditActor } from "../audit/audit-actor";
import { hashSecret } from "../ids/random-ids";
import type { Invitation } from "../ports";
import type { Workspace } from "../ports/workspace-catalog.port";
import type { Actor } from "../workspaces/actor";
import type { Role } from "../workspaces/roles";
import type { InvitationDeps, PreviewClient } from "./invitation-deps";
import { InvitationGoneError, maskEmail, WrongAccountError } from "./invitation-errors";
import type { InvitationPreview, InvitationTokenInput } from "./invitation.schema";
import { isoOfSeconds, nowSeconds } from "./invitation-support";

/**
 * The live invitation a mailed token leads to, with its workspace, or `invitation_gone`. An
 * unknown token (never issued, used, revoked, replaced by a re-send) and an expired one are
 * refused after the same single read of the token item, with the same answer, so neither the
 * answer nor its time tells a guesser which it was.
 */
async function liveInvitation(deps: InvitationDeps, token: string): Promise<{ invitation: Invitation; workspace: Workspace }> {
  const tokenHash = hashSecret(token);
  const found = await deps.invitations.findToken(tokenHash);
  if (!found || found.expiresAt <= nowSeconds(deps)) throw new InvitationGoneError();
  const [invitation, workspace] = await Promise.all([deps.invitations.get(found.workspaceId, found.invitationId), deps.workspaces.get(found.workspaceId)]);
  // A workspace being deleted takes its invitations with it: their links are dead from its first step.
  if (!invitation || invitation.tokenHash !== tokenHash || !workspace || workspace.deleting) throw new InvitationGoneError();
  return { invitation, workspace };
}

/**
 * What the accept page shows before the visitor signs in or up: the workspace, who invited, the
 * invited address and role, the expiry. No session: whoever holds the link (the mail's reader)
 * may see this, nobody else can find a link. Counted per client before any read.
 */
export async function previewInvitation(deps: InvitationDeps, input: InvitationTokenInput, client: PreviewClient): Promise<InvitationPreview> {
  const now = deps.clock.now();
  const decision = await deps.limiters.preview.hit(client.ip, now);
  if (!decision.allowed) {
    throw new TooManyAttemptsError(decision.state, Math.max(1, decision.state.resetAt - Math.floor(now.getTime() / 1000)));
  }
  const { invitation, workspace } = await liveInvitation(deps, input.token);
  const inviter = await deps.users.get(invitation.invitedBy);
  return {
    workspaceName: workspace.name,
    invitedBy: { email: inviter?.email ?? null, displayName: inviter?.displayName ?? null },
    email: invitation.email,
    role: invitation.role,
    expiresAt: isoOfSeconds(invitation.expiresAt),
  };
}

/**
 * Accepts an invitation as the signed-in user, whose confirmed address must be the invited one
 * (403 `wrong_account` otherwise, both addresses masked, and the link stays usable for the right
 * account). Then one transaction consumes the token, deletes the invitation and adds the member
 * with the workspace's and the user's counters and limits: of two concurrent accepts one wins, and
 * a link that was revoked or re-sent meanwhile fails as `invitation_gone`. The member add's
 * refusals are the workspace catalog's: 409 `already_member`, 409 `limit_reached` (`limit`:
 * `members` or `workspaces`); the link then stays usable.
 */
export async function acceptInvitation(deps: InvitationDeps, actor: Actor, input: InvitationTokenInput): Promise<{ workspaceId: string; role: Role }> {
  const [{ invitation }, user] = await Promise.all([liveInvitation(deps, input.token), deps.users.get(actor.userId)]);
  if (!user || !user.emailVerified || user.email !== invitation.email) {
    throw new WrongAccountError(user ? maskEmail(user.email) : "another account", maskEmail(invitation.email));
  }
  const outcome = await deps.invitations.accept({
    invitation,
    userId: user.userId,
    joinedAt: deps.clock.now().toISOString(),
    nowSeconds: nowSeconds(deps),
  });
  if (outcome === "gone") throw new InvitationGoneError();
  await deps.audit.record({
    workspaceId: invitation.workspaceId,
    actor: auditActor(actor, user.email),
    action: "invitation.accepted",
    target: { type: "invitation", id: invitation.invitationId, label: invitation.email },
    details: { role: invitation.role, invitedBy: invitation.invitedBy },
  });
  return { workspaceId: invitation.workspaceId, role: invitation.role };
}
