import { apiRequest } from "./api-client";
import type {
  AddTestersAnswer,
  AppPage,
  AppPageInput,
  CreatedUpdateToken,
  DistributeAnswer,
  DistributeInput,
  DistributionsAnswer,
  FileInstall,
  Group,
  GroupDetail,
  InviteLink,
  TesterInstall,
  UpdateToken,
  WorkspaceTester,
} from "./testers.types";

/*
 * The testers API (issue 20): tester groups and their invite links, a build's distributions and
 * installs, and a project's tester settings (default groups, public app page, update tokens).
 * The answers' shapes are the contract's (testers.types.ts).
 */

export type * from "./testers.types";

const id = (value: string) => encodeURIComponent(value);
const ws = (workspaceId: string) => `/api/workspaces/${id(workspaceId)}`;
const group = (groupId: string) => `/api/groups/${id(groupId)}`;
const project = (projectId: string) => `/api/projects/${id(projectId)}`;

export const testersApi = {
  groups: (workspaceId: string) => apiRequest<{ items: Group[] }>("GET", `${ws(workspaceId)}/groups`),
  createGroup: (workspaceId: string, name: string) => apiRequest<Group>("POST", `${ws(workspaceId)}/groups`, { name }),
  group: (groupId: string) => apiRequest<GroupDetail>("GET", group(groupId)),
  renameGroup: (groupId: string, name: string) => apiRequest<Group>("PATCH", group(groupId), { name }),
  deleteGroup: (groupId: string) => apiRequest<void>("DELETE", group(groupId)),
  addTesters: (groupId: string, emails: string[]) => apiRequest<AddTestersAnswer>("POST", `${group(groupId)}/testers`, { emails }),
  removeTester: (groupId: string, email: string) => apiRequest<void>("DELETE", `${group(groupId)}/testers/${id(email)}`),
  createInviteLink: (groupId: string, input: { expiresAt: string | null; maxMembers: number | null }) =>
    apiRequest<InviteLink>("POST", `${group(groupId)}/invite-link`, input),
  revokeInviteLink: (groupId: string) => apiRequest<void>("DELETE", `${group(groupId)}/invite-link`),

  testers: (workspaceId: string) => apiRequest<{ items: WorkspaceTester[] }>("GET", `${ws(workspaceId)}/testers`),
  testerInstalls: (workspaceId: string, email: string) => apiRequest<{ items: TesterInstall[] }>("GET", `${ws(workspaceId)}/testers/${id(email)}/installs`),

  distribute: (fileId: string, input: DistributeInput) => apiRequest<DistributeAnswer>("POST", `/api/files/${id(fileId)}/distribute`, input),
  distributions: (fileId: string) => apiRequest<DistributionsAnswer>("GET", `/api/files/${id(fileId)}/distributions`),
  fileInstalls: (fileId: string) => apiRequest<{ items: FileInstall[] }>("GET", `/api/files/${id(fileId)}/installs`),

  defaultGroups: (projectId: string) => apiRequest<{ groupIds: string[] }>("GET", `${project(projectId)}/default-groups`),
  setDefaultGroups: (projectId: string, groupIds: string[]) => apiRequest<{ groupIds: string[] }>("PUT", `${project(projectId)}/default-groups`, { groupIds }),
  appPage: (projectId: string) => apiRequest<AppPage>("GET", `${project(projectId)}/app-page`),
  setAppPage: (projectId: string, input: AppPageInput) => apiRequest<AppPage>("PUT", `${project(projectId)}/app-page`, input),
  updateTokens: (projectId: string) => apiRequest<{ items: UpdateToken[] }>("GET", `${project(projectId)}/update-tokens`),
  createUpdateToken: (projectId: string, name: string) => apiRequest<CreatedUpdateToken>("POST", `${project(projectId)}/update-tokens`, { name }),
  revokeUpdateToken: (projectId: string, tokenId: string) => apiRequest<void>("DELETE", `${project(projectId)}/update-tokens/${id(tokenId)}`),
};
