import { HttpRequest } from "@smithy/protocol-http";
import type { PartSigner, PresignGetInput, PresignPartInput, PresignPutInput, UrlSigner } from "../../ports";
import { contentDisposition } from "./content-disposition";
import { rfc3986, s3Endpoint, type S3Endpoint, type S3Location } from "./s3-endpoint";

export type S3UrlSignerOptions = S3Location;

/**
 * Presigns S3 URLs with SigV4 alone. Presigning is pure computation, so the functions that only
 * hand out URLs (presign, download, share) need no S3 client: this keeps @aws-sdk/client-s3 and
 * its middleware stack out of their bundles and their cold starts. The local store checks these
 * signatures exactly as S3 does, and the tests compare them with the SDK presigner's.
 */
export class S3UrlSigner implements UrlSigner, PartSigner {
  private readonly endpoint: S3Endpoint;

  constructor(options: S3UrlSignerOptions) {
    this.endpoint = s3Endpoint(options, false);
  }

  private async presign(
    method: "GET" | "PUT",
    key: string,
    expiresIn: number,
    headers: Record<string, string>,
    query: Record<string, string>,
  ): Promise<string> {
    const { base, signer } = this.endpoint;
    const host = base.host;
    const request = new HttpRequest({
      method,
      protocol: base.protocol,
      hostname: base.hostname,
      ...(base.port ? { port: Number(base.port) } : {}),
      path: this.endpoint.objectPath(key),
      // UNSIGNED-PAYLOAD is hoisted into the query, as S3's own presigner does: the body is
      // not known when the URL is made.
      headers: { host, "X-Amz-Content-Sha256": "UNSIGNED-PAYLOAD", ...headers },
      query,
    });
    const signed = await signer.presign(request, {
      expiresIn,
      signableHeaders: new Set(Object.keys(headers)),
    });
    // Encoded exactly as signed: URLSearchParams would write spaces as "+", which S3 reads
    // literally, and the signature would no longer match.
    const queryString = Object.entries(signed.query ?? {})
      .map(([name, value]) => `${rfc3986(name)}=${rfc3986(Array.isArray(value) ? value.join(",") : (value ?? ""))}`)
      .join("&");
    return `${base.protocol}//${host}${signed.path}?${queryString}`;
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
