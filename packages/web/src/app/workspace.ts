import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { PERMISSIONS } from "@hangar/core/roles";
import { ApiError, describeError } from "../api/api-client";
import type { Action, Member, Role, Workspace } from "../api/workspaces.api";
import { workspacesQuery } from "../api/workspaces.queries";
import { paths, type WorkspacePath } from "./paths";
import { useNavigate, useSearchParam } from "./router";
import { useAccount } from "./session";

/**
 * Which workspace the signed-in pages show. The address says it (`?workspace=`), so a link to
 * a page of a team's workspace can be shared and a reload keeps it; a page whose data names its
 * workspace (a project, a build, a key) pins it instead. Without either, the last one chosen in
 * this browser (remembered per account), else the personal workspace. An id that is not one of
 * the person's workspaces (they left, were removed, or the link was someone else's) falls back
 * the same way, as the API would answer 404 for it.
 */

const rememberKey = (userId: string) => `hangar.workspace.${userId}`;

function remembered(userId: string): string | null {
  try {
    return window.localStorage.getItem(rememberKey(userId));
  } catch {
    return null;
  }
}

function remember(userId: string, workspaceId: string) {
  try {
    window.localStorage.setItem(rememberKey(userId), workspaceId);
  } catch {
    // Storage off (private mode): the address still says which workspace it is.
  }
}

export interface CurrentWorkspace {
  /** The caller's workspaces (personal first), as `useQuery` gives them. */
  workspaces: UseQueryResult<Workspace[]>;
  /** The workspace the page shows; undefined until the list has loaded. */
  workspace: Workspace | undefined;
  /** What the caller's role allows here, from the answer's `permissions` (core's policy, never restated). */
  can(action: Action): boolean;
}

export function useWorkspace(pinned?: string): CurrentWorkspace {
  const account = useAccount();
  const workspaces = useQuery(workspacesQuery());
  const requested = useSearchParam("workspace");
  const items = workspaces.data;
  const workspace = useMemo(() => {
    if (!items) return undefined;
    const find = (id: string | null | undefined) => (id ? items.find((w) => w.workspaceId === id) : undefined);
    return find(pinned) ?? find(requested) ?? find(remembered(account.userId)) ?? items.find((w) => w.personal) ?? items[0];
  }, [items, pinned, requested, account.userId]);
  const workspaceId = workspace?.workspaceId;
  useEffect(() => {
    if (workspaceId) remember(account.userId, workspaceId);
  }, [account.userId, workspaceId]);
  const permissions = workspace?.permissions;
  const can = useMemo(() => (action: Action) => permissions?.includes(action) ?? false, [permissions]);
  return { workspaces, workspace, can };
}

const ROLE_LABEL: Record<Role, string> = { owner: "Owner", admin: "Admin", developer: "Developer", viewer: "Viewer" };
export const roleLabel = (role: Role) => ROLE_LABEL[role];

export const memberName = (m: Member) => m.displayName ?? m.email ?? "A former member";
/** A member in a menu: name and address, so two people of one name are told apart. */
export const memberLabel = (m: Member) => (m.displayName && m.email ? `${m.displayName} (${m.email})` : memberName(m));

/** Each action in words; what a role may do is read from core's policy (`PERMISSIONS`), never written here. */
export const ACTION_WORDS: Record<Action, string> = {
  "workspace.read": "see projects, builds, links and usage",
  "workspace.update": "rename the workspace",
  "workspace.delete": "delete the workspace",
  "members.manage": "invite and manage members",
  "owners.manage": "manage owners",
  "projects.manage": "create and delete projects",
  "builds.manage": "upload and delete builds",
  "builds.distribute": "send builds to testers",
  "links.manage": "change share links",
  "keys.manage": "manage API keys",
  "testers.manage": "manage tester groups",
  "audit.read": "read the audit log",
  "webhooks.manage": "manage webhooks, Slack and Teams notifications",
  "devices.manage": "manage registered iOS devices",
};

/** "Can see projects, …, and manage API keys." for a role, from the policy. */
export function roleAbilities(role: Role): string {
  const words = PERMISSIONS[role].map((action) => ACTION_WORDS[action]);
  const list = words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0];
  return `Can ${list}.`;
}

/** Moves to `path` of another workspace (the switcher; after creating, joining or leaving one). */
export function useSwitchWorkspace() {
  const navigate = useNavigate();
  return (workspaceId: string, path: WorkspacePath = "/dashboard") => navigate(paths.inWorkspace(path, workspaceId));
}

/** Words for the answers the team pages expect, in terms of what to do next; anything else as the API says it. */
export function describeTeamError(error: unknown): string {
  if (!(error instanceof ApiError)) return describeError(error);
  switch (error.code) {
    case "forbidden":
      return "Your role in this workspace does not allow this. Ask an owner or admin of the workspace.";
    case "last_owner":
      return "A workspace needs at least one owner. Make another member an owner first.";
    case "already_member":
      return "That person is already a member of this workspace.";
    case "already_invited":
      return "That address has a pending invitation already: re-send or revoke it under “Pending invitations”.";
    case "limit_reached":
      return `${describeError(error)} Remove a pending invitation or a member first, or ask whoever runs this Hangar.`;
    case "personal_workspace":
      return "Your personal workspace cannot be deleted; it goes with your account.";
    default:
      return describeError(error);
  }
}

/** Runs a team request and says its refusals in `describeTeamError`'s words (for forms, which show the error's message). */
export async function inTeamWords<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(error.status, error.code, describeTeamError(error), error.requestId, error.fields, error.retryAfterSeconds);
  }
}
