import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32c } from "@hangar/inspect/crc32c";
import { crc32 } from "node:zlib";

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
  /** A multipart upload: its id, part size and the parts stored so far. */
  multipart?: { uploadId: string; partSize: number; algorithm: "CRC32C" | "CRC32"; parts: Map<number, StoredPart> };
}

export interface StoredPart {
  etag: string;
  bytes: Buffer;
  /** The checksum of the upload's algorithm the part was verified against. */
  checksum: string;
}

/** A part PUT as storage saw it. */
export interface PartPut {
  partNumber: number;
  status: number;
  length: number;
}

export interface FakeHangar {
  url: string;
  requests: RecordedRequest[];
  script: { presign: Scripted[]; put: Scripted[]; complete: Scripted[]; parts: Scripted[]; part: Scripted[] };
  /** Part size multipart start answers (the real service: 8 MiB or more). */
  partSize: number;
  /** Lifetime of part URLs (the integration stack: 15 s). */
  partUrlLifetimeMs: number;
  /** The next this many part-URL answers carry URLs that have already expired. */
  expiredPartBatches: number;
  /** Storage holds each part's answer this long (so parallel parts overlap even on loopback). */
  partAnswerDelayMs: number;
  /** Once this many part PUTs have been stored, every further one answers 400 (final). */
  refusePartsAfter: number | undefined;
  /** Every part PUT that reached storage, in order; and the most PUTs in flight at once. */
  partPuts: PartPut[];
  maxPartsInFlight: number;
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
  const script: FakeHangar["script"] = { presign: [], put: [], complete: [], parts: [], part: [] };
  let partsInFlight = 0;
  let lastStored: { size: number; sha256: string } | undefined;
  let counter = 0;

  const fake: FakeHangar = {
    url: "",
    requests,
    script,
    addressLifetimeMs: 15 * 60_000,
    partSize: 512 * 1024,
    partUrlLifetimeMs: 15 * 60_000,
    expiredPartBatches: 0,
    refusePartsAfter: undefined,
    partAnswerDelayMs: 0,
    partPuts: [],
    maxPartsInFlight: 0,
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

  const resultOf = (upload: Pending) =>
    (upload.result ??= {
      message: "Upload completed",
      fileId: upload.fileId,
      userKey: `uk${upload.fileId}`,
      downloadUrl: `${fake.url}/download/uk${upload.fileId}`,
      shareUrl: `${fake.url}/share/uk${upload.fileId}`,
      metadata: { appName: "Fake App", bundleId: "com.example.fake", version: "1.2.3", buildNumber: "45", platform: "android" },
    });

  /** Reads complete's body once; true when it names an upload id (the multipart form). */
  const peekUploadId = async (record: RecordedRequest, req: IncomingMessage) => {
    record.body = await readJson(req);
    return typeof (record.body as { uploadId?: unknown } | undefined)?.uploadId === "string";
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

    if (url.pathname === "/api/upload/api-key/multipart" && req.method === "POST") {
      record.body = await readJson(req);
      if (play("presign", req, res)) return;
      if (!authorized(req)) return json(res, 401, errorBody("invalid_credentials", "bad key"));
      const body = record.body as { fileName: string; fileSize: number; fileType: string; checksumAlgorithm?: "CRC32C" | "CRC32" };
      counter += 1;
      const fileId = `file${counter}`;
      const key = `uploads/p1/${fileId}/${body.fileName}`;
      const algorithm = body.checksumAlgorithm ?? "CRC32C";
      const multipart = { uploadId: `up${counter}`, partSize: fake.partSize, algorithm, parts: new Map<number, StoredPart>() };
      uploads.set(key, { fileId, key, fileName: body.fileName, fileSize: body.fileSize, fileType: body.fileType, multipart });
      return json(res, 200, {
        fileId,
        key,
        uploadId: multipart.uploadId,
        partSize: multipart.partSize,
        partCount: Math.ceil(body.fileSize / multipart.partSize),
        parts: [],
        expireAt: new Date(Date.now() + fake.partUrlLifetimeMs).toISOString(),
      });
    }

    if (url.pathname === "/api/upload/api-key/multipart/parts" && req.method === "POST") {
      record.body = await readJson(req);
      if (play("parts", req, res)) return;
      if (!authorized(req)) return json(res, 401, errorBody("invalid_credentials", "bad key"));
      const body = record.body as { key: string; uploadId: string; partChecksums: { partNumber: number; checksumCRC32C?: string; checksumCRC32?: string }[] };
      const upload = uploads.get(body.key);
      if (!upload?.multipart || upload.multipart.uploadId !== body.uploadId || upload.result) {
        return json(res, 404, errorBody("upload_not_found", "No pending multipart upload with this key and upload id"));
      }
      if (body.partChecksums.length < 1 || body.partChecksums.length > 1000) return json(res, 400, errorBody("invalid_request", "1 to 1,000 parts"));
      const field = upload.multipart.algorithm === "CRC32" ? "checksumCRC32" : "checksumCRC32C";
      if (body.partChecksums.some((p) => typeof p[field] !== "string")) return json(res, 400, errorBody("invalid_request", `parts carry ${field}`));
      const expired = fake.expiredPartBatches > 0;
      if (expired) fake.expiredPartBatches -= 1;
      const expiresAt = expired ? Date.now() - 1000 : Date.now() + fake.partUrlLifetimeMs;
      return json(res, 200, {
        parts: body.partChecksums.map((p) => ({
          partNumber: p.partNumber,
          uploadUrl:
            `${fake.url}/part/${encodeURIComponent(body.key)}?uploadId=${body.uploadId}&partNumber=${p.partNumber}` +
            `&crc=${encodeURIComponent(p[field]!)}&expires=${expiresAt}`,
        })),
        expireAt: new Date(expiresAt).toISOString(),
      });
    }

    if (req.method === "PUT" && url.pathname.startsWith("/part/")) {
      const partNumber = Number(url.searchParams.get("partNumber"));
      const xml = (status: number, code: string, message: string) => {
        fake.partPuts.push({ partNumber, status, length: Number(req.headers["content-length"]) });
        res.writeHead(status, { "Content-Type": "application/xml", Connection: "close" });
        res.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>s3req</RequestId></Error>`);
      };
      if (script.part.length > 0) {
        fake.partPuts.push({ partNumber, status: 0, length: Number(req.headers["content-length"]) });
        if (play("part", req, res)) return;
      }
      if (fake.refusePartsAfter !== undefined && fake.partPuts.filter((p) => p.status === 200).length >= fake.refusePartsAfter) {
        return xml(400, "InvalidRequest", "scripted refusal");
      }
      const upload = uploads.get(decodeURIComponent(url.pathname.slice("/part/".length)));
      if (Number(url.searchParams.get("expires")) <= Date.now()) return xml(403, "AccessDenied", "Request has expired");
      if (!upload?.multipart || upload.multipart.uploadId !== url.searchParams.get("uploadId") || upload.result) {
        return xml(404, "NoSuchUpload", "The specified upload does not exist");
      }
      const count = Math.ceil(upload.fileSize / upload.multipart.partSize);
      const length = partNumber < count ? upload.multipart.partSize : upload.fileSize - (count - 1) * upload.multipart.partSize;
      if (req.headers["content-length"] !== String(length)) return xml(403, "SignatureDoesNotMatch", "signed length differs");
      if (expectContinue) res.writeContinue();
      partsInFlight += 1;
      fake.maxPartsInFlight = Math.max(fake.maxPartsInFlight, partsInFlight);
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of req) chunks.push(chunk as Buffer);
        if (fake.partAnswerDelayMs > 0) await new Promise((wait) => setTimeout(wait, fake.partAnswerDelayMs));
      } finally {
        partsInFlight -= 1;
      }
      const bytes = Buffer.concat(chunks);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(upload.multipart.algorithm === "CRC32" ? crc32(bytes) : crc32c(bytes));
      if (crc.toString("base64") !== url.searchParams.get("crc")) {
        return xml(400, "BadDigest", `The ${upload.multipart.algorithm} you specified did not match the calculated checksum`);
      }
      const etag = `"${createHash("md5").update(bytes).digest("hex")}"`;
      upload.multipart.parts.set(partNumber, { etag, bytes, checksum: crc.toString("base64") });
      fake.partPuts.push({ partNumber, status: 200, length: bytes.length });
      res.writeHead(200, { ETag: etag });
      return res.end();
    }

    if (req.method === "POST" && url.pathname === "/api/upload/api-key/complete" && (await peekUploadId(record, req))) {
      if (play("complete", req, res)) return;
      if (!authorized(req)) return json(res, 401, errorBody("invalid_credentials", "bad key"));
      const body = record.body as { key: string; uploadId: string; parts: { partNumber: number; etag: string }[] };
      const upload = uploads.get(body.key);
      if (!upload?.multipart || upload.multipart.uploadId !== body.uploadId) return json(res, 404, errorBody("upload_not_found", "No pending upload"));
      if (!upload.result) {
        const { parts } = upload.multipart;
        const count = Math.ceil(upload.fileSize / upload.multipart.partSize);
        const listed = new Map(body.parts.map((p) => [p.partNumber, p.etag]));
        const missing = Array.from({ length: count }, (_, i) => i + 1).filter((n) => !listed.has(n) || !parts.has(n));
        if (missing.length > 0) return json(res, 400, errorBody("part_missing", `Part ${missing[0]} was not uploaded`, { partNumbers: missing.slice(0, 20) }));
        const wrong = body.parts.filter((p) => parts.get(p.partNumber)?.etag !== p.etag).map((p) => p.partNumber);
        if (wrong.length > 0) return json(res, 400, errorBody("part_mismatch", `The ETag of part ${wrong[0]} is not the stored part's`, { partNumbers: wrong.slice(0, 20) }));
        const whole = Buffer.concat(Array.from({ length: count }, (_, i) => parts.get(i + 1)!.bytes));
        upload.stored = { size: whole.length, sha256: createHash("sha256").update(whole).digest("hex") };
        lastStored = upload.stored;
      }
      return json(res, 200, resultOf(upload));
    }

    if (req.method === "POST" && url.pathname === "/api/upload/api-key/complete") {
      if (play("complete", req, res)) return;
      if (!authorized(req)) return json(res, 401, errorBody("invalid_credentials", "bad key"));
      const body = record.body as { key: string; fileName: string; fileSize: number; fileType: string };
      const upload = uploads.get(body.key);
      if (!upload) return json(res, 404, errorBody("upload_not_found", "No pending upload"));
      if (!upload.stored) return json(res, 409, errorBody("object_missing", "Nothing was uploaded to this key yet"));
      return json(res, 200, resultOf(upload));
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
