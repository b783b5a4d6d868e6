import { MAX_WORKSPACE_NAME } from "./limits";

/**
 * The name sign-up gives a personal workspace: "<display name>'s workspace", or the address's
 * local part when the account has no display name yet (sign-up asks for none). It says whose it
 * is to the people the owner invites into it later, which "Personal" would not; owners rename it
 * like any workspace.
 */
export function personalWorkspaceName(user: { email: string; displayName?: string }): string {
  const who = user.displayName?.trim() || user.email.split("@")[0] || user.email;
  const suffix = "'s workspace";
  return `${[...who].slice(0, MAX_WORKSPACE_NAME - suffix.length).join("")}${suffix}`;
}
