import { hashSecret } from "../ids/random-ids";
import type { Invitation, UserAccount } from "../ports";
import { sendMail, type MailOutcome } from "../accounts/send-mail";
import type { Workspace } from "../ports/workspace-catalog.port";
import type { InvitationDeps, InvitationLinks } from "./invitation-deps";
import { TooManyInvitationsError } from "./invitation-errors";
import type { InvitationView } from "./invitation.schema";
import { acceptLink, invitationMail } from "./mail/invitation-mail";

export const nowSeconds = (deps: Pick<InvitationDeps, "clock">) => Math.floor(deps.clock.now().getTime() / 1000);
export const isoOfSeconds = (seconds: number) => new Date(seconds * 1000).toISOString();

export function invitationView(invitation: Invitation, inviterEmail: string | null): InvitationView {
  return {
    invitationId: invitation.invitationId,
    email: invitation.email,
    role: invitation.role,
    expiresAt: isoOfSeconds(invitation.expiresAt),
    createdAt: invitation.createdAt,
    invitedBy: { userId: invitation.invitedBy, email: inviterEmail },
  };
}

/** A new token for an invitation: the mail carries it, the table only its SHA-256. */
export function newToken(deps: Pick<InvitationDeps, "ids" | "clock" | "settings">): { token: string; tokenHash: string; expiresAt: number } {
  const token = deps.ids.secret();
  return { token, tokenHash: hashSecret(token), expiresAt: nowSeconds(deps) + deps.settings.ttlSeconds };
}

/**
 * Counts one invitation mail against the workspace's and the inviter's rules (the one limiter's
 * conditional ADD, exact under concurrency); the first refusal is a 429 with Retry-After, and a
 * refused request stores and sends nothing.
 */
export async function enforceInvitationLimits(deps: Pick<InvitationDeps, "limiters" | "clock">, workspaceId: string, inviterId: string): Promise<void> {
  const now = deps.clock.now();
  const [workspace, inviter] = await Promise.all([deps.limiters.perWorkspace.hit(workspaceId, now), deps.limiters.perInviter.hit(inviterId, now)]);
  const refused = !workspace.allowed ? { decision: workspace, scope: "workspace" as const } : !inviter.allowed ? { decision: inviter, scope: "inviter" as const } : undefined;
  if (!refused) return;
  // The rule that did admit this request gives its hit back: nothing was sent.
  await Promise.all([
    workspace.allowed ? deps.limiters.perWorkspace.refund(workspaceId, now) : undefined,
    inviter.allowed ? deps.limiters.perInviter.refund(inviterId, now) : undefined,
  ]);
  const retryAfter = Math.max(1, refused.decision.state.resetAt - Math.floor(now.getTime() / 1000));
  throw new TooManyInvitationsError(refused.decision.state, retryAfter, refused.scope);
}

export function sendInvitationMail(
  deps: InvitationDeps,
  invitation: Invitation,
  token: string,
  workspace: Workspace,
  inviter: UserAccount,
  links: InvitationLinks,
): Promise<MailOutcome> {
  return sendMail(
    deps,
    invitationMail({
      to: invitation.email,
      workspaceName: workspace.name,
      inviter: { email: inviter.email, ...(inviter.displayName ? { displayName: inviter.displayName } : {}) },
      role: invitation.role,
      link: acceptLink(links.publicBaseUrl, token),
      expiresAt: new Date(invitation.expiresAt * 1000),
    }),
  );
}
