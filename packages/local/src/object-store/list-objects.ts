import { uriEncode, type QueryParam } from "./sigv4/canonical";
import { invalidArgument } from "./s3-error";
import type { ObjectRecord } from "./storage/object-record";
import { S3_XML_NAMESPACE, XML_DECLARATION, xmlElement } from "@hangar/core/xml";

const MAX_KEYS_LIMIT = 1000;

interface ListParams {
  prefix: string;
  delimiter: string | undefined;
  maxKeys: number;
  continuationToken: string | undefined;
  startAfter: string | undefined;
  urlEncode: boolean;
}

/** Where a continuation resumes: after key `a`, also skipping the rest of common prefix `p` if the page ended on one. */
interface ContinuationPoint {
  a: string;
  p?: string;
}

/** ListObjectsV2 over all objects of a bucket (already sorted by key). Prefix, delimiter, max-keys, continuation, start-after. */
export function listObjectsV2Xml(bucket: string, records: readonly ObjectRecord[], query: readonly QueryParam[]): string {
  const params = parseListParams(query);
  const resume = params.continuationToken === undefined ? undefined : decodeToken(params.continuationToken);
  const after = resume?.a ?? params.startAfter ?? "";
  const afterBytes = Buffer.from(after, "utf8");

  const contents: ObjectRecord[] = [];
  const commonPrefixes: string[] = [];
  let truncated = false;
  let next: ContinuationPoint | undefined;
  for (const record of records) {
    if (after !== "" && Buffer.compare(Buffer.from(record.key, "utf8"), afterBytes) <= 0) continue;
    if (resume?.p !== undefined && record.key.startsWith(resume.p)) continue;
    if (!record.key.startsWith(params.prefix)) continue;
    let commonPrefix: string | undefined;
    if (params.delimiter) {
      const at = record.key.indexOf(params.delimiter, params.prefix.length);
      if (at !== -1) commonPrefix = record.key.slice(0, at + params.delimiter.length);
    }
    if (commonPrefix !== undefined && commonPrefix === commonPrefixes.at(-1)) continue;
    if (contents.length + commonPrefixes.length >= params.maxKeys) {
      truncated = true;
      break;
    }
    if (commonPrefix !== undefined) {
      commonPrefixes.push(commonPrefix);
      next = { a: record.key, p: commonPrefix };
    } else {
      contents.push(record);
      next = { a: record.key };
    }
  }

  const text = (value: string | undefined) => (value !== undefined && params.urlEncode ? encodeKey(value) : value);
  return (
    XML_DECLARATION +
    `<ListBucketResult xmlns="${S3_XML_NAMESPACE}">` +
    xmlElement("Name", bucket) +
    xmlElement("Prefix", text(params.prefix)) +
    xmlElement("Delimiter", text(params.delimiter)) +
    xmlElement("StartAfter", text(params.startAfter)) +
    xmlElement("ContinuationToken", params.continuationToken) +
    xmlElement("KeyCount", contents.length + commonPrefixes.length) +
    xmlElement("MaxKeys", params.maxKeys) +
    xmlElement("EncodingType", params.urlEncode ? "url" : undefined) +
    xmlElement("IsTruncated", truncated) +
    xmlElement("NextContinuationToken", truncated && next ? encodeToken(next) : undefined) +
    contents
      .map(
        (record) =>
          "<Contents>" +
          xmlElement("Key", text(record.key)) +
          xmlElement("LastModified", record.lastModified) +
          xmlElement("ETag", record.etag) +
          xmlElement("Size", record.size) +
          xmlElement("StorageClass", "STANDARD") +
          "</Contents>",
      )
      .join("") +
    commonPrefixes.map((prefix) => `<CommonPrefixes>${xmlElement("Prefix", text(prefix))}</CommonPrefixes>`).join("") +
    "</ListBucketResult>"
  );
}

function parseListParams(query: readonly QueryParam[]): ListParams {
  const get = (name: string) => query.find((p) => p.name === name)?.value;
  const maxKeysText = get("max-keys");
  let maxKeys = MAX_KEYS_LIMIT;
  if (maxKeysText !== undefined) {
    if (!/^\d+$/.test(maxKeysText)) {
      throw invalidArgument("Provided max-keys not an integer or within integer range", {
        ArgumentName: "max-keys",
        ArgumentValue: maxKeysText,
      });
    }
    maxKeys = Math.min(Number(maxKeysText), MAX_KEYS_LIMIT);
  }
  const encodingType = get("encoding-type");
  if (encodingType !== undefined && encodingType !== "url") {
    throw invalidArgument("Invalid Encoding Method specified in Request", { ArgumentName: "encoding-type" });
  }
  const delimiter = get("delimiter");
  return {
    prefix: get("prefix") ?? "",
    delimiter: delimiter === "" ? undefined : delimiter,
    maxKeys,
    continuationToken: get("continuation-token"),
    startAfter: get("start-after"),
    urlEncode: encodingType === "url",
  };
}

function encodeToken(point: ContinuationPoint): string {
  return Buffer.from(JSON.stringify(point), "utf8").toString("base64url");
}

function decodeToken(token: string): ContinuationPoint {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (typeof value === "object" && value !== null) {
      const { a, p } = value as Record<string, unknown>;
      if (typeof a === "string" && (p === undefined || typeof p === "string")) return p === undefined ? { a } : { a, p };
    }
  } catch {
    // fall through to S3's answer for a token it did not issue
  }
  throw invalidArgument("The continuation token provided is incorrect", { ArgumentName: "continuation-token" });
}

/** encoding-type=url: each path segment percent-encoded, `/` kept. */
export function encodeKey(key: string): string {
  return key.split("/").map(uriEncode).join("/");
}
