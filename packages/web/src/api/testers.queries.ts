import { queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";
import { testersApi, type AppPageInput, type DistributeInput } from "./testers.api";

/**
 * Testers' server state, in the dashboard's shape (dashboard.queries.ts): one `queryOptions` per
 * resource, one hook per change. Every change to a group or its testers invalidates the whole
 * testers subtree: a group's count, a tester's groups and a build's recipients all show it.
 */

export const groupsQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.testers.groups(workspaceId), queryFn: async () => (await testersApi.groups(workspaceId)).items });
export const groupQuery = (groupId: string) => queryOptions({ queryKey: queryKeys.testers.group(groupId), queryFn: () => testersApi.group(groupId) });
export const workspaceTestersQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.testers.people(workspaceId), queryFn: async () => (await testersApi.testers(workspaceId)).items });
export const testerInstallsQuery = (workspaceId: string, email: string) =>
  queryOptions({ queryKey: queryKeys.testers.installs(workspaceId, email), queryFn: async () => (await testersApi.testerInstalls(workspaceId, email)).items });
/** While a mail is still waiting for the sender (queued, sending), the list asks again every few seconds: the page shows it leave. */
export const distributionsQuery = (fileId: string) =>
  queryOptions({
    queryKey: queryKeys.testers.distributions(fileId),
    queryFn: () => testersApi.distributions(fileId),
    refetchInterval: (query) => (query.state.data?.recipients.some((r) => r.status === "queued" || r.status === "sending") ? 2_000 : false),
  });
export const fileInstallsQuery = (fileId: string) =>
  queryOptions({ queryKey: queryKeys.testers.fileInstalls(fileId), queryFn: async () => (await testersApi.fileInstalls(fileId)).items });

export const defaultGroupsQuery = (projectId: string) =>
  queryOptions({ queryKey: queryKeys.projects.defaultGroups(projectId), queryFn: async () => (await testersApi.defaultGroups(projectId)).groupIds });
export const appPageQuery = (projectId: string) => queryOptions({ queryKey: queryKeys.projects.appPage(projectId), queryFn: () => testersApi.appPage(projectId) });
export const updateTokensQuery = (projectId: string) =>
  queryOptions({ queryKey: queryKeys.projects.updateTokens(projectId), queryFn: async () => (await testersApi.updateTokens(projectId)).items });

const testersChanged = (client: QueryClient) => client.invalidateQueries({ queryKey: queryKeys.testers.all });

export function useCreateGroup(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (name: string) => testersApi.createGroup(workspaceId, name), onSuccess: () => testersChanged(client) });
}

export function useRenameGroup(groupId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (name: string) => testersApi.renameGroup(groupId, name), onSuccess: () => testersChanged(client) });
}

/** A deleted group leaves the projects' default groups too (the server drops it; their settings are refetched). */
export function useDeleteGroup(groupId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => testersApi.deleteGroup(groupId),
    onSuccess: () => {
      // The page of the deleted group must not refetch it (404) while it navigates away.
      client.removeQueries({ queryKey: queryKeys.testers.group(groupId) });
      return Promise.all([testersChanged(client), client.invalidateQueries({ queryKey: queryKeys.projects.all })]);
    },
  });
}

export function useAddTesters(groupId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (emails: string[]) => testersApi.addTesters(groupId, emails), onSuccess: () => testersChanged(client) });
}

export function useRemoveTester(groupId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (email: string) => testersApi.removeTester(groupId, email), onSuccess: () => testersChanged(client) });
}

export function useCreateInviteLink(groupId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { expiresAt: string | null; maxMembers: number | null }) => testersApi.createInviteLink(groupId, input),
    onSuccess: () => testersChanged(client),
  });
}

export function useRevokeInviteLink(groupId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: () => testersApi.revokeInviteLink(groupId), onSuccess: () => testersChanged(client) });
}

export function useDistribute(fileId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DistributeInput) => testersApi.distribute(fileId, input),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.testers.distributions(fileId) }),
  });
}

export function useSetDefaultGroups(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (groupIds: string[]) => testersApi.setDefaultGroups(projectId, groupIds),
    onSuccess: ({ groupIds }) => client.setQueryData(queryKeys.projects.defaultGroups(projectId), groupIds),
  });
}

export function useSetAppPage(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AppPageInput) => testersApi.setAppPage(projectId, input),
    onSuccess: (page) => client.setQueryData(queryKeys.projects.appPage(projectId), page),
  });
}

export function useCreateUpdateToken(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => testersApi.createUpdateToken(projectId, name),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.projects.updateTokens(projectId) }),
  });
}

export function useRevokeUpdateToken(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tokenId: string) => testersApi.revokeUpdateToken(projectId, tokenId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.projects.updateTokens(projectId) }),
  });
}
