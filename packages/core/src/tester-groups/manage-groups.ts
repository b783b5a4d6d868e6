import { emailProblem } from "../accounts/account-input.schema";
import { normalizeEmail } from "../accounts/account.schema";
import { auditActor } from "../audit/audit-actor";
import { DependencyError, NotFoundError, ValidationError } from "../errors/domain-errors";
import type { Membership } from "../ports";
import { workspaceAccess } from "../workspaces/access";
import type { Actor } from "../workspaces/actor";
import type { Action } from "../workspaces/roles";
import { ROUTE_ACTIONS } from "../workspaces/route-actions";
import { joinLinkHash, joinLinkToken, joinLinkUrl, type GroupLinks, type TesterGroupDeps } from "./tester-group-deps";
import { GroupNotFoundError, TesterNotFoundError } from "./tester-group-errors";
import type { StoredGroup, StoredInviteLink, StoredTester } from "./tester-group-store";
import {
  GROUP_ID,
  MAX_GROUP_TESTERS,
  MAX_GROUPS,
  type AddTesters,
  type CreateGroup,
  type CreateInviteLink,
  type Group,
  type GroupDetail,
  type GroupRef,
  type GroupTesterRef,
  type InviteLinkView,
  type RenameGroup,
  type TestersAdded,
  type WorkspaceGroupsRef,
  type WorkspaceTester,
} from "./tester-groups.schema";

/**
 * Tester groups of a workspace (issue 20, docs/testers.md "Groups"): who gets a build by mail.
 * A tester is a normalized e-mail address, not an account. Viewers and everyone above see groups
 * (`workspace.read`); owners and admins manage them (`testers.manage`), as route-actions.ts says
 * for each route. Every use case starts at the access check, changes storage through the store
 * (which holds the caps and the name's uniqueness under concurrency) and records the change.
 */

/** An invite link may stop working at most a year ahead (a link without an end: `expiresAt` null). */
export const MAX_INVITE_LINK_DAYS = 365;

/**
 * A group the caller may act on: found by its id (gsi1), then read strongly consistent beside the
 * caller's membership of its workspace. A caller who is not a member gets 404 `group_not_found`
 * exactly as for an id that does not exist, so ids leak nothing across workspaces; a member whose
 * role does not allow `action`, 403 `forbidden` naming it.
 */
async function groupAccess(
  deps: TesterGroupDeps,
  actor: Actor,
  groupId: string,
  action: Action,
  options: { evenDeleting?: boolean } = {},
): Promise<{ group: StoredGroup; membership: Membership }> {
  const workspaceId = GROUP_ID.test(groupId) ? await deps.groups.workspaceOf(groupId) : undefined;
  if (!workspaceId) throw new GroupNotFoundError();
  const [group, membership] = await Promise.all([
    deps.groups.get(workspaceId, groupId, options),
    workspaceAccess(deps, actor.userId, workspaceId, action).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new GroupNotFoundError() : error;
    }),
  ]);
  if (!group) throw new GroupNotFoundError();
  return { group, membership };
}

/** The group as the API shows it; its live link's URL made again from the secret. */
async function groupView(deps: TesterGroupDeps, group: StoredGroup, links: GroupLinks): Promise<Group> {
  return {
    groupId: group.groupId,
    workspaceId: group.workspaceId,
    name: group.name,
    testerCount: group.testerCount,
    createdAt: group.createdAt,
    inviteLink: group.inviteLink ? await inviteLinkView(deps, group.groupId, group.inviteLink, links) : null,
  };
}

async function inviteLinkView(deps: TesterGroupDeps, groupId: string, link: StoredInviteLink, links: GroupLinks): Promise<InviteLinkView> {
  const token = joinLinkToken(await deps.joinLinkSecret.bytes(), groupId, link.linkId);
  return {
    url: joinLinkUrl(links.publicBaseUrl, token),
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
    maxMembers: link.maxMembers,
    joinedCount: link.joinedCount,
  };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.name.localeCompare(b.name);

/** The workspace's groups by name; `workspace.read`. */
export async function listGroups(deps: TesterGroupDeps, actor: Actor, input: WorkspaceGroupsRef, links: GroupLinks): Promise<Group[]> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, ROUTE_ACTIONS["GET /api/workspaces/{workspaceId}/groups"]);
  const groups = (await deps.groups.list(input.workspaceId)).sort(byName);
  return Promise.all(groups.map((g) => groupView(deps, g, links)));
}

/**
 * Creates a group: 409 `group_name_taken` when another group of the workspace has the name in any
 * case (`--groups QA` and `--groups qa` must name one group), 409 `limit_reached` at 100 groups.
 * Both are conditions of one transaction (the group, its name item, the workspace's `groupCount`).
 */
export async function createGroup(deps: TesterGroupDeps, actor: Actor, input: WorkspaceGroupsRef & CreateGroup, links: GroupLinks): Promise<Group> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, ROUTE_ACTIONS["POST /api/workspaces/{workspaceId}/groups"]);
  const group: StoredGroup = {
    groupId: deps.ids.groupId(),
    workspaceId: input.workspaceId,
    name: input.name,
    testerCount: 0,
    createdAt: deps.clock.now().toISOString(),
    createdBy: actor.userId,
  };
  await deps.groups.create(group, MAX_GROUPS);
  await deps.audit.record({
    workspaceId: group.workspaceId,
    actor: auditActor(actor),
    action: "group.create",
    target: { type: "group", id: group.groupId, label: group.name },
  });
  return groupView(deps, group, links);
}

/** A group with its testers (by address) and the last build each installed in the workspace; `workspace.read`. */
export async function getGroup(deps: TesterGroupDeps, actor: Actor, input: GroupRef, links: GroupLinks): Promise<GroupDetail> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["GET /api/groups/{groupId}"]);
  const testers = await deps.groups.testers(group.groupId);
  const installs = await deps.groups.lastInstalls(group.workspaceId, testers.map((t) => t.email));
  return {
    ...(await groupView(deps, group, links)),
    // The count as listed: the counter and the list agree but for a change between the two reads.
    testerCount: testers.length,
    testers: testers
      .sort((a, b) => a.email.localeCompare(b.email))
      .map((t) => ({ email: t.email, addedAt: t.addedAt, source: t.source, lastInstall: installs.get(t.email) ?? null })),
  };
}

/** Renames a group (409 `group_name_taken` as at create; a change of case only is a rename too). */
export async function renameGroup(deps: TesterGroupDeps, actor: Actor, input: GroupRef & RenameGroup, links: GroupLinks): Promise<Group> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["PATCH /api/groups/{groupId}"]);
  if (group.name === input.name) return groupView(deps, group, links);
  let current = group;
  let renamed = await deps.groups.rename(current, input.name);
  for (let attempt = 0; !renamed; attempt++) {
    // Deleted or renamed by someone else between the read and the write: the last word wins.
    const reread = await deps.groups.get(group.workspaceId, group.groupId);
    if (!reread) throw new GroupNotFoundError();
    if (attempt >= 4) throw new DependencyError("dynamodb", "rename group: the group kept changing; retry");
    current = reread;
    renamed = current.name === input.name ? current : await deps.groups.rename(current, input.name);
  }
  await deps.audit.record({
    workspaceId: group.workspaceId,
    actor: auditActor(actor),
    action: "group.update",
    target: { type: "group", id: group.groupId, label: renamed.name },
    details: { from: current.name, to: renamed.name },
  });
  return groupView(deps, renamed, links);
}

/**
 * Deletes a group with its testers and its invite link (the link answers `join_link_gone` from
 * then on). Builds already sent to its testers stay theirs. A delete that failed half-way leaves
 * the group hidden and is finished by the next DELETE of the same id.
 */
export async function deleteGroup(deps: TesterGroupDeps, actor: Actor, input: GroupRef): Promise<void> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["DELETE /api/groups/{groupId}"], { evenDeleting: true });
  await deps.groups.delete(group);
  await deps.audit.record({
    workspaceId: group.workspaceId,
    actor: auditActor(actor),
    action: "group.delete",
    target: { type: "group", id: group.groupId, label: group.name },
    details: { testers: group.testerCount },
  });
}

/**
 * Adds 1–1,000 addresses as pasted (any case, spaces around: normalized like the accounts'). Each
 * comes back in `added`, `already` (in the group before) or `invalid` (no e-mail address: as sent);
 * an address named twice counts once. The group holds at most 1,000 testers: a list whose new
 * addresses do not fit is refused whole with 409 `limit_reached` (details: `free`), exact under
 * concurrent adds (the group's counter is a condition of every write).
 */
export async function addTesters(deps: TesterGroupDeps, actor: Actor, input: GroupRef & AddTesters, links: GroupLinks): Promise<TestersAdded> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["POST /api/groups/{groupId}/testers"]);
  const invalid: string[] = [];
  const valid = new Set<string>();
  for (const raw of input.emails) {
    const email = normalizeEmail(raw);
    if (emailProblem(email) === undefined) valid.add(email);
    else invalid.push(raw);
  }
  const now = deps.clock.now().toISOString();
  const testers: StoredTester[] = [...valid].map((email) => ({
    groupId: group.groupId,
    workspaceId: group.workspaceId,
    email,
    addedAt: now,
    source: "added",
    addedBy: actor.userId,
  }));
  const { added, already } = testers.length > 0 ? await deps.groups.addTesters(group, testers, MAX_GROUP_TESTERS) : { added: [], already: [] };
  if (added.length > 0) {
    await deps.audit.record({
      workspaceId: group.workspaceId,
      actor: auditActor(actor),
      action: "group.testers_add",
      target: { type: "group", id: group.groupId, label: group.name },
      // Counts only: up to a thousand addresses do not belong in one log entry.
      details: { added: added.length, already: already.length, invalid: invalid.length },
    });
    await publishAdded(deps, group, added, now);
  }
  const after = (await deps.groups.get(group.workspaceId, group.groupId)) ?? { ...group, testerCount: group.testerCount + added.length };
  return { ...(await groupView(deps, after, links)), added, already, invalid };
}

/** Events published at once while a bulk add announces its new testers. */
const EVENT_SENDS_AT_ONCE = 25;

/**
 * `tester.joined` with `via: "added"`, one per address new in the group (those already there
 * changed nothing). One event per tester, as a join through the link is, so a receiver handles
 * both alike; sent a few at a time, so a thousand addresses do not open a thousand sends at once.
 */
async function publishAdded(deps: Pick<TesterGroupDeps, "events">, group: { groupId: string; workspaceId: string; name: string }, added: readonly string[], at: string) {
  const events = deps.events;
  if (!events) return;
  for (let i = 0; i < added.length; i += EVENT_SENDS_AT_ONCE) {
    await Promise.all(
      added.slice(i, i + EVENT_SENDS_AT_ONCE).map((email) =>
        events.publish({
          type: "tester.joined",
          occurredAt: at,
          workspaceId: group.workspaceId,
          projectId: null,
          branch: null,
          data: { workspaceId: group.workspaceId, tester: { email }, group: { groupId: group.groupId, name: group.name }, via: "added" },
        }),
      ),
    );
  }
}

/** Removes one tester (the address in any case); 404 `tester_not_found` when not in the group. */
export async function removeTester(deps: TesterGroupDeps, actor: Actor, input: GroupTesterRef): Promise<void> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["DELETE /api/groups/{groupId}/testers/{email}"]);
  const email = normalizeEmail(input.email);
  if (emailProblem(email) !== undefined || !(await deps.groups.removeTester(group, email))) throw new TesterNotFoundError();
  await deps.audit.record({
    workspaceId: group.workspaceId,
    actor: auditActor(actor),
    action: "group.tester_remove",
    target: { type: "group", id: group.groupId, label: group.name },
    details: { email },
  });
}

/**
 * Makes a new invite link for the group, replacing any live one (whose URL stops working at once):
 * `{public}/join/<token>`, optionally ending at `expiresAt` (in the future, at most a year ahead)
 * and taking at most `maxMembers` people. Answers the link, which the group's answers show again.
 */
export async function createInviteLink(
  deps: TesterGroupDeps,
  actor: Actor,
  input: GroupRef & CreateInviteLink,
  links: GroupLinks,
): Promise<InviteLinkView> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["POST /api/groups/{groupId}/invite-link"]);
  const now = deps.clock.now();
  let expiresAt: string | null = null;
  if (input.expiresAt) {
    const end = new Date(input.expiresAt);
    if (end.getTime() <= now.getTime()) throw validation("expiresAt", "must be in the future");
    if (end.getTime() > now.getTime() + MAX_INVITE_LINK_DAYS * 86_400_000) throw validation("expiresAt", `must be at most ${MAX_INVITE_LINK_DAYS} days ahead`);
    expiresAt = end.toISOString();
  }
  const linkId = deps.ids.linkId();
  const link: StoredInviteLink = {
    linkId,
    tokenHash: joinLinkHash(joinLinkToken(await deps.joinLinkSecret.bytes(), group.groupId, linkId)),
    createdAt: now.toISOString(),
    expiresAt,
    maxMembers: input.maxMembers ?? null,
    joinedCount: 0,
  };
  let current = group;
  for (let attempt = 0; ; attempt++) {
    if (await deps.groups.setInviteLink(current, link)) break;
    // Another link was made or revoked meanwhile: replace whatever is live now (a few rounds at most).
    const reread = await deps.groups.get(group.workspaceId, group.groupId);
    if (!reread) throw new GroupNotFoundError();
    if (attempt >= 4) throw new DependencyError("dynamodb", "invite link: the group's link kept changing; retry");
    current = reread;
  }
  await deps.audit.record({
    workspaceId: group.workspaceId,
    actor: auditActor(actor),
    action: "group.invite_link_create",
    target: { type: "group", id: group.groupId, label: group.name },
    details: { expiresAt, maxMembers: link.maxMembers, replaced: current.inviteLink !== undefined },
  });
  return inviteLinkView(deps, group.groupId, link, links);
}

/** Revokes the group's invite link (404 `group_not_found` is for the group; no live link is a 204 too: the link is dead either way). */
export async function revokeInviteLink(deps: TesterGroupDeps, actor: Actor, input: GroupRef): Promise<void> {
  const { group } = await groupAccess(deps, actor, input.groupId, ROUTE_ACTIONS["DELETE /api/groups/{groupId}/invite-link"]);
  if (!group.inviteLink || !(await deps.groups.removeInviteLink(group))) return;
  await deps.audit.record({
    workspaceId: group.workspaceId,
    actor: auditActor(actor),
    action: "group.invite_link_revoke",
    target: { type: "group", id: group.groupId, label: group.name },
    details: { joined: group.inviteLink.joinedCount },
  });
}

/**
 * Everyone in the workspace's groups, by address, with their groups and the last build they
 * installed there; `workspace.read`. At most 100 groups of 1,000: the groups are read ten at a time.
 */
export async function listWorkspaceTesters(deps: TesterGroupDeps, actor: Actor, input: WorkspaceGroupsRef): Promise<WorkspaceTester[]> {
  await workspaceAccess(deps, actor.userId, input.workspaceId, ROUTE_ACTIONS["GET /api/workspaces/{workspaceId}/testers"]);
  const groups = (await deps.groups.list(input.workspaceId)).sort(byName);
  const byEmail = new Map<string, { groupId: string; name: string }[]>();
  for (let i = 0; i < groups.length; i += 10) {
    const chunk = groups.slice(i, i + 10);
    const testers = await Promise.all(chunk.map((g) => deps.groups.testers(g.groupId)));
    chunk.forEach((g, index) => {
      for (const t of testers[index]!) {
        const list = byEmail.get(t.email) ?? [];
        list.push({ groupId: g.groupId, name: g.name });
        byEmail.set(t.email, list);
      }
    });
  }
  const installs = await deps.groups.lastInstalls(input.workspaceId, [...byEmail.keys()]);
  return [...byEmail.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([email, memberOf]) => ({ email, groups: memberOf, lastInstall: installs.get(email) ?? null }));
}

const validation = (field: string, message: string) => new ValidationError([{ field, message }]);
