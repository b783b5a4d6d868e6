/** One stored version of an object: what S3 serves for a GET of that version. */
export interface ObjectRecord {
  key: string;
  /**
   * S3 version id: a random id when written while the bucket's versioning was Enabled, otherwise "null"
   * (objects written before versioning, or while it was suspended).
   */
  versionId: string;
  /** File name of the bytes, in the sidecar's folder (of the first segment, when the object has segments). */
  blob: string;
  /**
   * A completed multipart upload keeps its parts' files: the object is their bytes in this order. Completing
   * then costs a rename per part instead of copying gigabytes (S3 does not copy either).
   */
  segments?: { blob: string; size: number }[];
  size: number;
  /** Quoted: MD5 hex for a PUT; for a multipart upload, MD5 hex of the parts' binary MD5s then `-<part count>`, as S3 computes it. */
  etag: string;
  contentType: string;
  /** ISO 8601. */
  lastModified: string;
  /** `x-amz-meta-*` headers, lower-case names with the prefix. */
  metadata: Record<string, string>;
  /** Stored representation headers served back on GET/HEAD (content-disposition, cache-control, …). */
  headers: Record<string, string>;
  /** Base64 flexible checksums the client supplied and that were verified, by algorithm. */
  checksums: Record<string, string>;
}

/** What a DELETE without a version id leaves in a versioned bucket: the key answers 404 but older versions stay. */
export interface DeleteMarker {
  key: string;
  versionId: string;
  deleteMarker: true;
  lastModified: string;
}

export type VersionEntry = ObjectRecord | DeleteMarker;

/** The sidecar of one key: every version, newest (the current one) first. */
export interface KeyHistory {
  key: string;
  versions: VersionEntry[];
}

export const NULL_VERSION = "null";
/** `<sha256 of the key>.<uuid>.bin`: the only file names a sidecar may point at. */
const BLOB_NAME = /^[0-9a-f]{64}\.[0-9a-f-]{36}\.bin$/;

export function isDeleteMarker(entry: VersionEntry): entry is DeleteMarker {
  return "deleteMarker" in entry;
}

/**
 * Reads a sidecar. Sidecars written before versioning held one object record without a version id; they
 * read as a history whose only version is "null", which is how S3 treats objects stored before versioning.
 */
export function parseKeyHistory(text: string, source: string): KeyHistory {
  const value: unknown = JSON.parse(text);
  if (typeof value === "object" && value !== null && Array.isArray((value as { versions?: unknown }).versions)) {
    const { key, versions } = value as { key: unknown; versions: unknown[] };
    if (typeof key === "string" && versions.every((v) => isVersionEntry(v, key))) return { key, versions: versions as VersionEntry[] };
  } else if (isObjectFields(value)) {
    return { key: value.key as string, versions: [{ ...(value as Omit<ObjectRecord, "versionId">), versionId: NULL_VERSION }] };
  }
  throw new Error(`Corrupt object sidecar ${source}`);
}

function isVersionEntry(value: unknown, key: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  if (r.key !== key || typeof r.versionId !== "string" || typeof r.lastModified !== "string") return false;
  return r.deleteMarker === true || isObjectFields(value);
}

function isObjectFields(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.key === "string" &&
    typeof r.blob === "string" &&
    BLOB_NAME.test(r.blob) &&
    typeof r.size === "number" &&
    (r.segments === undefined || (Array.isArray(r.segments) && r.segments.every(isSegment))) &&
    typeof r.etag === "string" &&
    typeof r.contentType === "string" &&
    typeof r.lastModified === "string" &&
    isStringRecord(r.metadata) &&
    isStringRecord(r.headers) &&
    isStringRecord(r.checksums)
  );
}

function isSegment(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const s = value as Record<string, unknown>;
  return typeof s.blob === "string" && BLOB_NAME.test(s.blob) && typeof s.size === "number";
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string");
}
