export interface UploadSettings {
  /** Largest fileSize presign accepts; at most 5 GiB, one S3 PUT's ceiling. */
  maxFileSize: number;
  /** Life of the presigned PUT; the spec fixes it at 15 minutes. */
  presignExpiresSeconds: number;
  /** How long a pending upload may wait for complete before it is dead (and TTL deletes it). */
  pendingTtlSeconds: number;
  /** Life of the presigned GET a download link redirects to. */
  downloadExpiresSeconds: number;
  /** Largest fileSize a multipart upload accepts (parts go past one PUT's 5 GiB). */
  maxMultipartFileSize: number;
  /** Life of a presigned part URL; a client asks for fresh ones to resume after it. */
  partUrlExpiresSeconds: number;
}

export const defaultUploadSettings: UploadSettings = {
  maxFileSize: 4 * 1024 ** 3,
  presignExpiresSeconds: 900,
  pendingTtlSeconds: 24 * 3600,
  downloadExpiresSeconds: 300,
  maxMultipartFileSize: 30 * 1024 ** 3,
  partUrlExpiresSeconds: 900,
};

/** Where links point. Resolved per request by the handler (settings, else the API's own host). */
export interface LinkBases {
  publicBaseUrl: string;
  shareBaseUrl: string;
}
