/**
 * What the teams API answers (docs/teams.md, docs/invitations.md, docs/audit-log.md): the one
 * definition of these shapes, for the use cases that build them and for the web app that reads
 * them (through `@hangar/core/workspace-answers`), as dashboard-answers.ts is for projects and keys.
 * Types only (its imports are type imports, erased from the browser build).
 */
import type { Action, Role } from "./roles";

export type { InvitationPreview, InvitationSent, InvitationView } from "../invitations/invitation.schema";
export type { AuditEntryView, AuditPageView } from "../audit/audit.schema";

/** A workspace as the caller sees it: with their role and what it allows (the dashboard's copy of the policy). */
export interface WorkspaceAnswer {
  workspaceId: string;
  name: string;
  personal: boolean;
  role: Role;
  permissions: Action[];
  memberCount: number;
  createdAt: string;
}

/** A member as `GET /api/workspaces/{workspaceId}/members` lists them. */
export interface MemberAnswer {
  userId: string;
  /** null when the account is gone (its membership is removed with it; a race may still show one). */
  email: string | null;
  displayName: string | null;
  role: Role;
  joinedAt: string;
  lastActiveAt: string | null;
  /** The caller's own membership (the dashboard offers "Leave" there, not "Remove"). */
  you: boolean;
}
