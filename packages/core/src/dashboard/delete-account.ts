import * as z from "zod/mini";
import { ValidationError } from "../errors/domain-errors";
import type { WorkspaceCatalog } from "../ports";
import type { Actor } from "../workspaces/actor";
import { recordChange } from "./audit-record";
import type { Budget } from "./dashboard-deps";
import type { DeleteWorkspaceDeps } from "./delete-workspace";
import { deleteWholeWorkspace } from "./purge";

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
export type AccountWorkspaces = Pick<WorkspaceCatalog, "listForUser" | "removeMember">;

/**
 * Deletes an account after checking its password. Per workspace of the account: where it is the
 * only owner, the workspace goes with everything in it exactly as a workspace delete does: every
 * project is stopped (keys revoked) and purged, then the workspace's own items (what does not
 * finish within `budget` continues in the background, to the end). Where other owners remain, only the membership
 * goes: the workspace's projects, builds and keys (those this person created too) stay with the
 * team. Then every session ends and the user and its e-mail item go, freeing the address.
 */
export async function deleteAccount(
  deps: DeleteWorkspaceDeps & { account: AccountCloser; memberships: AccountWorkspaces },
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

  // Deleted (or handed to the background) before the account goes: if a step fails here the
  // person still has their session and can simply ask again; every purge resumes where it stopped.
  // Each is the workspace delete's own (purge.ts): its projects, then its members, invitations,
  // audit log and the workspace item, in the background too when the budget runs out.
  let status: "deleted" | "deleting" = "deleted";
  for (const { workspaceId } of soleOwned) {
    if ((await deleteWholeWorkspace(deps, workspaceId, budget)) === "deleting") status = "deleting";
  }
  for (const { workspaceId } of shared) {
    await deps.memberships.removeMember(workspaceId, userId);
    await recordChange(deps, actor, { workspaceId, action: "member.left", target: { type: "member", id: userId }, details: { reason: "account_deleted" } });
  }
  await deps.account.endSessions(userId);
  await deps.account.removeUser(userId);
  return { status };
}
