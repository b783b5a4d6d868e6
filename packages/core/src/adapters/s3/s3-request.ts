import { HttpRequest } from "@smithy/protocol-http";
import { AwsServiceError, withRetries } from "../../aws/aws-json-call";
import { rfc3986, s3Endpoint, type S3Endpoint, type S3Location } from "./s3-endpoint";
import { xmlText } from "../../html/xml";

/** Where a bucket is and how to sign for it (as S3UrlSigner), and the transport. */
export interface S3Connection extends S3Location {
  /**
   * The transport; the global fetch unless given. A test passes its own to answer as S3 would (an
   * outage, a missing version, a refused key) where no store can be made to fail that way on demand.
   */
  fetch?: typeof fetch;
}

export interface S3Call {
  method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE";
  key: string;
  /** Sub-resources and parameters (`versionId`, `uploadId`, `uploads: ""`); signed as sent. */
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  /**
   * Read the answer's body only when its Content-Length is at most this many bytes (a larger one is
   * left unread and the connection's stream cancelled); unset reads every body.
   */
  maxBodyBytes?: number;
}

export interface S3Answer {
  status: number;
  headers: Headers;
  /** Absent after a HEAD, or when the body was larger than `maxBodyBytes`. */
  body?: Uint8Array;
}

/** An answer S3 gave 200 with an error inside (CompleteMultipartUpload can), or an XML error body: its code and message. */
export function s3ErrorOf(xml: string): { code: string; message: string } | undefined {
  const error = /<Error>([\s\S]*?)<\/Error>/.exec(xml)?.[1];
  if (error === undefined) return undefined;
  return { code: xmlText(error, "Code") ?? "UnknownError", message: xmlText(error, "Message") ?? "" };
}

/** An answer's body as text (an XML document). */
export const answerText = (answer: S3Answer) => new TextDecoder().decode(answer.body ?? new Uint8Array());

/** HEAD answers carry no body: S3's error is named by its status, as the SDK names it. */
const HEAD_ERRORS: Record<number, string> = { 304: "NotModified", 400: "BadRequest", 403: "Forbidden", 404: "NotFound", 412: "PreconditionFailed" };

/**
 * S3's REST calls for the few object operations the functions make (complete, multipart, the
 * reaper, the purger of deletes), as SigV4-signed fetches, the way aws-json-call.ts makes the
 * JSON-protocol calls: @aws-sdk/client-s3 (with its XML codec, checksum and endpoint-ruleset code,
 * ~170 KB minified) would otherwise be parsed on every cold start of those functions, complete and
 * multipart on every CI upload's path. What the SDK client does and matters here is kept: path-style addressing on the local store, the body's SHA-256 signed
 * (x-amz-content-sha256), three attempts on throttling, 5xx and network errors, and a refusal named
 * by S3's error code (`NoSuchKey`, `PreconditionFailed`…) with its status, as the SDK's exceptions
 * are (AwsServiceError: `name`, `status`).
 */
export class S3Requester {
  private readonly endpoint: S3Endpoint;
  private readonly fetch: typeof fetch;

  constructor(readonly connection: S3Connection) {
    this.endpoint = s3Endpoint(connection, true);
    this.fetch = connection.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The answer of a 2xx, or throws: an AwsServiceError when S3 refused, after three attempts where retrying can help. */
  send(call: S3Call, timeoutMs = 25_000): Promise<S3Answer> {
    return withRetries(() => this.attempt(call, timeoutMs));
  }

  private async attempt(call: S3Call, timeoutMs: number): Promise<S3Answer> {
    const { base, signer } = this.endpoint;
    const path = this.endpoint.objectPath(call.key);
    const query = call.query ?? {};
    const request = new HttpRequest({
      method: call.method,
      protocol: base.protocol,
      hostname: base.hostname,
      ...(base.port ? { port: Number(base.port) } : {}),
      path,
      query,
      headers: { host: base.host, ...(call.body !== undefined ? { "content-length": String(byteLength(call.body)) } : {}), ...call.headers },
      ...(call.body !== undefined ? { body: call.body } : {}),
    });
    const signed = await signer.sign(request);
    // Encoded exactly as signed (URLSearchParams would write spaces as "+").
    const queryString = Object.entries(query)
      .map(([name, value]) => (value === "" ? rfc3986(name) : `${rfc3986(name)}=${rfc3986(value)}`))
      .join("&");
    const { host: _host, "content-length": _length, ...headers } = signed.headers;
    const response = await this.fetch(`${base.protocol}//${base.host}${path}${queryString ? `?${queryString}` : ""}`, {
      method: call.method,
      headers,
      ...(call.body !== undefined ? { body: call.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status >= 300) {
      const text = call.method === "HEAD" ? "" : await response.text();
      const error = s3ErrorOf(text);
      throw new AwsServiceError(error?.code ?? HEAD_ERRORS[response.status] ?? "UnknownError", error?.message || `S3 answered ${response.status}`, response.status);
    }
    const length = Number(response.headers.get("content-length") ?? NaN);
    if (call.method === "HEAD" || (call.maxBodyBytes !== undefined && !(length <= call.maxBodyBytes))) {
      // Only the headers were wanted: close the connection's stream instead of downloading it.
      await response.body?.cancel();
      return { status: response.status, headers: response.headers };
    }
    return { status: response.status, headers: response.headers, body: new Uint8Array(await response.arrayBuffer()) };
  }
}

const byteLength = (body: Uint8Array | string) => (typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
