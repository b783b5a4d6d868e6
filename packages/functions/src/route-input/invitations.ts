import { CreateInvitation, InvitationRef, InvitationTokenInput, invitationNotFound } from "@hangar/core/invitations";
import type { RouteKeyOf } from "../routes";
import { dashboard, workspace, type RouteInput } from "./rows";

const invitation = { params: InvitationRef, notFound: invitationNotFound } as const;

/** The invitations function's routes (routes.ts). */
export const input = {
  "POST /api/workspaces/{workspaceId}/invitations": dashboard({ ...workspace, body: CreateInvitation }),
  "GET /api/workspaces/{workspaceId}/invitations": dashboard(workspace),
  "DELETE /api/workspaces/{workspaceId}/invitations/{invitationId}": dashboard(invitation),
  "POST /api/workspaces/{workspaceId}/invitations/{invitationId}/resend": dashboard(invitation),
  "POST /api/invitations/preview": dashboard({ body: InvitationTokenInput }),
  "POST /api/invitations/accept": dashboard({ body: InvitationTokenInput }),
} as const satisfies Record<RouteKeyOf<"invitations">, RouteInput>;
