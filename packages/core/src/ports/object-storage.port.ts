export interface PresignPutInput {
  key: string;
  size: number;
  contentType: string;
  expiresInSeconds: number;
}

export interface PresignGetInput {
  key: string;
  /** Sent back as Content-Disposition: attachment; filename=… */
  downloadName: string;
  expiresInSeconds: number;
  /** inline instead of attachment (images shown on the share page). */
  inline?: boolean;
  /**
   * The object version to serve (versioned bucket): the URL then keeps returning exactly the bytes
   * complete inspected, whatever is written to the key later. Unset = the current version.
   */
  versionId?: string;
}

/** Hands out presigned addresses: pure computation, no storage round trip. */
export interface UrlSigner {
  presignPut(input: PresignPutInput): Promise<string>;
  presignGet(input: PresignGetInput): Promise<string>;
}

/** What a HEAD saw: enough to read and later serve exactly that object. */
export interface ObjectHead {
  size: number;
  /** The version HEAD saw; absent when the bucket has no versioning (then nothing can be pinned). */
  versionId?: string;
  /** Quoted ETag of that version. */
  etag?: string;
}

/** Talks to the bucket itself; only complete needs it. */
export interface ObjectStore {
  /** undefined when the object does not exist. */
  head(key: string): Promise<ObjectHead | undefined>;
  /**
   * What `head` answers, and with it the object's bytes when it is at most `maxBytes` long, in one
   * request (a GET): a small package is inspected from memory instead of by ranged GETs after a
   * HEAD. A larger object's body is not read (`body` absent; a store may always leave it out, and
   * the package is then read by ranges as a large one is). undefined when it does not exist.
   */
  read(key: string, maxBytes: number): Promise<(ObjectHead & { body?: Uint8Array }) | undefined>;
  /** Returns the version id the write created (absent without bucket versioning). */
  put(key: string, body: Uint8Array, contentType: string): Promise<{ versionId?: string }>;
  /**
   * Removes the key (the reaper, for uploads never completed). Succeeds when nothing is there. On a
   * versioned bucket this adds a delete marker; the bytes stay as a noncurrent version until the
   * bucket's lifecycle rule expires them. With `versionId`, exactly that version is destroyed.
   */
  delete(key: string, versionId?: string): Promise<void>;
  /** Every version and delete marker of exactly this key (not of keys it prefixes). */
  listVersions(key: string): Promise<{ versionId: string }[]>;
}

export interface PresignPartInput {
  key: string;
  uploadId: string;
  partNumber: number;
  /** Exact byte count of this part: signed, so S3 refuses any other length. */
  size: number;
  /**
   * Base64 checksum of the part's bytes under the upload's algorithm (exactly one of the two):
   * signed into the query, so S3 verifies the part against it.
   */
  checksumCRC32C?: string;
  checksumCRC32?: string;
  expiresInSeconds: number;
}

/** A part S3 holds for an open multipart upload (ListParts). */
export interface StoredPart {
  partNumber: number;
  /** Quoted MD5 of the part, as UploadPart answered it. */
  etag: string;
  size: number;
  checksumCRC32C?: string;
  checksumCRC32?: string;
}

/** The checksum every part of a multipart upload carries (S3 fixes it at CreateMultipartUpload). */
export type PartChecksumAlgorithm = "CRC32C" | "CRC32";

/**
 * S3's multipart upload, for builds past one PUT's 5 GiB. Uploads are created with a checksum
 * algorithm (CRC32C or CRC32, COMPOSITE), so every part must carry its checksum and S3 verifies it
 * as the part arrives.
 */
export interface MultipartStore {
  /** CreateMultipartUpload; returns the upload id. */
  create(key: string, contentType: string, checksumAlgorithm: PartChecksumAlgorithm): Promise<string>;
  /** ListParts, every page. An upload S3 no longer knows (completed, aborted) answers undefined. */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | undefined>;
  /**
   * CompleteMultipartUpload with exactly these parts (ascending). false when S3 no longer knows
   * the upload (completed by a concurrent request, or aborted).
   */
  complete(key: string, uploadId: string, parts: { partNumber: number; etag: string; checksumCRC32C?: string; checksumCRC32?: string }[]): Promise<boolean>;
  /** AbortMultipartUpload; succeeds when the upload is already gone. */
  abort(key: string, uploadId: string): Promise<void>;
}

/** Presigns one UploadPart (no storage round trip, like UrlSigner). */
export interface PartSigner {
  presignPart(input: PresignPartInput): Promise<string>;
}
