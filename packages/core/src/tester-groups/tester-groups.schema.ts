/**
 * Tester groups' requests and answers (issue 20, docs/testers.md "Groups"), browser-safe: zod/mini
 * and types only, so the dashboard validates its forms with these very schemas
 * (`@hangar/core/tester-groups-schema`) and reads the answers with these types. Addresses are not
 * normalized here (that needs `node:url` for Unicode domains): the use cases do it, one address
 * at a time, and report the ones that are no address instead of refusing the whole list.
 */
import * as z from "zod/mini";
import { MAX_EMAIL_LENGTH } from "../accounts/account-input.schema";
import { WorkspaceRef } from "../workspaces/workspace.schema";
import { CONTROL_OR_INVISIBLE, LONE_SURROGATE } from "../validation/unicode";

/** `grp_` + 16 base62 (≈ 95 bits): the shape this service issues; anything else is a 404 without a read. */
export const GROUP_ID = /^grp_[0-9A-Za-z]{16}$/;
/** Groups per workspace: a QA lead's "qa", "beta", "clients", … with room to spare. */
export const MAX_GROUPS = 100;
/** Testers per group, exact under concurrency (a counter on the group item). */
export const MAX_GROUP_TESTERS = 1000;
/** Addresses per add request: one group's worth. */
export const MAX_ADD_TESTERS = 1000;
/** A group's name: `--groups qa,beta` names it on a command line, so short. */
export const MAX_GROUP_NAME = 60;

/**
 * Trimmed, NFC, 1–60 printable characters, and no comma: the CLI's `--groups qa,beta` splits on
 * commas, so a name with one could never be named there. Unique per workspace, whatever the case.
 */
export const GroupName = z
  .pipe(
    z.string().check(
      z.maxLength(MAX_GROUP_NAME * 8, `must be at most ${MAX_GROUP_NAME} characters`),
      z.refine((s) => !LONE_SURROGATE.test(s), { error: "must be well-formed Unicode", abort: true }),
    ),
    z.transform((s) => s.trim().normalize("NFC")),
  )
  .check(
    z.minLength(1, "must not be empty"),
    z.refine((s) => [...s].length <= MAX_GROUP_NAME, `must be at most ${MAX_GROUP_NAME} characters`),
    z.refine((s) => !CONTROL_OR_INVISIBLE.test(s), "must not contain control, invisible or bidirectional characters"),
    z.refine((s) => !s.includes(","), "must not contain a comma (the CLI's --groups separates names with commas)"),
  );

/** `POST /api/workspaces/{workspaceId}/groups`. */
export const CreateGroup = z.object({ name: GroupName });
export type CreateGroup = z.infer<typeof CreateGroup>;
/** `PATCH /api/groups/{groupId}`. */
export const RenameGroup = z.object({ name: GroupName });
export type RenameGroup = z.infer<typeof RenameGroup>;

/** `/api/workspaces/{workspaceId}/groups` and `…/testers` take the workspaces' own WorkspaceRef. */
export type WorkspaceGroupsRef = WorkspaceRef;

/** `/api/groups/{groupId}…`. */
export const GroupRef = z.object({ groupId: z.string().check(z.regex(GROUP_ID, "is not a group id")) });
export type GroupRef = z.infer<typeof GroupRef>;

/**
 * `DELETE /api/groups/{groupId}/testers/{email}`: the address as it appears in the group (the use
 * case normalizes it, so `Ann@Example.com` names `ann@example.com`). Bounded; any other text
 * simply names no tester.
 */
export const GroupTesterRef = z.object({
  groupId: GroupRef.shape.groupId,
  email: z.string().check(z.minLength(1), z.maxLength(MAX_EMAIL_LENGTH * 4)),
});
export type GroupTesterRef = z.infer<typeof GroupTesterRef>;

/**
 * `POST /api/groups/{groupId}/testers`: 1–1,000 addresses, as pasted (any case, spaces around).
 * Each is bounded in length so a list cannot cost more than its count; an entry that is no address
 * comes back in `invalid` rather than failing the others.
 */
export const AddTesters = z.object({
  emails: z
    .array(z.string().check(z.maxLength(MAX_EMAIL_LENGTH * 4, `each must be at most ${MAX_EMAIL_LENGTH} characters`)))
    .check(z.minLength(1, "must name at least one address"), z.maxLength(MAX_ADD_TESTERS, `must name at most ${MAX_ADD_TESTERS} addresses`)),
});
export type AddTesters = z.infer<typeof AddTesters>;

/**
 * `POST /api/groups/{groupId}/invite-link`: when the link stops working (an ISO time in the
 * future, at most a year ahead; null or absent: never) and how many people may join through it
 * (1–1,000; null or absent: up to the group's own cap).
 */
export const CreateInviteLink = z.object({
  expiresAt: z.optional(z.nullable(z.iso.datetime({ offset: true, error: "must be an ISO 8601 time like 2030-01-31T12:00:00Z" }))),
  maxMembers: z.optional(
    z.nullable(
      z.number().check(
        z.int("must be a whole number"),
        z.gte(1, "must be at least 1"),
        z.lte(MAX_GROUP_TESTERS, `must be at most ${MAX_GROUP_TESTERS}`),
      ),
    ),
  ),
});
export type CreateInviteLink = z.infer<typeof CreateInviteLink>;

/** A group's invite link as the dashboard shows it (the URL can be shown again: docs/testers.md). */
export interface InviteLinkView {
  url: string;
  createdAt: string;
  /** ISO time, or null: never expires. */
  expiresAt: string | null;
  /** null: up to the group's cap. */
  maxMembers: number | null;
  /** People who joined through this link (not counting earlier links of the group). */
  joinedCount: number;
}

/** `Group` of the contract: a group in lists and after changes. */
export interface Group {
  groupId: string;
  workspaceId: string;
  name: string;
  testerCount: number;
  createdAt: string;
  inviteLink: InviteLinkView | null;
}

/** The last build a tester installed in the workspace (written by the installs' tracking). */
export interface LastInstall {
  fileId: string;
  projectId: string;
  platform: string;
  version: string;
  build: string;
  at: string;
}

export interface GroupTester {
  email: string;
  addedAt: string;
  /** `added` by a member (the list or one address), `joined` through the invite link. */
  source: "added" | "joined";
  lastInstall: LastInstall | null;
}

/** `GET /api/groups/{groupId}`: the group with its testers, by address. */
export interface GroupDetail extends Group {
  testers: GroupTester[];
}

/** `POST /api/groups/{groupId}/testers`: what became of each address, and the group after it. */
export interface TestersAdded extends Group {
  /** Normalized addresses now in the group. */
  added: string[];
  /** Normalized addresses that were in it already (or named twice in the list). */
  already: string[];
  /** Entries that are no e-mail address, as sent. */
  invalid: string[];
}

/** `GET /api/workspaces/{workspaceId}/testers`: every tester of the workspace's groups, by address. */
export interface WorkspaceTester {
  email: string;
  groups: { groupId: string; name: string }[];
  lastInstall: LastInstall | null;
}

/** What the join page shows before anyone enters an address (the access work's preview route). */
export interface JoinLinkPreview {
  groupId: string;
  groupName: string;
  workspaceName: string;
  expiresAt: string | null;
  /** True: the link takes people now (a link that does not is a 410 `join_link_gone`, never a preview). */
  open: boolean;
}
