/**
 * A multipart upload's state kept in localStorage, so a reload (or a closed tab, a crash) costs
 * only the parts in flight: the project page offers to resume it with the same file.
 *
 * What is kept: the upload's key and id, its part size, and the ETag of every stored part (the
 * API's complete takes them; the API has no ListParts route, and needs none while these are
 * kept), plus the file's name, size and lastModified, which recognize the same file when the user
 * picks it again (the browser gives no path, and hashing gigabytes to compare would cost as long
 * as uploading them). One upload per project: the panel runs one at a time.
 *
 * Rejected: IndexedDB. The record is small (10,000 ETags are ~400 KB of JSON, a 6 GiB build's 768
 * parts ~30 KB) and written once per stored part; localStorage's synchronous write is simpler and
 * cannot be half done.
 */
import type { DeclaredFile } from "../api/upload.api";

const VERSION = 1;
const keyOf = (projectId: string) => `hangar:multipart-upload:${projectId}`;

export interface SavedUpload extends DeclaredFile {
  version: number;
  projectId: string;
  fileId: string;
  key: string;
  uploadId: string;
  partSize: number;
  partCount: number;
  /** File.lastModified of the file being sent (ms since the epoch). */
  lastModified: number;
  /** [partNumber, ETag] of every part stored. */
  done: [number, string][];
  savedAt: string;
}

const isSaved = (v: unknown, projectId: string): v is SavedUpload => {
  const s = v as Partial<SavedUpload> | null;
  return (
    typeof s === "object" &&
    s !== null &&
    s.version === VERSION &&
    s.projectId === projectId &&
    typeof s.key === "string" &&
    typeof s.uploadId === "string" &&
    typeof s.fileName === "string" &&
    typeof s.fileType === "string" &&
    Number.isSafeInteger(s.fileSize) &&
    Number.isSafeInteger(s.partSize) &&
    Number.isSafeInteger(s.partCount) &&
    typeof s.lastModified === "number" &&
    Array.isArray(s.done) &&
    s.done.every((d) => Array.isArray(d) && Number.isSafeInteger(d[0]) && typeof d[1] === "string")
  );
};

/**
 * Upload ids being sent by this page right now: the project page, left and opened again while an
 * upload goes on (client-side navigation keeps it running), must not offer to resume it.
 */
export const runningUploads = new Set<string>();

/** The project's interrupted upload, if one is kept and not running (anything malformed reads as none). */
export function loadSavedUpload(projectId: string): SavedUpload | undefined {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(keyOf(projectId)) ?? "null");
    return isSaved(parsed, projectId) && !runningUploads.has(parsed.uploadId) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the state; a full or disabled storage costs the resume, never the upload. */
export function saveUpload(upload: Omit<SavedUpload, "version" | "savedAt">): void {
  try {
    globalThis.localStorage?.setItem(keyOf(upload.projectId), JSON.stringify({ ...upload, version: VERSION, savedAt: new Date().toISOString() }));
  } catch {
    // QuotaExceededError, or storage disabled: nothing to resume from after a reload.
  }
}

export function forgetUpload(projectId: string): void {
  try {
    globalThis.localStorage?.removeItem(keyOf(projectId));
  } catch {
    // Storage disabled: nothing was kept.
  }
}

/** Bytes of the parts stored (the last part may be shorter). */
export function storedBytes(saved: Pick<SavedUpload, "done" | "partSize" | "partCount" | "fileSize">): number {
  return saved.done.reduce((sum, [n]) => sum + (n < saved.partCount ? saved.partSize : saved.fileSize - (saved.partCount - 1) * saved.partSize), 0);
}

/** Why `file` is not the file of the saved upload; undefined when it is (same name, size and modification time). */
export function mismatchOf(saved: SavedUpload, file: File): string | undefined {
  const differs = [
    file.name !== saved.fileName && "name",
    file.size !== saved.fileSize && "size",
    file.lastModified !== saved.lastModified && "modification time",
  ].filter(Boolean);
  return differs.length === 0 ? undefined : `${file.name} is not the file of this upload (its ${differs.join(", ")} differ${differs.length === 1 ? "s" : ""}). Choose ${saved.fileName}.`;
}
