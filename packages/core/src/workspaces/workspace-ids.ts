/**
 * Workspace ids. A personal workspace's id is derived from its user's id (`usr_X` → `ws_X`), so
 * sign-up, the migration of data written before workspaces and an API key item written before
 * it (no `workspaceId` yet) all agree on it without a lookup, and running the migration twice
 * creates nothing twice. Other workspaces get random ids of the same shape (16 base62
 * characters ≈ 95 bits, so they never meet a derived one).
 */
export const WORKSPACE_ID = /^ws_[0-9A-Za-z]{16}$/;

export function personalWorkspaceId(userId: string): string {
  return `ws_${userId.slice("usr_".length)}`;
}
