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
}

/** Hands out presigned addresses: pure computation, no storage round trip. */
export interface UrlSigner {
  presignPut(input: PresignPutInput): Promise<string>;
  presignGet(input: PresignGetInput): Promise<string>;
}

/** Talks to the bucket itself; only complete needs it. */
export interface ObjectStore {
  /** undefined when the object does not exist. */
  head(key: string): Promise<{ size: number } | undefined>;
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
}
