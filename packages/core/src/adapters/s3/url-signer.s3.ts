import { fromEnv } from "@aws-sdk/credential-provider-env";
import { Hash } from "@smithy/hash-node";
import { HttpRequest } from "@smithy/protocol-http";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from "@smithy/types";
import type { PartSigner, PresignGetInput, PresignPartInput, PresignPutInput, UrlSigner } from "../../ports";
import { contentDisposition } from "./content-disposition";

export interface S3UrlSignerOptions {
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

/**
 * Presigns S3 URLs with SigV4 alone. Presigning is pure computation, so the functions that only
 * hand out URLs (presign, download, share) need no S3 client: this keeps @aws-sdk/client-s3 and
 * its middleware stack out of their bundles and their cold starts. The local store checks these
 * signatures exactly as S3 does, and the tests compare them with the SDK presigner's.
 */
export class S3UrlSigner implements UrlSigner, PartSigner {
  private readonly signer: SignatureV4;
  private readonly base: URL;
  private readonly pathPrefix: string;

  constructor(private readonly options: S3UrlSignerOptions) {
    this.signer = new SignatureV4({
      service: "s3",
      region: options.region,
      credentials: options.credentials ?? fromEnv(),
      sha256: Hash.bind(null, "sha256"),
      // S3 signs the path as sent: encoded once, never twice.
      uriEscapePath: false,
      applyChecksum: false,
    });
    if (options.endpoint) {
      this.base = new URL(options.endpoint);
      this.pathPrefix = `/${options.bucket}`;
    } else {
      this.base = new URL(`https://${options.bucket}.s3.${options.region}.amazonaws.com`);
      this.pathPrefix = "";
    }
  }

  private async presign(
    method: "GET" | "PUT",
    key: string,
    expiresIn: number,
    headers: Record<string, string>,
    query: Record<string, string>,
  ): Promise<string> {
    const host = this.base.host;
    const request = new HttpRequest({
      method,
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      ...(this.base.port ? { port: Number(this.base.port) } : {}),
      path: `${this.base.pathname.replace(/\/$/, "")}${this.pathPrefix}/${encodeKey(key)}`,
      // UNSIGNED-PAYLOAD is hoisted into the query, as S3's own presigner does: the body is
      // not known when the URL is made.
      headers: { host, "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD", ...headers },
      query,
    });
    const signed = await this.signer.presign(request, {
      expiresIn,
      signableHeaders: new Set(Object.keys(headers)),
    });
    // Encoded exactly as signed: URLSearchParams would write spaces as "+", which S3 reads
    // literally, and the signature would no longer match.
    const queryString = Object.entries(signed.query ?? {})
      .map(([name, value]) => `${rfc3986(name)}=${rfc3986(Array.isArray(value) ? value.join(",") : (value ?? ""))}`)
      .join("&");
    return `${this.base.protocol}//${host}${signed.path}?${queryString}`;
  }

  presignPut({ key, size, contentType, expiresInSeconds }: PresignPutInput): Promise<string> {
    // Signing Content-Length and Content-Type makes S3 itself refuse another size or type.
    return this.presign("PUT", key, expiresInSeconds, { "content-length": String(size), "content-type": contentType }, {});
  }

  presignPart({ key, uploadId, partNumber, size, checksumCRC32C, checksumCRC32, expiresInSeconds }: PresignPartInput): Promise<string> {
    // The checksum goes into the signed query (as the SDK's presigner puts it): S3 refuses unsigned
    // x-amz-* headers on a presigned request, and the upload was created to require parts with
    // its algorithm's checksum.
    return this.presign("PUT", key, expiresInSeconds, { "content-length": String(size) }, {
      partNumber: String(partNumber),
      uploadId,
      ...(checksumCRC32 !== undefined ? { "x-amz-checksum-crc32": checksumCRC32 } : { "x-amz-checksum-crc32c": checksumCRC32C ?? "" }),
    });
  }

  presignGet({ key, downloadName, expiresInSeconds, inline, versionId }: PresignGetInput): Promise<string> {
    return this.presign("GET", key, expiresInSeconds, {}, {
      "response-content-disposition": contentDisposition(downloadName, inline ? "inline" : "attachment"),
      // Signed like every query parameter: the URL cannot be pointed at another version.
      ...(versionId ? { versionId } : {}),
    });
  }
}
