import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { CreateBucketCommand, HeadBucketCommand, PutBucketVersioningCommand, S3Client } from "@aws-sdk/client-s3";
import { migrateStorageCounts, migrateToWorkspaces } from "@hangar/core/migrations";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { startDynamoDbLocal, stopLeftoverDynamoDbLocal } from "./dynamodb/dynamodb-local";
import { ensureTable } from "./dynamodb/ensure-table";
import { startBuildMailSender } from "./housekeeping/build-mail-sender";
import { DEFAULT_SWEEP_SECONDS, startDeleteSweep } from "./housekeeping/delete-sweep";
import { DEFAULT_DAILY_SECONDS, startDailyHousekeeping } from "./housekeeping/daily-housekeeping";
import { startWebhookWorker } from "./housekeeping/webhook-worker";
import { startLocalApiServer } from "./http/local-api-server";
import { startMailCatcher } from "./mail/mail-catcher";
import { startObjectStore } from "./object-store";
import { acquireStackLock } from "./stack-lock";

/**
 * Fixed local credentials: the local object store verifies SigV4 against them, and DynamoDB Local
 * 2.x+ only accepts access key ids made of letters and digits.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: "hangarlocal", secretAccessKey: "hangarlocalsecret" } as const;
export const LOCAL_REGION = "us-east-1";
/** Services nobody outside this machine may reach (no authentication): DynamoDB Local, MailDev. */
const LOOPBACK = "127.0.0.1";

export interface LocalStackOptions {
  /** Everything persistent lives here (DynamoDB file, objects, mail); default `.hangar`. */
  dataDir: string;
  /** Interface of the API and the object store (DynamoDB Local and MailDev are loopback only). */
  host: string;
  /** API port; 0 picks free ports for everything. Others follow: store +1, DynamoDB +2, mail web +3, SMTP +4. */
  port: number;
  s3Port?: number;
  dynamoPort?: number;
  mailWebPort?: number;
  smtpPort?: number;
  tableName?: string;
  bucketName?: string;
  /** Keep DynamoDB Local's data in memory (faster writes, nothing survives a restart). */
  dynamoInMemory?: boolean;
  /** The built dashboard to serve at `/` (packages/web/dist); undefined serves a "not built" page. */
  dashboardDir?: string;
  /** Extra settings for the handlers (HANGAR_* variables). */
  env?: Record<string, string | undefined>;
  /**
   * Where the handlers reach the object store, and so the host presigned URLs name: a proxy in
   * front of the store (bench:upload's capped link). Default: the store itself. SigV4 signs the
   * host, so a client must reach the store through the address its URL was signed for.
   */
  s3ProxyUrl?: string;
  /** How often the resume-deletes sweep runs (on AWS: every 15 minutes); default 60 s. */
  deleteSweepSeconds?: number;
  /** How often the daily housekeeping (retention, expiry warnings) runs; default once a day, and once at start. */
  dailyHousekeepingSeconds?: number;
  /**
   * A service died while the stack runs (DynamoDB Local's JVM): the stack cannot serve anymore.
   * Default: log it. `npm start` stops and exits non-zero.
   */
  onServiceFailure?: (error: Error) => void;
  /** Progress lines (a leftover JVM stopped, …); default stdout. */
  log?: (line: string) => void;
}

/** What a running stack tells its clients (and writes to `<dataDir>/stack.json`). */
export interface LocalStackInfo {
  baseUrl: string;
  s3Endpoint: string;
  dynamoEndpoint: string;
  /** MailDev's web UI and REST API: `GET <mailUrl>/api/email` lists the mail the stack sent. */
  mailUrl: string;
  /** MailDev's SMTP port on 127.0.0.1 (the handlers get `HANGAR_SMTP_URL`). */
  smtpPort: number;
  tableName: string;
  bucketName: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The stack's process. */
  pid: number;
  /** Absolute data directory (key:create finds stack.json there). */
  dataDir: string;
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

/** Whether host:port can be listened on right now. */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((ok) => {
    const server = createServer();
    server.once("error", () => ok(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => ok(true)));
  });
}

/** A port taken by another process; `port` and `code` as Node's own EADDRINUSE errors have them. */
export class PortInUseError extends Error {
  readonly code = "EADDRINUSE";
  constructor(
    readonly port: number,
    readonly service: string,
  ) {
    super(`port ${port} (${service}) is in use`);
    this.name = "PortInUseError";
  }
}

/** The stack's services in PORT order, with the offset of each from PORT. */
const SERVICES = [
  { name: "API", offset: 0, loopbackOnly: false },
  { name: "object store", offset: 1, loopbackOnly: false },
  { name: "DynamoDB Local", offset: 2, loopbackOnly: true },
  { name: "mail web", offset: 3, loopbackOnly: true },
  { name: "SMTP", offset: 4, loopbackOnly: true },
] as const;

/** A PORT whose whole range (PORT … PORT+4) is free now: what to suggest when PORT is taken. */
export async function freeBasePort(host: string): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = await freePort(host);
    if (base + SERVICES.length - 1 > 65535) continue;
    const free = await Promise.all(SERVICES.map((s) => portIsFree(s.loopbackOnly ? LOOPBACK : host, base + s.offset)));
    if (free.every(Boolean)) return base;
  }
  return 0;
}

export const stackInfoPath = (dataDir: string) => join(dataDir, "stack.json");

/** Every port the stack will listen on, checked free up front so a busy one is named (and no service is half-started). */
async function choosePorts(options: LocalStackOptions): Promise<number[]> {
  const explicit = [undefined, options.s3Port, options.dynamoPort, options.mailWebPort, options.smtpPort];
  const ports = await Promise.all(
    SERVICES.map(async (service, i) => {
      const host = service.loopbackOnly ? LOOPBACK : options.host;
      return explicit[i] ?? (options.port === 0 ? await freePort(host) : options.port + service.offset);
    }),
  );
  const checks = await Promise.all(
    SERVICES.map(async (service, i) => ({ service, port: ports[i]!, free: await portIsFree(service.loopbackOnly ? LOOPBACK : options.host, ports[i]!) })),
  );
  const busy = checks.find((c) => !c.free);
  if (busy) throw new PortInUseError(busy.port, busy.service.name);
  const duplicate = ports.find((port, i) => ports.indexOf(port) !== i);
  if (duplicate !== undefined) throw new Error(`port ${duplicate} is given to two services; each needs its own`);
  return ports;
}

function valueOf<T>(result: PromiseSettledResult<T>): T {
  if (result.status === "rejected") throw result.reason;
  return result.value;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const log = options.log ?? ((line: string) => console.log(line));
  const tableName = options.tableName ?? "hangar";
  const bucketName = options.bucketName ?? "hangar-uploads";
  // First: a second stack on this directory must stop here, before it touches anything.
  const lock = acquireStackLock(dataDir);

  const closers: (() => Promise<void>)[] = [];
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    rmSync(stackInfoPath(dataDir), { force: true });
    for (const c of closers.reverse()) await c().catch(() => undefined);
    lock.release();
  };
  try {
    // A JVM a killed run of this directory left behind may hold the very port we are about to check.
    await stopLeftoverDynamoDbLocal(dataDir, log);
    const [apiPort, s3Port, dynamoPort, mailWebPort, smtpPort] = (await choosePorts(options)) as [number, number, number, number, number];
    // Wait for all to settle and register each one that came up: if another fails, the ones
    // that started are stopped too (no orphaned DynamoDB Local JVM).
    const started = <T extends { close(): Promise<void> }>(service: T): T => {
      closers.push(() => service.close());
      return service;
    };
    const onServiceFailure = options.onServiceFailure ?? ((error: Error) => console.error(`Local stack: ${error.message}`));
    const [dynamoResult, storeResult, mailResult] = await Promise.allSettled([
      startDynamoDbLocal({
        ...(options.dynamoInMemory ? {} : { dataDir: join(dataDir, "dynamodb") }),
        stateDir: dataDir,
        port: dynamoPort,
        region: LOCAL_REGION,
        credentials: LOCAL_CREDENTIALS,
        onUnexpectedExit: (error) => {
          if (!closed) onServiceFailure(error);
        },
      }).then(started),
      startObjectStore({ dataDir: join(dataDir, "s3"), host: options.host, port: s3Port, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }).then(started),
      startMailCatcher({ mailDir: join(dataDir, "mail"), smtpPort, webPort: mailWebPort }).then(started),
    ]);
    const [dynamo, store, mail] = [valueOf(dynamoResult), valueOf(storeResult), valueOf(mailResult)];

    const dynamoClient = new DynamoDBClient({ endpoint: dynamo.endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
    await ensureTable(dynamoClient, tableName);
    // Data written before workspaces moves onto them before the first request is served (as the
    // deploy's migration script does on AWS); later starts stop at its marker after one read.
    const migrated = await migrateToWorkspaces(DynamoDBDocumentClient.from(dynamoClient), tableName);
    if (!migrated.skipped && migrated.workspacesCreated + migrated.projectsMoved + migrated.keysUpdated + migrated.pendingDeletesUpdated > 0) {
      log(
        `Moved data onto workspaces: ${migrated.workspacesCreated} personal workspaces, ${migrated.projectsMoved} projects, ` +
          `${migrated.keysUpdated} keys, ${migrated.pendingDeletesUpdated} pending deletes`,
      );
    }
    // Then every project stored before the storage counter is counted (as the same script does).
    const counted = await migrateStorageCounts(DynamoDBDocumentClient.from(dynamoClient), tableName);
    if (counted.projectsCounted > 0) log(`Counted the storage of ${counted.projectsCounted} projects`);
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
    const baseUrl = `http://${options.host}:${apiPort}`;
    Object.assign(process.env, {
      ...Object.fromEntries(Object.entries(options.env ?? {}).filter(([, v]) => v !== undefined)),
      HANGAR_TABLE_NAME: tableName,
      HANGAR_BUCKET_NAME: bucketName,
      HANGAR_PUBLIC_URL: options.env?.HANGAR_PUBLIC_URL ?? baseUrl,
      HANGAR_DYNAMODB_ENDPOINT: dynamo.endpoint,
      HANGAR_S3_ENDPOINT: options.s3ProxyUrl ?? store.url,
      HANGAR_SMTP_URL: options.env?.HANGAR_SMTP_URL ?? `smtp://${LOOPBACK}:${mail.smtpPort}`,
      HANGAR_LOCAL: "1",
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    });
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;

    const api = await startLocalApiServer({
      host: options.host,
      port: apiPort,
      ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
      imageOrigin: options.s3ProxyUrl ?? store.url,
      publicUrl: process.env.HANGAR_PUBLIC_URL!,
      ...(process.env.HANGAR_SHARE_BASE_URL ? { shareUrl: process.env.HANGAR_SHARE_BASE_URL } : {}),
    });
    closers.push(() => api.close());
    const sweep = await startDeleteSweep({ everySeconds: options.deleteSweepSeconds ?? DEFAULT_SWEEP_SECONDS, log });
    closers.push(() => sweep.close());
    // Retention and expiry warnings (docs/release-safety.md): on AWS an EventBridge schedule.
    const daily = await startDailyHousekeeping({ everySeconds: options.dailyHousekeepingSeconds ?? DEFAULT_DAILY_SECONDS, log });
    closers.push(() => daily.close());
    const buildMail = await startBuildMailSender({ log });
    closers.push(() => buildMail.close());
    // Webhook deliveries (docs/webhooks.md): on AWS a queue-triggered function, here a poller.
    const webhooks = await startWebhookWorker({ log });
    closers.push(() => webhooks.close());

    const info: LocalStackInfo = {
      baseUrl: api.url,
      s3Endpoint: store.url,
      dynamoEndpoint: dynamo.endpoint,
      mailUrl: mail.url,
      smtpPort: mail.smtpPort,
      tableName,
      bucketName,
      region: LOCAL_REGION,
      // Named fields only: the SDK tags credential objects it was given with a "$source" field.
      credentials: { accessKeyId: LOCAL_CREDENTIALS.accessKeyId, secretAccessKey: LOCAL_CREDENTIALS.secretAccessKey },
      pid: process.pid,
      dataDir,
    };
    // Written last and atomically (rename): whoever sees the file may use the stack at once.
    writeFileSync(`${stackInfoPath(dataDir)}.tmp`, `${JSON.stringify(info, null, 2)}\n`);
    renameSync(`${stackInfoPath(dataDir)}.tmp`, stackInfoPath(dataDir));
    return { info, close };
  } catch (error) {
    await close();
    throw error;
  }
}
