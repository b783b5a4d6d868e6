import * as z from "zod/mini";
import { ValidationError } from "../errors/domain-errors";
import type { WorkspaceCatalog } from "../ports";
import type { Actor } from "../workspaces/actor";
import { recordChange } from "./audit-record";
import type { Budget, DashboardDeps } from "./dashboard-deps";
import { purgeProject, stopProject } from "./purge";

export const DeleteAccount = z.object({ password: z.string().check(z.maxLength(1024, "is too long")) });
export type DeleteAccount = z.infer<typeof DeleteAccount>;

/** What account deletion needs from the accounts side (users, sessions, passwords). */
export interface AccountCloser {
  /** True when `password` is the account's current password. */
  verifyPassword(userId: string, password: string): Promise<boolean>;
  /** Ends every session of the account. */
  endSessions(userId: string): Promise<void>;
  /** Removes the user and its e-mail item, so the address can sign up again. */
  removeUser(userId: string): Promise<void>;
}

/** What account deletion needs from the workspaces side (the workspace catalog). */
export type AccountWorkspaces = Pick<WorkspaceCatalog, "listForUser" | "removeMember" | "remove">;

/**
 * Deletes an account after checking its password. Per workspace of the account: where it is the
 * only owner, the workspace goes with everything in it: every project is stopped (keys revoked)
 * and purged like a project delete (what does not finish within `budget` continues in the
 * background), then the workspace's own items. Where other owners remain, only the membership
 * goes: the workspace's projects, builds and keys (those this person created too) stay with the
 * team. Then every session ends and the user and its e-mail item go, freeing the address.
 */
export async function deleteAccount(
  deps: DashboardDeps & { account: AccountCloser; memberships: AccountWorkspaces },
  actor: Actor,
  { password }: DeleteAccount,
  budget: Budget,
): Promise<{ status: "deleted" | "deleting" }> {
  const { userId } = actor;
  if (!(await deps.account.verifyPassword(userId, password))) {
    throw new ValidationError([{ field: "password", message: "is not your current password" }]);
  }
  const memberships = await deps.memberships.listForUser(userId);
  const soleOwned = memberships.filter(({ workspace, membership }) => membership.role === "owner" && workspace.ownerCount <= 1).map((m) => m.workspace);
  const shared = memberships.filter(({ workspace }) => !soleOwned.includes(workspace)).map((m) => m.workspace);

  const projects = (await Promise.all(soleOwned.map((m) => deps.projects.list(m.workspaceId)))).flat();
  for (const project of projects) await stopProject(deps, project);

  // Purged (or handed to the background) before the account goes: if a step fails here the
  // person still has their session and can simply ask again; the purge resumes where it stopped.
  let status: "deleted" | "deleting" = "deleted";
  const unfinished = new Set<string>();
  for (const project of projects) {
    const task = { kind: "project", workspaceId: project.workspaceId, projectId: project.projectId } as const;
    if ((await purgeProject(deps, task, budget)) === "more") {
      await deps.background.schedule(task);
      unfinished.add(project.workspaceId);
      status = "deleting";
    }
  }
  // An emptied workspace goes with its members and invitations. One whose purge continues in the
  // background keeps its (now ownerless) workspace and member items: the catalog removes only an
  // empty workspace, and nobody can reach it any more (its only owner's account is gone).
  for (const { workspaceId } of soleOwned) if (!unfinished.has(workspaceId)) await deps.memberships.remove(workspaceId);
  for (const { workspaceId } of shared) {
    await deps.memberships.removeMember(workspaceId, userId);
    await recordChange(deps, actor, { workspaceId, action: "member.left", target: { type: "member", id: userId }, details: { reason: "account_deleted" } });
  }
  await deps.account.endSessions(userId);
  await deps.account.removeUser(userId);
  return { status };
}
