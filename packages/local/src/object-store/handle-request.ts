import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { evaluatePreflight, setCorsResponseHeaders } from "./cors";
import { headersFromRaw, queryParam, type AuthorizedExchange, type Exchange } from "./exchange";
import { getBucketVersioning, putBucketVersioning } from "./bucket-versioning";
import { listObjectsV2Xml } from "./list-objects";
import { listObjectVersionsXml } from "./list-object-versions";
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listMultipartUploads,
  listParts,
  uploadPart,
} from "./multipart-operations";
import { deleteObjects } from "./delete-objects";
import { deleteObject, getObject, putObject } from "./object-operations";
import { S3Error, noSuchBucket, notImplemented } from "./s3-error";
import { parseQuery } from "./sigv4/canonical";
import { verifySigV4 } from "./sigv4/verify-sigv4";
import type { FileObjectStorage } from "./storage/file-object-storage";
import { MultipartUploads } from "./storage/multipart-uploads";
import { S3_XML_NAMESPACE, XML_DECLARATION, xmlElement } from "@hangar/core/xml";

/** Above this many unread body bytes a refused request's connection is closed instead of drained. */
const MAX_DRAIN_BYTES = 8 * 1024 * 1024;
const OWNER_ID = "hangar-local";

/** S3 sub-resources (`?acl`, `?tagging`, …) this store does not implement; answering them as plain operations would mislead. */
const UNSUPPORTED_SUBRESOURCES = new Set([
  "accelerate", "acl", "analytics", "attributes", "cors", "encryption", "intelligent-tiering", "inventory",
  "legal-hold", "lifecycle", "logging", "metrics", "notification", "object-lock", "ownershipControls",
  "policy", "policyStatus", "publicAccessBlock", "replication", "requestPayment", "restore", "retention", "select",
  "tagging", "torrent", "website",
]);
/**
 * Sub-resources implemented only on one level: `?versioning`, `?versions`, `?delete` (DeleteObjects) and
 * `?uploads` (ListMultipartUploads) on buckets; `?versionId`, `?uploadId` and `?partNumber` on objects.
 */
const BUCKET_ONLY = new Set(["versioning", "versions", "delete"]);
const OBJECT_ONLY = new Set(["versionId", "uploadId", "partNumber"]);

export interface RequestHandlerOptions {
  storage: FileObjectStorage;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  log?: (line: string) => void;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse, expectContinue?: boolean) => Promise<void>;

export function createRequestHandler(options: RequestHandlerOptions): RequestHandler {
  const uploads = new MultipartUploads(options.storage);
  return async (req, res, expectContinue = false) => {
    const started = Date.now();
    const requestId = randomBytes(8).toString("hex").toUpperCase();
    res.setHeader("x-amz-request-id", requestId);
    res.setHeader("x-amz-id-2", randomBytes(24).toString("base64"));
    res.setHeader("Server", "HangarLocalObjectStore");
    setCorsResponseHeaders(res);

    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const exchange: Exchange = {
      req,
      res,
      requestId,
      method: req.method ?? "GET",
      rawPath: queryAt === -1 ? url : url.slice(0, queryAt),
      query: queryAt === -1 ? [] : parseQuery(url.slice(queryAt + 1)),
      headers: headersFromRaw(req.rawHeaders),
      expectContinue,
      storage: options.storage,
      uploads,
    };
    let errorCode: string | undefined;
    try {
      await route(exchange, options);
    } catch (error) {
      let s3Error: S3Error;
      if (error instanceof S3Error) {
        s3Error = error;
      } else {
        s3Error = new S3Error(500, "InternalError", "We encountered an internal error. Please try again.");
        (options.log ?? console.error)(`object-store: internal error on ${exchange.method} ${exchange.rawPath}: ${String(error)}`);
      }
      errorCode = s3Error.code;
      sendError(exchange, s3Error);
    }
    options.log?.(
      `${exchange.method} ${exchange.rawPath} ${res.statusCode}${errorCode ? ` ${errorCode}` : ""} ${Date.now() - started}ms`,
    );
  };
}

async function route(x: Exchange, options: RequestHandlerOptions): Promise<void> {
  if (!x.rawPath.startsWith("/")) throw invalidUri();
  if (x.method === "OPTIONS") return preflight(x);

  // Path-style addressing: /{bucket}/{key...}; the key keeps every character, including `/`, `.` and `..`.
  const slash = x.rawPath.indexOf("/", 1);
  let bucket: string;
  let key: string;
  try {
    bucket = decodeURIComponent(slash === -1 ? x.rawPath.slice(1) : x.rawPath.slice(1, slash));
    key = slash === -1 ? "" : decodeURIComponent(x.rawPath.slice(slash + 1));
  } catch {
    throw invalidUri();
  }

  const auth = verifySigV4(
    { method: x.method, rawPath: x.rawPath, query: x.query, headers: x.headers },
    { region: options.region, credentials: options.credentials, now: new Date() },
  );
  const ax: AuthorizedExchange = { ...x, auth };

  const levelOnly = key === "" ? OBJECT_ONLY : BUCKET_ONLY;
  const subresource = x.query.find((p) => UNSUPPORTED_SUBRESOURCES.has(p.name) || levelOnly.has(p.name));
  if (subresource) throw notImplemented(`The local object store does not implement the '${subresource.name}' sub-resource.`);

  if (bucket === "") {
    if (x.method === "GET") return listBuckets(ax);
    throw methodNotAllowed(x.method, "SERVICE");
  }
  const has = (name: string) => x.query.some((p) => p.name === name);
  if (key === "") {
    if (has("uploads")) {
      if (x.method === "GET") return listMultipartUploads(ax, bucket);
      throw methodNotAllowed(x.method, "BUCKET");
    }
    if (has("delete")) {
      if (x.method === "POST") return deleteObjects(ax, bucket);
      throw methodNotAllowed(x.method, "BUCKET");
    }
    if (x.query.some((p) => p.name === "versioning") && x.method !== "GET" && x.method !== "PUT") {
      throw methodNotAllowed(x.method, "BUCKET");
    }
    switch (x.method) {
      case "PUT":
        if (x.query.some((p) => p.name === "versioning")) return putBucketVersioning(ax, bucket);
        return createBucket(ax, bucket);
      case "HEAD":
        return headBucket(ax, bucket, options.region);
      case "GET":
        return getBucket(ax, bucket, options.region);
      case "DELETE":
        await ax.storage.deleteBucket(bucket);
        x.res.statusCode = 204;
        x.res.end();
        return;
      default:
        throw methodNotAllowed(x.method, "BUCKET");
    }
  }
  if (has("uploads")) {
    if (x.method === "POST") return createMultipartUpload(ax, bucket, key);
    throw methodNotAllowed(x.method, "OBJECT");
  }
  const uploadId = queryParam(x, "uploadId");
  if (uploadId !== undefined) {
    switch (x.method) {
      case "PUT":
        return uploadPart(ax, bucket, key, uploadId);
      case "GET":
        return listParts(ax, bucket, key, uploadId);
      case "POST":
        return completeMultipartUpload(ax, bucket, key, uploadId);
      case "DELETE":
        return abortMultipartUpload(ax, bucket, key, uploadId);
      default:
        throw methodNotAllowed(x.method, "OBJECT");
    }
  }
  if (has("partNumber")) throw notImplemented("The local object store does not implement reading one part of an object (partNumber).");
  switch (x.method) {
    case "PUT":
      return putObject(ax, bucket, key);
    case "GET":
      return getObject(ax, bucket, key, false);
    case "HEAD":
      return getObject(ax, bucket, key, true);
    case "DELETE":
      return deleteObject(ax, bucket, key);
    default:
      throw methodNotAllowed(x.method, "OBJECT");
  }
}

function preflight(x: Exchange): void {
  const result = evaluatePreflight(x.req);
  if (!result.allowed) throw new S3Error(result.status, result.code, result.message);
  for (const [name, value] of Object.entries(result.headers)) x.res.setHeader(name, value);
  x.res.statusCode = 200;
  x.res.setHeader("Content-Length", "0");
  x.res.end();
}

async function createBucket(x: AuthorizedExchange, bucket: string): Promise<void> {
  // An existing bucket is answered 200 too: this single-tenant store has one owner.
  await x.storage.createBucket(bucket);
  x.res.statusCode = 200;
  x.res.setHeader("Location", `/${bucket}`);
  x.res.setHeader("Content-Length", "0");
  x.res.end();
}

async function requireBucket(x: AuthorizedExchange, bucket: string): Promise<void> {
  if (!(await x.storage.bucketExists(bucket))) throw noSuchBucket(bucket);
}

async function headBucket(x: AuthorizedExchange, bucket: string, region: string): Promise<void> {
  await requireBucket(x, bucket);
  x.res.statusCode = 200;
  x.res.setHeader("x-amz-bucket-region", region);
  x.res.end();
}

async function getBucket(x: AuthorizedExchange, bucket: string, region: string): Promise<void> {
  if (x.query.some((p) => p.name === "versioning")) return getBucketVersioning(x, bucket);
  if (x.query.some((p) => p.name === "location")) {
    await requireBucket(x, bucket);
    // S3 reports us-east-1 as an empty LocationConstraint.
    const constraint = region === "us-east-1" ? "" : region;
    return sendXml(x, `${XML_DECLARATION}<LocationConstraint xmlns="${S3_XML_NAMESPACE}">${constraint}</LocationConstraint>`);
  }
  if (x.query.some((p) => p.name === "versions")) {
    return sendXml(x, listObjectVersionsXml(bucket, await x.storage.listVersions(bucket), x.query));
  }
  if (queryParam(x, "list-type") !== "2") {
    throw notImplemented("The local object store implements ListObjectsV2 only (list-type=2).");
  }
  const records = await x.storage.listObjects(bucket);
  sendXml(x, listObjectsV2Xml(bucket, records, x.query));
}

async function listBuckets(x: AuthorizedExchange): Promise<void> {
  const buckets = await x.storage.listBuckets();
  sendXml(
    x,
    XML_DECLARATION +
      `<ListAllMyBucketsResult xmlns="${S3_XML_NAMESPACE}">` +
      `<Owner>${xmlElement("ID", OWNER_ID)}${xmlElement("DisplayName", OWNER_ID)}</Owner><Buckets>` +
      buckets
        .map((b) => `<Bucket>${xmlElement("Name", b.name)}${xmlElement("CreationDate", b.creationDate.toISOString())}</Bucket>`)
        .join("") +
      "</Buckets></ListAllMyBucketsResult>",
  );
}

function sendXml(x: Exchange, xml: string): void {
  const body = Buffer.from(xml, "utf8");
  x.res.statusCode = 200;
  x.res.setHeader("Content-Type", "application/xml");
  x.res.setHeader("Content-Length", String(body.length));
  x.res.end(body);
}

function sendError(x: Exchange, error: S3Error): void {
  const { req, res } = x;
  if (res.headersSent) {
    // Failed mid-response: only a broken connection can tell the client the body is incomplete.
    res.destroy();
    return;
  }
  if (req.socket.destroyed) return;
  res.statusCode = error.status;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  if (!req.complete) {
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    if (x.expectContinue || !(declared <= MAX_DRAIN_BYTES)) {
      // The client has not sent (or would send gigabytes of) the body: don't keep the connection for it.
      res.setHeader("Connection", "close");
    } else {
      // Read and drop the rest so the keep-alive connection stays usable and the client reads our answer.
      req.resume();
    }
  }
  if (x.method === "HEAD") {
    res.setHeader("Content-Type", "application/xml");
    res.end();
    return;
  }
  const body = Buffer.from(error.toXml(x.requestId), "utf8");
  res.setHeader("Content-Type", "application/xml");
  res.setHeader("Content-Length", String(body.length));
  res.end(body);
}

const invalidUri = () => new S3Error(400, "InvalidURI", "Couldn't parse the specified URI.");
const methodNotAllowed = (method: string, resourceType: string) =>
  new S3Error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.", {
    Method: method,
    ResourceType: resourceType,
  });
