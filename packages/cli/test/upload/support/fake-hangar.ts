import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A scriptable stand-in for the service and its object storage, in one HTTP server, for tests that
 * need failures on cue (dropped PUTs, 5xx, 429, refused addresses). It checks what the real ones
 * check: credentials on presign/complete, the signed Content-Type and Content-Length on PUT.
 */

export const FAKE_CLIENT_ID = "hk_test_client";
export const FAKE_SECRET = "sk_test_Zx9secretvalue";

/** One scripted answer, used once, in order; when a route's script is empty it behaves normally. */
export type Scripted =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Close the connection without an answer (on PUT: after reading `afterBytes` of the body). */
  | { drop: true; afterBytes?: number }
  /** Never answer (the client's timeouts must act). */
  | { hang: true };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body?: unknown;
}

interface Pending {
  fileId: string;
  key: string;
  fileName: string;
  fileSize: number;
  fileType: string;
  stored?: { size: number; sha256: string };
  result?: Record<string, unknown>;
}

export interface FakeHangar {
  url: string;
  requests: RecordedRequest[];
  script: { presign: Scripted[]; put: Scripted[]; complete: Scripted[] };
  /** Lifetime of addresses handed out by presign (negative: already expired). */
  addressLifetimeMs: number;
  uploads: Map<string, Pending>;
  /** Stored bytes of the last successful PUT. */
  lastStored(): { size: number; sha256: string } | undefined;
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

const errorBody = (code: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: { code, message, requestId: `req-${randomBytes(4).toString("hex")}`, ...extra },
});

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

export async function startFakeHangar(): Promise<FakeHangar> {
  const uploads = new Map<string, Pending>();
  const requests: RecordedRequest[] = [];
  const script: FakeHangar["script"] = { presign: [], put: [], complete: [] };
  let lastStored: { size: number; sha256: string } | undefined;
  let counter = 0;

  const fake: FakeHangar = {
    url: "",
    requests,
    script,
    addressLifetimeMs: 15 * 60_000,
    uploads,
    lastStored: () => lastStored,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };

  const authorized = (req: IncomingMessage) =>
    req.headers["x-client-id"] === FAKE_CLIENT_ID && req.headers.authorization === `Bearer ${FAKE_SECRET}`;

  /** Plays the next scripted answer; true when it handled the request. */
  const play = (route: keyof FakeHangar["script"], req: IncomingMessage, res: ServerResponse): boolean => {
    const next = script[route].shift();
    if (!next) return false;
    if ("hang" in next) return true;
    if ("drop" in next) {
      if (route === "put" && next.afterBytes !== undefined) {
        let seen = 0;
        req.on("data", (chunk: Buffer) => {
          seen += chunk.length;
          if (seen >= next.afterBytes!) req.socket.destroy();
        });
        // Without a listener the client would wait for the 100 Continue forever.
        res.writeContinue();
        return true;
      }
      req.socket.destroy();
      return true;
    }
    json(res, next.status, next.body ?? errorBody(`http_${next.status}`, "scripted"), next.headers);
    return true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, expectContinue: boolean) => {
    const url = new URL(req.url ?? "/", fake.url);
    const record: RecordedRequest = { method: req.method ?? "", path: url.pathname, headers: req.headers };
    requests.push(record);

    if (req.method === "POST" && url.pathname === "/api/upload/api-key/presign") {
      record.body = await readJson(req);
      if (play("presign", req, res)) return;
      if (!authorized(req)) return json(res, 401, errorBody("invalid_credentials", "The client id and secret do not match an active API key"));
      const body = record.body as { fileName: string; fileSize: number; fileType: string };
      counter += 1;
      const fileId = `file${counter}`;
      const key = `uploads/p1/${fileId}/${body.fileName}`;
      uploads.set(key, { fileId, key, fileName: body.fileName, fileSize: body.fileSize, fileType: body.fileType });
      return json(
        res,
        200,
        {
          fileId,
          key,
          uploadUrl: `${fake.url}/storage/${encodeURIComponent(key)}?X-Amz-Signature=deadbeef${counter}`,
          expireAt: new Date(Date.now() + fake.addressLifetimeMs).toISOString(),
        },
        { "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "99", "X-RateLimit-Reset": String(Math.ceil(Date.now() / 1000) + 60) },
      );
    }

    if (req.method === "PUT" && url.pathname.startsWith("/storage/")) {
      if (play("put", req, res)) return;
      const upload = uploads.get(decodeURIComponent(url.pathname.slice("/storage/".length)));
      const xml = (status: number, code: string, message: string) => {
        res.writeHead(status, { "Content-Type": "application/xml", Connection: "close" });
        res.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>s3req</RequestId></Error>`);
      };
      if (!upload) return xml(404, "NoSuchUpload", "unknown address");
      if (req.headers.authorization) return xml(400, "InvalidArgument", "service credentials sent to storage");
      if (req.headers["content-type"] !== "application/octet-stream" || req.headers["content-length"] !== String(upload.fileSize)) {
        return xml(403, "SignatureDoesNotMatch", "signed headers differ");
      }
      if (expectContinue) res.writeContinue();
      const hash = createHash("sha256");
      let size = 0;
      for await (const chunk of req) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      upload.stored = { size, sha256: hash.digest("hex") };
      lastStored = upload.stored;
      res.writeHead(200, { ETag: '"etag"' });
      return res.end();
    }

    if (req.method === "POST" && url.pathname === "/api/upload/api-key/complete") {
      record.body = await readJson(req);
      if (play("complete", req, res)) return;
      if (!authorized(req)) return json(res, 401, errorBody("invalid_credentials", "bad key"));
      const body = record.body as { key: string; fileName: string; fileSize: number; fileType: string };
      const upload = uploads.get(body.key);
      if (!upload) return json(res, 404, errorBody("upload_not_found", "No pending upload"));
      if (!upload.stored) return json(res, 409, errorBody("object_missing", "Nothing was uploaded to this key yet"));
      upload.result ??= {
        message: "Upload completed",
        fileId: upload.fileId,
        userKey: `uk${upload.fileId}`,
        downloadUrl: `${fake.url}/download/uk${upload.fileId}`,
        shareUrl: `${fake.url}/share/uk${upload.fileId}`,
        metadata: { appName: "Fake App", bundleId: "com.example.fake", version: "1.2.3", buildNumber: "45", platform: "android" },
      };
      return json(res, 200, upload.result);
    }
    json(res, 404, errorBody("route_not_found", "no such route"));
  };

  // A client that aborts mid-body makes reading the request throw; that is the client's business.
  const safely = (req: IncomingMessage, res: ServerResponse, expectContinue: boolean) =>
    void handle(req, res, expectContinue).catch(() => res.destroy());
  const server: Server = createServer((req, res) => safely(req, res, false));
  server.on("checkContinue", (req, res) => safely(req, res, true));
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
