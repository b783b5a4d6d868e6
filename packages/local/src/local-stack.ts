import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, HeadBucketCommand, PutBucketVersioningCommand, S3Client } from "@aws-sdk/client-s3";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { startDynamoDbLocal } from "./dynamodb/dynamodb-local";
import { ensureTable } from "./dynamodb/ensure-table";
import { startLocalApiServer } from "./http/local-api-server";
import { startObjectStore } from "./object-store";

/**
 * Fixed local credentials: the local object store verifies SigV4 against them, and DynamoDB Local
 * 2.x+ only accepts access key ids made of letters and digits.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: "hangarlocal", secretAccessKey: "hangarlocalsecret" } as const;
export const LOCAL_REGION = "us-east-1";

export interface LocalStackOptions {
  /** Everything persistent lives here (DynamoDB file, objects); default `.hangar`. */
  dataDir: string;
  host: string;
  /** API port; 0 picks free ports for everything. */
  port: number;
  s3Port?: number;
  dynamoPort?: number;
  tableName?: string;
  bucketName?: string;
  /** Keep DynamoDB Local's data in memory (faster writes, nothing survives a restart). */
  dynamoInMemory?: boolean;
  /** Extra settings for the handlers (HANGAR_* variables). */
  env?: Record<string, string | undefined>;
}

/** What a running stack tells its clients (and writes to `<dataDir>/stack.json`). */
export interface LocalStackInfo {
  baseUrl: string;
  s3Endpoint: string;
  dynamoEndpoint: string;
  tableName: string;
  bucketName: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  pid: number;
}

export interface LocalStack {
  info: LocalStackInfo;
  close(): Promise<void>;
}

export function freePort(host: string): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => ok(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export const stackInfoPath = (dataDir: string) => join(dataDir, "stack.json");

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const tableName = options.tableName ?? "hangar";
  const bucketName = options.bucketName ?? "hangar-uploads";
  const pick = async (explicit: number | undefined, offset: number) =>
    explicit ?? (options.port === 0 ? await freePort(options.host) : options.port + offset);

  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const c of closers.reverse()) await c().catch(() => undefined);
  };
  try {
    // Wait for both to settle and register each one that came up: if the other fails, the one
    // that started is stopped too (no orphaned DynamoDB Local JVM).
    const started = <T extends { close(): Promise<void> }>(service: T): T => {
      closers.push(() => service.close());
      return service;
    };
    const [dynamoResult, storeResult] = await Promise.allSettled([
      pick(options.dynamoPort, 2).then(async (port) =>
        started(
          await startDynamoDbLocal({
            ...(options.dynamoInMemory ? {} : { dataDir: join(dataDir, "dynamodb") }),
            port,
            region: LOCAL_REGION,
            credentials: LOCAL_CREDENTIALS,
          }),
        ),
      ),
      pick(options.s3Port, 1).then(async (port) =>
        started(
          await startObjectStore({ dataDir: join(dataDir, "s3"), host: options.host, port, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }),
        ),
      ),
    ]);
    if (dynamoResult.status === "rejected") throw dynamoResult.reason;
    if (storeResult.status === "rejected") throw storeResult.reason;
    const [dynamo, store] = [dynamoResult.value, storeResult.value];

    const dynamoClient = new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    await ensureTable(dynamoClient, tableName);
    dynamoClient.destroy();
    const s3 = new S3Client({
      endpoint: store.url,
      forcePathStyle: true,
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      requestChecksumCalculation: "WHEN_REQUIRED",
    });
    try {
      await s3.send(new HeadBucketCommand({ Bucket: bucketName }));
    } catch {
      await s3.send(new CreateBucketCommand({ Bucket: bucketName }));
    }
    // As on AWS: complete pins the version it inspected, so a later PUT to the upload URL cannot swap the build.
    await s3.send(new PutBucketVersioningCommand({ Bucket: bucketName, VersioningConfiguration: { Status: "Enabled" } }));
    s3.destroy();

    // The handlers read their settings from the environment, exactly as on Lambda.
    const apiPort = options.port === 0 ? await freePort(options.host) : options.port;
    const baseUrl = `http://${options.host}:${apiPort}`;
    Object.assign(process.env, {
      ...Object.fromEntries(Object.entries(options.env ?? {}).filter(([, v]) => v !== undefined)),
      HANGAR_TABLE_NAME: tableName,
      HANGAR_BUCKET_NAME: bucketName,
      HANGAR_PUBLIC_URL: options.env?.HANGAR_PUBLIC_URL ?? baseUrl,
      HANGAR_DYNAMODB_ENDPOINT: dynamo.endpoint,
      HANGAR_S3_ENDPOINT: store.url,
      HANGAR_LOCAL: "1",
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    });
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;

    const api = await startLocalApiServer({ host: options.host, port: apiPort });
    closers.push(() => api.close());

    const info: LocalStackInfo = {
      baseUrl: api.url,
      s3Endpoint: store.url,
      dynamoEndpoint: dynamo.endpoint,
      tableName,
      bucketName,
      region: LOCAL_REGION,
      credentials: { ...LOCAL_CREDENTIALS },
      pid: process.pid,
    };
    writeFileSync(stackInfoPath(dataDir), `${JSON.stringify(info, null, 2)}\n`);
    return { info, close };
  } catch (error) {
    await close();
    throw error;
  }
}
