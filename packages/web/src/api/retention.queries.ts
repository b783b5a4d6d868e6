import type { FileDetail, ProjectAnswer as Project, RetentionPreviewAnswer } from "@hangar/core/dashboard-answers";
import type { RetentionInput } from "@hangar/core/dashboard-schema";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "./api-client";
import { queryKeys } from "./query-keys";

/**
 * Retention (issue 24, docs/release-safety.md): a project's policy (on the project's PATCH), what
 * it would remove now, and pins. In the dashboard's shape (dashboard.queries.ts): one
 * `queryOptions` per resource, one hook per change that updates what it changed.
 */

export type { RetentionPreviewAnswer as RetentionPreview } from "@hangar/core/dashboard-answers";

const id = (value: string) => encodeURIComponent(value);

export const retentionApi = {
  setPolicy: (projectId: string, retention: RetentionInput | null) => apiRequest<Project>("PATCH", `/api/projects/${id(projectId)}`, { retention }),
  preview: (projectId: string) => apiRequest<RetentionPreviewAnswer>("GET", `/api/projects/${id(projectId)}/retention/preview`),
  pin: (fileId: string, pinned: boolean) => apiRequest<FileDetail>("PATCH", `/api/files/${id(fileId)}`, { pinned }),
};

/** Under the project's key: a change to the project or its files refreshes it too. */
const previewKey = (projectId: string) => [...queryKeys.projects.detail(projectId), "retention-preview"] as const;

/** Only when asked for (the "Preview" button): it reads every build of the project. */
export const retentionPreviewQuery = (projectId: string, enabled: boolean) =>
  queryOptions({ queryKey: previewKey(projectId), queryFn: () => retentionApi.preview(projectId), enabled });

/** Saves a policy (null: off); the project's answer replaces the cached one, and lists show it. */
export function useSetRetention(projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (retention: RetentionInput | null) => retentionApi.setPolicy(projectId, retention),
    onSuccess: (project) => {
      client.setQueryData(queryKeys.projects.detail(projectId), project);
      return Promise.all([client.invalidateQueries({ queryKey: queryKeys.projects.lists() }), client.invalidateQueries({ queryKey: previewKey(projectId) })]);
    },
  });
}

/** Pins or unpins a build; its page takes the answer, its project's lists and preview refresh. */
export function usePinFile(file: Pick<FileDetail, "fileId" | "projectId">) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pinned: boolean) => retentionApi.pin(file.fileId, pinned),
    onSuccess: (answer) => {
      client.setQueryData(queryKeys.files.detail(file.fileId), answer);
      return Promise.all([client.invalidateQueries({ queryKey: queryKeys.projects.detail(file.projectId) }), client.invalidateQueries({ queryKey: [...queryKeys.files.all, "latest"] })]);
    },
  });
}
