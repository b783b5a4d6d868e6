import { emailProblem } from "../accounts/account-input.schema";
import { normalizeEmail } from "../accounts/account.schema";
import { MAX_GROUP_TESTERS, type JoinLinkPreview } from "./tester-groups.schema";
import { JOIN_LINK_TOKEN, joinLinkHash, type JoinLinkDeps } from "./tester-group-deps";
import { JoinLinkGoneError } from "./tester-group-errors";
import type { StoredGroup, StoredInviteLink } from "./tester-group-store";

/**
 * The join side of invite links (docs/testers.md "Invite links"), for the tester access work's
 * join flow (preview, join request, magic link confirm): no member is involved, so no access
 * check and no audit entry; the group's tester rows say `source: "joined"` and the link counts it.
 */

/** The group whose current link a token is (not yet checked for expiry and caps), or JoinLinkGoneError (410). */
async function linkedGroup(deps: JoinLinkDeps, token: string): Promise<{ group: StoredGroup; link: StoredInviteLink }> {
  if (!JOIN_LINK_TOKEN.test(token)) throw new JoinLinkGoneError();
  const ref = await deps.groups.inviteLinkOf(joinLinkHash(token));
  const group = ref ? await deps.groups.get(ref.workspaceId, ref.groupId) : undefined;
  const link = group?.inviteLink;
  if (!ref || !group || !link || link.linkId !== ref.linkId) throw new JoinLinkGoneError();
  return { group, link };
}

/** Whether a link takes people at `now`: unexpired, under its member cap and the group's. */
const isOpen = (group: StoredGroup, link: StoredInviteLink, now: Date) =>
  (link.expiresAt === null || link.expiresAt > now.toISOString()) &&
  (link.maxMembers === null || link.joinedCount < link.maxMembers) &&
  group.testerCount < MAX_GROUP_TESTERS;

/** What the join page shows before anyone enters an address; 410 `join_link_gone` for a dead link. */
export async function previewJoinLink(deps: JoinLinkDeps, token: string): Promise<JoinLinkPreview> {
  const { group, link } = await linkedGroup(deps, token);
  if (!isOpen(group, link, deps.clock.now())) throw new JoinLinkGoneError();
  const workspace = await deps.workspaces.get(group.workspaceId);
  if (!workspace || workspace.deleting) throw new JoinLinkGoneError();
  return { groupId: group.groupId, groupName: group.name, workspaceName: workspace.name, expiresAt: link.expiresAt, open: true };
}

export interface JoinedGroup {
  groupId: string;
  groupName: string;
  workspaceId: string;
  workspaceName: string;
  /** The normalized address. */
  email: string;
  /** False when the address was in the group already (nothing changed, nothing counted). */
  joined: boolean;
}

/**
 * Adds `email` to the group of a live invite link, `source: "joined"`, counted on the link
 * (`joinedCount`) and on the group, in one transaction whose conditions are the link's rules
 * (live, unexpired at `now`, under `maxMembers` and the group's 1,000): exact under concurrent
 * joins. Idempotent: an address already in the group answers `joined: false` and counts nothing
 * (a second click on the confirmation mail). A dead link: JoinLinkGoneError (410). Call it once
 * the address is confirmed (the magic link), never on a typed address alone.
 */
export async function joinGroupByLink(deps: JoinLinkDeps, input: { token: string; email: string; now?: Date }): Promise<JoinedGroup> {
  const email = normalizeEmail(input.email);
  if (emailProblem(email) !== undefined) throw new JoinLinkGoneError();
  const now = input.now ?? deps.clock.now();
  const { group, link } = await linkedGroup(deps, input.token);
  const workspace = await deps.workspaces.get(group.workspaceId);
  if (!workspace || workspace.deleting) throw new JoinLinkGoneError();
  // Expiry and caps are conditions of the join's transaction (exact under concurrent joins), which
  // also says "already" for an address in the group whatever the link's state: a second click on
  // the confirmation mail is a no-op, not an error.
  const outcome = await deps.groups.join(
    group,
    link.linkId,
    { groupId: group.groupId, workspaceId: group.workspaceId, email, addedAt: now.toISOString(), source: "joined", addedBy: null },
    now.toISOString(),
    MAX_GROUP_TESTERS,
  );
  if (outcome === "gone") throw new JoinLinkGoneError();
  return { groupId: group.groupId, groupName: group.name, workspaceId: group.workspaceId, workspaceName: workspace.name, email, joined: outcome === "joined" };
}
