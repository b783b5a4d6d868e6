import type { CompleteResult, PartUrlsResult, PresignResult, StartMultipartResult } from "@hangar/core/upload-schema";
import { apiRequest } from "./api-client";

export type { CompleteResult, PartUrlsResult, PresignResult, StartMultipartResult } from "@hangar/core/upload-schema";

/** What presign and a multipart start are told about the file (the very fields the API-key routes take). */
export interface DeclaredFile {
  fileName: string;
  fileSize: number;
  fileType: string;
}

export interface PartChecksum {
  partNumber: number;
  checksumCRC32C: string;
}

const base = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/uploads`;

/**
 * The dashboard's upload routes (README "Dashboard API"): the API-key flow's presign, multipart and
 * complete, for the signed-in owner's project, with the session cookie instead of a key.
 */
export const uploadApi = {
  presign: (projectId: string, file: DeclaredFile) => apiRequest<PresignResult>("POST", base(projectId), file),
  startMultipart: (projectId: string, file: DeclaredFile) => apiRequest<StartMultipartResult>("POST", `${base(projectId)}/multipart`, file),
  partUrls: (projectId: string, upload: { key: string; uploadId: string }, partChecksums: PartChecksum[]) =>
    apiRequest<PartUrlsResult>("POST", `${base(projectId)}/multipart/parts`, { ...upload, partChecksums }),
  abortMultipart: (projectId: string, upload: { key: string; uploadId: string }) => apiRequest<void>("DELETE", `${base(projectId)}/multipart`, upload),
  complete: (projectId: string, body: Record<string, unknown>) => apiRequest<CompleteResult>("POST", `${base(projectId)}/complete`, body),
};
