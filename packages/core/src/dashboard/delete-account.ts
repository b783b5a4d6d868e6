import * as z from "zod/mini";
import { ValidationError } from "../errors/domain-errors";
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

/**
 * Deletes an account after checking its password: every project is stopped (keys revoked) and
 * purged like a project delete (what does not finish within `budget` continues in the
 * background), then every session ends and the user and its e-mail item go, freeing the address.
 */
export async function deleteAccount(
  deps: DashboardDeps & { account: AccountCloser },
  userId: string,
  { password }: DeleteAccount,
  budget: Budget,
): Promise<{ status: "deleted" | "deleting" }> {
  if (!(await deps.account.verifyPassword(userId, password))) {
    throw new ValidationError([{ field: "password", message: "is not your current password" }]);
  }
  const projects = await deps.projects.list(userId);
  for (const project of projects) await stopProject(deps, project);

  // Purged (or handed to the background) before the account goes: if a step fails here the
  // person still has their session and can simply ask again; the purge resumes where it stopped.
  let status: "deleted" | "deleting" = "deleted";
  for (const project of projects) {
    const task = { kind: "project", userId, projectId: project.projectId } as const;
    if ((await purgeProject(deps, task, budget)) === "more") {
      await deps.background.schedule(task);
      status = "deleting";
    }
  }
  await deps.account.endSessions(userId);
  await deps.account.removeUser(userId);
  return { status };
}
