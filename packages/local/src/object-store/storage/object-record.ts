/** What the sidecar JSON of one object holds. */
export interface ObjectRecord {
  key: string;
  /** File name of the bytes, in the sidecar's folder. */
  blob: string;
  size: number;
  /** Quoted MD5 hex, as S3 returns it for single-part uploads. */
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

export function parseObjectRecord(text: string, source: string): ObjectRecord {
  const value: unknown = JSON.parse(text);
  if (!isObjectRecord(value)) throw new Error(`Corrupt object sidecar ${source}`);
  return value;
}

function isObjectRecord(value: unknown): value is ObjectRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.key === "string" &&
    typeof r.blob === "string" &&
    /^[0-9a-f]{64}\.[0-9a-f-]{36}\.bin$/.test(r.blob) &&
    typeof r.size === "number" &&
    typeof r.etag === "string" &&
    typeof r.contentType === "string" &&
    typeof r.lastModified === "string" &&
    isStringRecord(r.metadata) &&
    isStringRecord(r.headers) &&
    isStringRecord(r.checksums)
  );
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((v) => typeof v === "string");
}
