import type { FileDetail, ProjectAnswer as Project, RetentionPreviewAnswer } from "@hangar/core/dashboard-answers";
import type { RetentionInput } from "@hangar/core/dashboard-schema";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
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
  preview: (projectId: string, candidate?: CandidatePolicy) =>
    apiRequest<RetentionPreviewAnswer>(
      "GET",
      `/api/projects/${id(projectId)}/retention/preview${candidate ? `?keepLatest=${candidate.keepLatest ?? ""}&maxAgeDays=${candidate.maxAgeDays ?? ""}` : ""}`,
    ),
  pin: (fileId: string, pinned: boolean) => apiRequest<FileDetail>("PATCH", `/api/files/${id(fileId)}`, { pinned }),
};

/** Under the project's key: a change to the project or its files refreshes it too. */
const previewKey = (projectId: string) => [...queryKeys.projects.detail(projectId), "retention-preview"] as const;

/** Numbers typed into the policy form but not saved (null: that field is empty, it does not apply). */
export interface CandidatePolicy {
  keepLatest: number | null;
  maxAgeDays: number | null;
}

/**
 * Only when asked for (the "Preview" button): it reads every build of the project. With a
 * candidate, what those numbers would remove (the form before it is saved); else the saved policy.
 * The previous answer stays on screen while the next one loads, so typing does not flicker.
 */
export const retentionPreviewQuery = (projectId: string, enabled: boolean, candidate?: CandidatePolicy) =>
  queryOptions({
    queryKey: [...previewKey(projectId), candidate ?? "saved"] as const,
    queryFn: () => retentionApi.preview(projectId, candidate),
    enabled,
    placeholderData: keepPreviousData,
  });

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
