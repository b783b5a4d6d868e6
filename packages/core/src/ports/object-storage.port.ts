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
