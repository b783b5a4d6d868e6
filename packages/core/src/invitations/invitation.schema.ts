// zod/mini, as everywhere in core.
import * as z from "zod/mini";
import { Email, Token } from "../accounts/account.schema";
import { ROLES, type Role } from "../workspaces/roles";
import { WorkspaceRef } from "../workspaces/workspace.schema";

/** `inv_` + 16 base62 (≈ 95 bits): the shape this service issues. */
export const INVITATION_ID = /^inv_[0-9A-Za-z]{16}$/;

const role = z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` });

/** `POST /api/workspaces/{workspaceId}/invitations`: the address is normalized like the accounts' (one address, one form). */
export const CreateInvitation = z.object({ email: Email, role });
export type CreateInvitation = z.infer<typeof CreateInvitation>;

/** `POST /api/invitations/preview` and `/accept`: the mailed token (43 base64url characters, checked before any lookup). */
export const InvitationTokenInput = z.object({ token: Token });
export type InvitationTokenInput = z.infer<typeof InvitationTokenInput>;

/** `/api/workspaces/{workspaceId}/invitations` takes the workspaces' own WorkspaceRef. */
export type WorkspaceInvitationsRef = WorkspaceRef;

/** `/api/workspaces/{workspaceId}/invitations/{invitationId}`. */
export const InvitationRef = z.object({
  workspaceId: WorkspaceRef.shape.workspaceId,
  invitationId: z.string().check(z.regex(INVITATION_ID, "is not an invitation id")),
});
export type InvitationRef = z.infer<typeof InvitationRef>;

/** An invitation as the API shows it (never its token or the token's hash). */
export interface InvitationView {
  invitationId: string;
  email: string;
  role: Role;
  /** ISO time. */
  expiresAt: string;
  createdAt: string;
  /** email is null when that account no longer exists. */
  invitedBy: { userId: string; email: string | null };
}

/** The create and resend answers: the view, and what became of the mail. */
export interface InvitationSent extends InvitationView {
  /** `failed`: the invitation stands, re-send it later; `suppressed`: the address bounced or complained before. */
  mail: "sent" | "failed" | "suppressed";
}

/** What the accept page shows before anyone signs in (`POST /api/invitations/preview`). */
export interface InvitationPreview {
  workspaceName: string;
  invitedBy: { email: string | null; displayName: string | null };
  email: string;
  role: Role;
  expiresAt: string;
}
