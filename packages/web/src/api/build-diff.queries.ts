import type { BuildDiff } from "@hangar/core/build-diff";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "./api-client";
import { queryKeys } from "./query-keys";

/** `GET /api/files/{fileId}/diff`: what changed from `against` (default: the previous build of the same app). */
export interface BuildDiffAnswer {
  fileId: string;
  /** null: no build to compare with (a first build). */
  diff: BuildDiff | null;
}

export type { BuildChange, BuildDiff, ChangeSeverity } from "@hangar/core/build-diff";

const id = (value: string) => encodeURIComponent(value);

export const buildDiffApi = {
  diff: (fileId: string, against?: string) =>
    apiRequest<BuildDiffAnswer>("GET", `/api/files/${id(fileId)}/diff${against ? `?against=${id(against)}` : ""}`),
};

/**
 * A build's changes, under its detail's key: whatever refreshes the build refreshes them too.
 * `against` undefined is the previous build of the same app (the "Changes since …" of the page).
 */
export const buildDiffQuery = (fileId: string, against?: string) =>
  queryOptions({
    queryKey: [...queryKeys.files.detail(fileId), "diff", against ?? "previous"] as const,
    queryFn: () => buildDiffApi.diff(fileId, against),
  });
