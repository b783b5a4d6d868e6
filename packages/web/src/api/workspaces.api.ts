import type {
  AuditEntryView,
  InvitationPreview,
  InvitationSent,
  InvitationView,
  MemberAnswer,
  WorkspaceAnswer,
} from "@hangar/core/workspace-answers";
import type { Role } from "@hangar/core/roles";
import { apiRequest } from "./api-client";

/*
 * The teams API (issue 19): workspaces, their members, invitations and audit log. The answers'
 * shapes are core's (`@hangar/core/workspace-answers`, the types the use cases build);
 * `permissions` is core's policy applied to the caller's role (`permissionsOf`), so the dashboard
 * asks the answer what it may offer and never restates the policy.
 */

export type { Action, Role } from "@hangar/core/roles";

export type Workspace = WorkspaceAnswer;
export type Member = MemberAnswer;
/** An invitation as listed; create and re-send add what became of the mail. */
export type Invitation = InvitationView & { mail?: InvitationSent["mail"] };
export type { InvitationPreview };
export type AuditEntry = AuditEntryView;

export interface AuditFilter {
  actor?: string;
  action?: string;
}

const id = (value: string) => encodeURIComponent(value);
const ws = (workspaceId: string) => `/api/workspaces/${id(workspaceId)}`;

export const workspaceApi = {
  list: () => apiRequest<{ items: Workspace[] }>("GET", "/api/workspaces"),
  create: (name: string) => apiRequest<Workspace>("POST", "/api/workspaces", { name }),
  get: (workspaceId: string) => apiRequest<Workspace>("GET", ws(workspaceId)),
  rename: (workspaceId: string, name: string) => apiRequest<Workspace>("PATCH", ws(workspaceId), { name }),
  remove: async (workspaceId: string, confirmName: string) => {
    const answer = await apiRequest<{ status?: string } | undefined>("DELETE", ws(workspaceId), { confirmName });
    return { status: answer?.status === "deleting" ? ("deleting" as const) : ("deleted" as const) };
  },

  members: (workspaceId: string) => apiRequest<{ items: Member[] }>("GET", `${ws(workspaceId)}/members`),
  changeRole: (workspaceId: string, userId: string, role: Role) => apiRequest<Member>("PATCH", `${ws(workspaceId)}/members/${id(userId)}`, { role }),
  /** Removes a member; the caller's own id leaves the workspace. */
  removeMember: (workspaceId: string, userId: string) => apiRequest<void>("DELETE", `${ws(workspaceId)}/members/${id(userId)}`),
  transfer: (workspaceId: string, userId: string) => apiRequest<Workspace>("POST", `${ws(workspaceId)}/transfer`, { userId }),

  invitations: (workspaceId: string) => apiRequest<{ items: Invitation[] }>("GET", `${ws(workspaceId)}/invitations`),
  invite: (workspaceId: string, email: string, role: Role) => apiRequest<Invitation>("POST", `${ws(workspaceId)}/invitations`, { email, role }),
  revokeInvitation: (workspaceId: string, invitationId: string) => apiRequest<void>("DELETE", `${ws(workspaceId)}/invitations/${id(invitationId)}`),
  resendInvitation: (workspaceId: string, invitationId: string) =>
    apiRequest<Invitation>("POST", `${ws(workspaceId)}/invitations/${id(invitationId)}/resend`),
  // The preview needs no session (the person may not have an account yet); a 401 here ends nothing.
  previewInvitation: (token: string) => apiRequest<InvitationPreview>("POST", "/api/invitations/preview", { token }, { expectSignedOut: true }),
  acceptInvitation: (token: string) => apiRequest<{ workspaceId: string; role: Role }>("POST", "/api/invitations/accept", { token }),

  audit: (workspaceId: string, filter: AuditFilter, cursor: string | null) => {
    const query = new URLSearchParams();
    if (cursor) query.set("cursor", cursor);
    if (filter.actor) query.set("actor", filter.actor);
    if (filter.action) query.set("action", filter.action);
    const qs = query.toString();
    return apiRequest<{ items: AuditEntry[]; nextCursor: string | null }>("GET", `${ws(workspaceId)}/audit${qs ? `?${qs}` : ""}`);
  },
};
