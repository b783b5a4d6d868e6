import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { randomIds, type CreatedApiKey } from "@hangar/core";
import { mintApiKey } from "@hangar/local";
import { readFileSync } from "node:fs";
import { inject } from "vitest";

export const stack = () => inject("stack");

let doc: DynamoDBDocumentClient | undefined;
/** Direct access to DynamoDB Local, to check what the service wrote. */
export function db(): DynamoDBDocumentClient {
  const s = stack();
  doc ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({ endpoint: s.dynamoEndpoint, region: s.region, credentials: s.credentials }),
  );
  return doc;
}

let s3: S3Client | undefined;
/** Direct, admin access to the local object store (as the bucket owner would have). */
export function storeClient(): S3Client {
  const s = stack();
  s3 ??= new S3Client({
    endpoint: s.s3Endpoint,
    forcePathStyle: true,
    region: s.region,
    credentials: s.credentials,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return s3;
}

export type Key = CreatedApiKey;

export async function newKey(projectName = `project-${randomIds.userKey()}`): Promise<Key> {
  return mintApiKey(db(), stack().tableName, { email: `it-${projectName.toLowerCase()}@hangar.test`, projectName });
}

export interface CallOptions {
  key?: Key;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  method?: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

export async function call(path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) {
    headers["X-Client-ID"] = options.key.clientId;
    headers["Authorization"] = `Bearer ${options.key.clientSecret}`;
  }
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${stack().baseUrl}${path}`, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    redirect: "manual",
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

export const presign = (key: Key, body: unknown) => call("/api/upload/api-key/presign", { key, body });
export const complete = (key: Key, body: unknown) => call("/api/upload/api-key/complete", { key, body });

export function put(url: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "PUT",
    body: bytes,
    headers: { "Content-Type": "application/octet-stream", ...headers },
  });
}

export const mediaType = (fileName: string) =>
  fileName.toLowerCase().endsWith(".apk") ? "application/vnd.android.package-archive" : "application/octet-stream";

/** presign → PUT → complete, as a CI client does; returns every step's answer. */
/** presign → PUT → complete; `extra` adds complete's optional fields (releaseNotes, branch, commit, ciUrl). */
export async function upload(key: Key, fileName: string, bytes: Uint8Array, extra: Record<string, unknown> = {}) {
  const declared = { fileName, fileSize: bytes.length, fileType: mediaType(fileName) };
  const presigned = await presign(key, declared);
  if (presigned.status !== 200) throw new Error(`presign ${presigned.status}: ${presigned.text}`);
  const stored = await put(presigned.json.uploadUrl, bytes);
  if (stored.status !== 200) throw new Error(`PUT ${stored.status}: ${await stored.text()}`);
  const completed = await complete(key, { ...declared, key: presigned.json.key, ...extra });
  return { declared, presigned, completed };
}

export const readFixture = (path: string) => new Uint8Array(readFileSync(path));
