import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { dashboardApi, type FileDetail, type Project, type ProjectInput, type ShareLinkView, type ShareSettingsInput } from "./dashboard.api";
import { queryKeys } from "./query-keys";

/**
 * The dashboard's server state: one `queryOptions` per resource (pages share the cache, so the
 * projects the dashboard, the projects page and Developer Settings show are one request), and
 * one hook per change, which updates or invalidates every key whose answer it changes.
 */

/** A workspace's projects (each page passes the current workspace, `useWorkspace`). */
export const projectsQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.projects.list(workspaceId), queryFn: () => dashboardApi.projects(workspaceId) });
export const projectQuery = (projectId: string) =>
  queryOptions({ queryKey: queryKeys.projects.detail(projectId), queryFn: () => dashboardApi.project(projectId) });
/** A project's files, 25 a page, newest first; "Load more" follows `nextCursor`. */
export const projectFilesQuery = (projectId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.projects.files(projectId),
    queryFn: ({ pageParam }) => dashboardApi.projectFiles(projectId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
export const latestFilesQuery = (workspaceId: string) =>
  queryOptions({ queryKey: queryKeys.files.latest(workspaceId), queryFn: () => dashboardApi.latestFiles(workspaceId) });
export const fileQuery = (fileId: string) => queryOptions({ queryKey: queryKeys.files.detail(fileId), queryFn: () => dashboardApi.file(fileId) });
export const keysQuery = (workspaceId: string) => queryOptions({ queryKey: queryKeys.keys.list(workspaceId), queryFn: () => dashboardApi.keys(workspaceId) });
export const keyUsageQuery = (clientId: string) => queryOptions({ queryKey: queryKeys.keys.usage(clientId), queryFn: () => dashboardApi.keyUsage(clientId) });

/** What lists show of a project (its name, color, counts) appears in key and file lists too. */
function projectsChanged(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: queryKeys.projects.lists() }),
    client.invalidateQueries({ queryKey: queryKeys.keys.all }),
    client.invalidateQueries({ queryKey: queryKeys.files.all }),
  ]);
}

/** Creates a project in `workspaceId`, or saves one when `projectId` is given. */
export function useSaveProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: { projectId: string; input: ProjectInput } | { workspaceId: string; input: ProjectInput }) =>
      "projectId" in save ? dashboardApi.updateProject(save.projectId, save.input) : dashboardApi.createProject(save.workspaceId, save.input),
    onSuccess: (project: Project) => {
      client.setQueryData(projectQuery(project.projectId).queryKey, project);
      return projectsChanged(client);
    },
  });
}

export function useDeleteProject() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ project, confirmName }: { project: Project; confirmName: string }) => dashboardApi.deleteProject(project.projectId, confirmName),
    onSuccess: ({ status }, { project }) => {
      // Still being deleted: the page says so, and is not refetched (the project may be gone any
      // moment). Gone: the page moves on; its detail is not dropped here, which would make the
      // still-mounted page fetch it again.
      if (status === "deleting") client.setQueryData(projectQuery(project.projectId).queryKey, { ...project, status: "deleting" as const });
      return projectsChanged(client);
    },
  });
}

/** Lists show each file's link counts and badges; a project counts its builds. */
function filesChanged(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: [...queryKeys.files.all, "latest"] }),
    client.invalidateQueries({ queryKey: queryKeys.projects.all }),
  ]);
}

export function useDeleteFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: FileDetail) => dashboardApi.deleteFile(file.fileId),
    onSuccess: () => filesChanged(client),
  });
}

/** The file's share link settings; its detail takes the answer as it is. */
export function useUpdateShare(fileId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareSettingsInput) => dashboardApi.updateShare(fileId, input),
    onSuccess: (share: ShareLinkView) => {
      client.setQueryData(fileQuery(fileId).queryKey, (file) => file && { ...file, share, shareUrl: share.shareUrl });
      return filesChanged(client);
    },
  });
}

/** A new link address (the old one stops working); the download link changes with it. */
export function useRegenerateShare(fileId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => dashboardApi.regenerateShare(fileId),
    onSuccess: ({ userKey, shareUrl, downloadUrl }) => {
      client.setQueryData(
        fileQuery(fileId).queryKey,
        (file) => file && { ...file, shareUrl, downloadUrl, share: file.share && { ...file.share, userKey, shareUrl } },
      );
      return filesChanged(client);
    },
  });
}

export function useCreateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, projectId }: { name: string; projectId: string }) => dashboardApi.createKey(name, projectId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.keys.all }),
  });
}

export function useRegenerateKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => dashboardApi.regenerateKey(clientId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.keys.all }),
  });
}

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => dashboardApi.revokeKey(clientId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.keys.all }),
  });
}
