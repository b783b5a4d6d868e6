import type {
  CreatedKeyAnswer as CreatedKey,
  FileDetail,
  FileSummary,
  KeyAnswer as ApiKey,
  KeyUsage,
  LinkView as ShareLinkView,
  Page,
  ProjectAnswer as Project,
} from "@hangar/core/dashboard-answers";
import type { ShareSettings as ShareSettingsInput } from "@hangar/core/link-schema";
import { apiRequest } from "./api-client";

export interface ProjectInput {
  name: string;
  description: string;
  color: string;
}

// The API's answers are defined once, in core, and shared as types (no code reaches the bundle).
export type {
  CreatedKeyAnswer as CreatedKey,
  FileDetail,
  FileSummary,
  KeyAnswer as ApiKey,
  KeyUsage,
  LinkSummary,
  LinkView as ShareLinkView,
  Page,
  ProjectAnswer as Project,
  UsageDayAnswer as UsageDay,
} from "@hangar/core/dashboard-answers";

/** Omitted fields stay as they are; null clears one. The very shape the API parses (core's `ShareSettings`). */
export type { ShareSettings as ShareSettingsInput } from "@hangar/core/link-schema";

const id = (value: string) => encodeURIComponent(value);

/** A delete answers 204 when done, or 202 `{status: "deleting"}` when it continues in the background. */
type DeleteOutcome = { status: "deleted" | "deleting" };
const outcome = (answer: { status?: string } | undefined): DeleteOutcome => ({ status: answer?.status === "deleting" ? "deleting" : "deleted" });

export const dashboardApi = {
  projects: (workspaceId: string) => apiRequest<Page<Project>>("GET", `/api/projects?workspaceId=${id(workspaceId)}`),
  project: (projectId: string) => apiRequest<Project>("GET", `/api/projects/${id(projectId)}`),
  createProject: (workspaceId: string, input: ProjectInput) => apiRequest<Project>("POST", "/api/projects", { ...input, workspaceId }),
  updateProject: (projectId: string, input: Partial<ProjectInput>) => apiRequest<Project>("PATCH", `/api/projects/${id(projectId)}`, input),
  deleteProject: async (projectId: string, confirmName: string) =>
    outcome(await apiRequest<{ status?: string } | undefined>("DELETE", `/api/projects/${id(projectId)}`, { confirmName })),

  projectFiles: (projectId: string, cursor?: string | null) =>
    apiRequest<Page<FileSummary>>("GET", `/api/projects/${id(projectId)}/files?limit=25${cursor ? `&cursor=${id(cursor)}` : ""}`),
  latestFiles: (workspaceId: string) => apiRequest<Page<FileSummary>>("GET", `/api/files?limit=10&workspaceId=${id(workspaceId)}`),
  file: (fileId: string) => apiRequest<FileDetail>("GET", `/api/files/${id(fileId)}`),
  deleteFile: (fileId: string) => apiRequest<void>("DELETE", `/api/files/${id(fileId)}`),
  updateShare: (fileId: string, input: ShareSettingsInput) => apiRequest<ShareLinkView>("PATCH", `/api/files/${id(fileId)}/share`, input),
  regenerateShare: (fileId: string) =>
    apiRequest<{ userKey: string; shareUrl: string; downloadUrl: string }>("POST", `/api/files/${id(fileId)}/share/regenerate`),

  keys: (workspaceId: string) => apiRequest<Page<ApiKey>>("GET", `/api/keys?workspaceId=${id(workspaceId)}`),
  createKey: (name: string, projectId: string) => apiRequest<CreatedKey>("POST", "/api/keys", { name, projectId }),
  regenerateKey: (clientId: string) => apiRequest<{ clientId: string; clientSecret: string }>("POST", `/api/keys/${id(clientId)}/regenerate`),
  revokeKey: (clientId: string) => apiRequest<void>("DELETE", `/api/keys/${id(clientId)}`),
  keyUsage: (clientId: string) => apiRequest<KeyUsage>("GET", `/api/keys/${id(clientId)}/usage`),

  deleteAccount: async (password: string) => outcome(await apiRequest<{ status?: string } | undefined>("DELETE", "/api/account", { password })),
};
