import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";
import { workspaceApi, type AuditFilter, type Role } from "./workspaces.api";

/**
 * Teams' server state, as the dashboard's (dashboard.queries.ts): one `queryOptions` per resource,
 * one hook per change. A change to who is in a workspace or what they may do invalidates the
 * workspace's whole subtree (its list entry, members, invitations and audit log, which gains an
 * entry for the change), so no page passes a reload to another.
 */

/** The caller's workspaces, personal first, each with the caller's role and permissions. */
export const workspacesQuery = () => queryOptions({ queryKey: queryKeys.workspaces.list(), queryFn: async () => (await workspaceApi.list()).items });
export const membersQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.workspaces.members(workspaceId), queryFn: async () => (await workspaceApi.members(workspaceId)).items });
export const invitationsQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.workspaces.invitations(workspaceId), queryFn: async () => (await workspaceApi.invitations(workspaceId)).items });
/** Who invited whom to which workspace as what: the accept page, signed in or not. */
export const invitationPreviewQuery = (token: string) =>
  queryOptions({ queryKey: queryKeys.invitationPreview(token), queryFn: () => workspaceApi.previewInvitation(token), staleTime: Infinity, refetchOnWindowFocus: false });
/** The audit log, newest first; "Load more" follows `nextCursor`. Each filter is its own list. */
export const auditQuery = (workspaceId: string, filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: queryKeys.workspaces.audit(workspaceId, filter),
    queryFn: ({ pageParam }) => workspaceApi.audit(workspaceId, filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });

const workspacesChanged = (client: QueryClient) => client.invalidateQueries({ queryKey: queryKeys.workspaces.all });
/** Invitations and the audit log of one workspace (the list of workspaces is unchanged). */
const workspaceChanged = (client: QueryClient, workspaceId: string) => client.invalidateQueries({ queryKey: queryKeys.workspaces.detail(workspaceId) });

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (name: string) => workspaceApi.create(name), onSuccess: () => workspacesChanged(client) });
}

export function useRenameWorkspace(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (name: string) => workspaceApi.rename(workspaceId, name), onSuccess: () => workspacesChanged(client) });
}

/** A deleted workspace takes its projects with it: the project, key and file lists change too. */
export function useDeleteWorkspace(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (confirmName: string) => workspaceApi.remove(workspaceId, confirmName),
    onSuccess: () =>
      Promise.all([
        workspacesChanged(client),
        client.invalidateQueries({ queryKey: queryKeys.projects.all }),
        client.invalidateQueries({ queryKey: queryKeys.keys.all }),
        client.invalidateQueries({ queryKey: queryKeys.files.all }),
      ]),
  });
}

/** Role changes, removals, leaving and transfers change members, roles and permissions: the whole subtree. */
export function useChangeRole(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: ({ userId, role }: { userId: string; role: Role }) => workspaceApi.changeRole(workspaceId, userId, role), onSuccess: () => workspacesChanged(client) });
}

export function useRemoveMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (userId: string) => workspaceApi.removeMember(workspaceId, userId), onSuccess: () => workspacesChanged(client) });
}

export function useTransferOwnership(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (userId: string) => workspaceApi.transfer(workspaceId, userId), onSuccess: () => workspacesChanged(client) });
}

export function useInvite(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: ({ email, role }: { email: string; role: Role }) => workspaceApi.invite(workspaceId, email, role), onSuccess: () => workspaceChanged(client, workspaceId) });
}

export function useRevokeInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (invitationId: string) => workspaceApi.revokeInvitation(workspaceId, invitationId), onSuccess: () => workspaceChanged(client, workspaceId) });
}

export function useResendInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (invitationId: string) => workspaceApi.resendInvitation(workspaceId, invitationId), onSuccess: () => workspaceChanged(client, workspaceId) });
}

/** Joining a workspace adds it to the list, with its projects behind it. */
export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (token: string) => workspaceApi.acceptInvitation(token), onSuccess: () => workspacesChanged(client) });
}
