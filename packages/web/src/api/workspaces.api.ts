import type { Action, Role } from "@hangar/core/roles";
import { apiRequest } from "./api-client";

/*
 * The teams API (issue 19): workspaces, their members, invitations and audit log. The answers'
 * shapes are the contract's (docs/teams.md); `permissions` is core's policy applied to the
 * caller's role (`permissionsOf`), so the dashboard asks the answer what it may offer and never
 * restates the policy.
 */

export type { Action, Role } from "@hangar/core/roles";

export interface Workspace {
  workspaceId: string;
  name: string;
  personal: boolean;
  /** The caller's role here, and what that role allows. */
  role: Role;
  permissions: Action[];
  memberCount: number;
  createdAt: string;
}

export interface Member {
  userId: string;
  /** null when the account is gone (a race with its deletion). */
  email: string | null;
  displayName: string | null;
  role: Role;
  joinedAt: string;
  lastActiveAt: string | null;
  /** The caller's own membership. */
  you: boolean;
}

export interface Invitation {
  invitationId: string;
  email: string;
  role: Role;
  expiresAt: string;
  createdAt: string;
  invitedBy: { userId: string; email: string | null };
  /** Create and re-send only: whether the mail left (`failed`: the invitation stands, re-send it; `suppressed`: the address bounced before). */
  mail?: "sent" | "failed" | "suppressed";
}

/** What the accept page shows before anyone signs in (`POST /api/invitations/preview`). */
export interface InvitationPreview {
  workspaceName: string;
  invitedBy: { email: string | null; displayName: string | null };
  email: string;
  role: Role;
  expiresAt: string;
}

export interface AuditEntry {
  entryId: string;
  at: string;
  action: string;
  actor: { userId: string; email?: string | null; ip?: string | null; userAgentFamily?: string | null };
  target?: { type: string; id: string; label?: string | null } | null;
  details?: Record<string, string | number | boolean | null> | null;
}

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
