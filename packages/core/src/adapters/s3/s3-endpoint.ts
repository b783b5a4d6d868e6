import { fromEnv } from "@aws-sdk/credential-provider-env";
import { Hash } from "@smithy/hash-node";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";

/** Where a bucket is and whose credentials sign for it: what S3UrlSigner and S3Requester both take. */
export interface S3Location {
  bucket: string;
  region: string;
  /** Path-style endpoint (local store); unset = the bucket's virtual-hosted AWS endpoint. */
  endpoint?: string;
  /** Defaults to the environment (on Lambda: the function role's session credentials). */
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
}

/** SigV4's URI encoding (RFC 3986 unreserved characters only), used for path and query alike. */
export const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
export const encodeKey = (key: string) => key.split("/").map(rfc3986).join("/");

/** A bucket's origin, the signed path of an object in it, and the SigV4 signer for S3. */
export interface S3Endpoint {
  base: URL;
  objectPath(key: string): string;
  signer: SignatureV4;
}

/**
 * The one place a bucket is addressed and signed for: path-style on the local store (the
 * endpoint's own path, then the bucket), virtual-hosted on AWS. `signBody`: whether the signer
 * hashes the body (a request that sends one); a presigned URL signs UNSIGNED-PAYLOAD instead.
 */
export function s3Endpoint(location: S3Location, signBody: boolean): S3Endpoint {
  const base = location.endpoint ? new URL(location.endpoint) : new URL(`https://${location.bucket}.s3.${location.region}.amazonaws.com`);
  const prefix = location.endpoint ? `${base.pathname.replace(/\/$/, "")}/${location.bucket}` : "";
  return {
    base,
    objectPath: (key) => `${prefix}/${encodeKey(key)}`,
    signer: new SignatureV4({
      service: "s3",
      region: location.region,
      credentials: location.credentials ?? fromEnv(),
      sha256: Hash.bind(null, "sha256"),
      // S3 signs the path as sent: encoded once, never twice.
      uriEscapePath: false,
      applyChecksum: signBody,
    }),
  };
}
