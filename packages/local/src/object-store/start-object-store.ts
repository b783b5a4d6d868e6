import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "./handle-request";
import { FileObjectStorage } from "./storage/file-object-storage";

export interface ObjectStoreOptions {
  /** Folder holding buckets and objects; created if missing, reused across restarts. */
  dataDir: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  region: string;
  /** The only credentials accepted; every request must be SigV4-signed with them. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Receives one line per request and internal errors; nothing is logged per request without it. */
  log?: (line: string) => void;
}

export interface RunningObjectStore {
  /** Base URL for an S3 client's `endpoint` (with `forcePathStyle: true`), e.g. http://127.0.0.1:4569 */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts a local S3-compatible object store backed by `dataDir`.
 *
 * Why not s3rver or similar: they accept any signature, so a presigned URL that is tampered with, expired,
 * or used with a different Content-Length/Content-Type would work locally and fail on S3. This store
 * verifies SigV4 on every request (header or presigned query) and refuses with S3's status and error code.
 * Path-style addressing only.
 */
export async function startObjectStore(options: ObjectStoreOptions): Promise<RunningObjectStore> {
  const storage = await FileObjectStorage.open(options.dataDir);
  const handle = createRequestHandler({
    storage,
    region: options.region,
    credentials: options.credentials,
    ...(options.log ? { log: options.log } : {}),
  });
  const server = createServer(
    {
      // Package uploads of several GB over a slow link must not hit Node's default 5-minute request timeout.
      requestTimeout: 0,
    },
    (req: IncomingMessage, res: ServerResponse) => void handle(req, res),
  );
  // Handling Expect: 100-continue ourselves lets a refused upload be answered before its body is sent.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => void handle(req, res, true));

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive sockets (and uploads in flight) would otherwise hold close() open indefinitely.
        server.closeAllConnections();
      }),
  };
}
