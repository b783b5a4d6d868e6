import * as z from "zod/mini";
import { ProjectName } from "../dashboard/dashboard.schema";
import { ROLES } from "./roles";
import { WORKSPACE_ID } from "./workspace-ids";

/** A workspace's name: the rules of a project's name (trimmed, NFC, 1–80 printable characters). */
export const WorkspaceName = ProjectName;

/** User ids as accounts issue them (`usr_` + 16 base62); the bound is loose like the other refs. */
const USER_ID = /^usr_[A-Za-z0-9]{1,40}$/;
const role = z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` });

export const CreateWorkspace = z.object({ name: WorkspaceName });
export type CreateWorkspace = z.infer<typeof CreateWorkspace>;
export const RenameWorkspace = z.object({ name: WorkspaceName });
export type RenameWorkspace = z.infer<typeof RenameWorkspace>;
/** Deleting a workspace is confirmed by typing its name, as a project's delete is. */
export const DeleteWorkspace = z.object({ confirmName: z.string().check(z.maxLength(200)) });
export type DeleteWorkspace = z.infer<typeof DeleteWorkspace>;
export const ChangeRole = z.object({ role });
export type ChangeRole = z.infer<typeof ChangeRole>;
export const TransferOwnership = z.object({ userId: z.string().check(z.regex(USER_ID, "is not a user id")) });
export type TransferOwnership = z.infer<typeof TransferOwnership>;

export const WorkspaceRef = z.object({ workspaceId: z.string().check(z.regex(WORKSPACE_ID, "is not a workspace id")) });
export type WorkspaceRef = z.infer<typeof WorkspaceRef>;
export const MemberRef = z.object({
  workspaceId: z.string().check(z.regex(WORKSPACE_ID, "is not a workspace id")),
  userId: z.string().check(z.regex(USER_ID, "is not a user id")),
});
export type MemberRef = z.infer<typeof MemberRef>;
