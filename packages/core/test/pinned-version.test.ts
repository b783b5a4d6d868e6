import { beforeEach, describe, expect, it } from "vitest";
import {
  ConflictError,
  DependencyError,
  InvalidPackageError,
  Presign,
  WHOLE_READ_BYTES,
  completeUpload,
  defaultUploadSettings,
  parseInput,
  presignUpload,
  type PresignGetInput,
} from "../src";
import { S3UrlSigner } from "../src/adapters/s3";
import { RangedPackageInspector, S3Requester, S3RestObjectStore, S3RestRangeReader } from "../src/adapters/s3/object-store.rest.s3";
import { downloadShared, ICON_SECONDS, shareIcon, type LinkVisitDeps } from "../src/links";
import { CountingRateLimiter, FakeInspector, MemoryFiles, MemoryShareLinks, MemoryStorage, PlainHasher, apiKey, fixedClock, sequentialIds } from "./support/fakes";

const links = { publicBaseUrl: "https://api.test", shareBaseUrl: "https://share.test" };
const metadata = { appName: "Demo", bundleId: "com.example.demo", version: "1.0", platform: "android" as const };
const declared = { fileName: "demo.apk", fileSize: 1234, fileType: "application/vnd.android.package-archive" };

/** A bucket with versioning on: every put makes a version, HEAD reports the current one. */
class VersionedStorage extends MemoryStorage {
  readonly gets: PresignGetInput[] = [];
  private n = 0;
  readonly versions = new Map<string, string>();
  override async head(key: string) {
    const o = this.objects.get(key);
    return o ? { size: o.size, versionId: this.versions.get(key)!, etag: `"etag-of-${this.versions.get(key)}"` } : undefined;
  }
  override async put(key: string, body: Uint8Array, contentType: string) {
    await super.put(key, body, contentType);
    const versionId = `v${++this.n}`;
    this.versions.set(key, versionId);
    return { versionId };
  }
  override async presignGet(input: PresignGetInput) {
    this.gets.push(input);
    return super.presignGet(input);
  }
  readonly deletes: [string, string | undefined][] = [];
  override async delete(key: string, versionId?: string) {
    this.deletes.push([key, versionId]);
  }
}

/** A visitor of the share link (core's visit-link.ts): the download and the icon as the share functions serve them. */
function visitDeps(files: MemoryFiles, storage: MemoryStorage): LinkVisitDeps {
  const limiter = () => new CountingRateLimiter(1000);
  return {
    links: new MemoryShareLinks(files),
    signer: storage,
    hasher: new PlainHasher(),
    clock: fixedClock(),
    limits: { sharePage: limiter(), download: limiter(), downloadPerLink: limiter(), password: { perClient: limiter(), perLinkClient: limiter(), ceiling: limiter() } },
    downloadExpiresSeconds: 300,
  };
}
const visit = (userKey: string) => ({ userKey, client: "203.0.113.1", headOnly: false });

function setup() {
  const files = new MemoryFiles();
  const storage = new VersionedStorage();
  const inspector = new FakeInspector({ metadata, icon: new Uint8Array([137, 80, 78, 71]) });
  const deps = { files, storage, signer: storage, inspector, clock: fixedClock(), ids: sequentialIds(), settings: defaultUploadSettings };
  return { files, storage, inspector, deps };
}

describe("complete pins the version it inspected", () => {
  let s: ReturnType<typeof setup>;
  let key: string;
  let fileId: string;
  beforeEach(async () => {
    s = setup();
    ({ key, fileId } = await presignUpload(s.deps, apiKey(), parseInput(Presign, declared)));
    await s.storage.put(key, new Uint8Array(1234), "application/octet-stream"); // the client's PUT: v1
  });

  it("reads the HEAD's version, stores it with the icon's, and signs downloads for them", async () => {
    const done = await completeUpload(s.deps, apiKey(), { key, ...declared }, links);
    // A small package: its bytes came with the version in the same read.
    expect(s.inspector.calls).toEqual([{ key, size: 1234, fileName: "demo.apk", versionId: "v1", etag: '"etag-of-v1"', bytes: new Uint8Array(1234) }]);
    expect(s.files.records.get(fileId)).toMatchObject({ status: "completed", versionId: "v1", iconVersionId: "v2" });

    // Someone still holding the upload URL writes other bytes: the current version moves on, the share does not.
    await s.storage.put(key, new Uint8Array(1234).fill(65), "application/octet-stream");
    const visitor = visitDeps(s.files, s.storage);
    await downloadShared(visitor, visit(done.userKey));
    await shareIcon(visitor, visit(done.userKey));
    expect(s.storage.gets).toEqual([
      { key, downloadName: "demo.apk", expiresInSeconds: 300, versionId: "v1" },
      { key: `uploads/prj_A/${fileId}/icon.png`, downloadName: "icon.png", expiresInSeconds: ICON_SECONDS, inline: true, versionId: "v2" },
    ]);
    // A repeated complete answers from the record, not from whatever the key holds now.
    expect(await completeUpload(s.deps, apiKey(), { key, ...declared }, links)).toEqual(done);
    expect(s.inspector.calls).toHaveLength(1);
  });

  it("keeps serving records completed before versioning, unpinned", async () => {
    const done = await completeUpload(s.deps, apiKey(), { key, ...declared }, links);
    const legacy = s.files.shares.get(done.userKey)!;
    delete legacy.versionId;
    delete legacy.iconVersionId;
    const visitor = visitDeps(s.files, s.storage);
    await downloadShared(visitor, visit(done.userKey));
    await shareIcon(visitor, visit(done.userKey));
    expect(s.storage.gets.map((g) => g.versionId)).toEqual([undefined, undefined]);
    expect(s.storage.gets.every((g) => !("versionId" in g))).toBe(true);
  });

  it("a complete that loses the race removes the icon version it wrote, so the winner's pinned icon stays current", async () => {
    const winner = {
      ...s.files.records.get(fileId)!,
      status: "completed" as const,
      userKey: "WINNER",
      metadata,
      completedAt: "t",
      versionId: "v1",
      iconKey: `uploads/prj_A/${fileId}/icon.png`,
      iconVersionId: "v-winner",
    };
    s.files.beforeWrite = () => s.files.records.set(fileId, winner);
    const result = await completeUpload(s.deps, apiKey(), { key, ...declared }, links);
    expect(result.userKey).toBe("WINNER");
    // Our icon PUT made version v2; only that version is removed, never the key (no delete marker).
    expect(s.storage.deletes).toEqual([[`uploads/prj_A/${fileId}/icon.png`, "v2"]]);
  });

  it("reads a small package whole in one request and a large one in place after a HEAD", async () => {
    const requests: string[] = [];
    const head = s.storage.head.bind(s.storage);
    const read = s.storage.read.bind(s.storage);
    let reading = false; // the fake's read answers through head
    s.storage.head = async (k) => (reading || requests.push("head"), head(k));
    s.storage.read = async (k, max) => {
      requests.push(`read ${max}`);
      reading = true;
      try {
        return await read(k, max);
      } finally {
        reading = false;
      }
    };
    await completeUpload(s.deps, apiKey(), { key, ...declared }, links);
    expect(requests).toEqual([`read ${WHOLE_READ_BYTES}`]);

    const large = { ...declared, fileSize: WHOLE_READ_BYTES + 1 };
    const presigned = await presignUpload(s.deps, apiKey(), parseInput(Presign, large));
    await s.storage.put(presigned.key, new Uint8Array(large.fileSize), "application/octet-stream");
    requests.length = 0;
    await completeUpload(s.deps, apiKey(), { key: presigned.key, ...large }, links);
    expect(requests).toEqual(["head"]);
    expect(s.inspector.calls.at(-1)).toEqual({ key: presigned.key, size: large.fileSize, fileName: "demo.apk", versionId: "v3", etag: '"etag-of-v3"' });
  });

  it("fails cleanly with 409 object_changed, leaving the upload pending, when the pinned version vanished", async () => {
    s.inspector.outcome = new ConflictError("object_changed", "replaced while read");
    const error = await completeUpload(s.deps, apiKey(), { key, ...declared }, links).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe("object_changed");
    expect(s.files.records.get(fileId)).toMatchObject({ status: "pending" });
    expect(s.files.shares.size).toBe(0);
  });
});

describe("S3 adapters and version ids", () => {
  const credentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };

  it("signs the version id into a download URL", async () => {
    const signer = new S3UrlSigner({ bucket: "b", region: "eu-west-1", endpoint: "http://127.0.0.1:4569", credentials });
    const input = { key: "uploads/p/f/a.apk", downloadName: "a.apk", expiresInSeconds: 300 };
    const pinned = new URL(await signer.presignGet({ ...input, versionId: "3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY" }));
    expect(pinned.searchParams.get("versionId")).toBe("3HL4kqtJlcpXroDTDmJ+rmSpXd3dIbrHY");
    const unpinned = new URL(await signer.presignGet(input));
    expect(unpinned.searchParams.has("versionId")).toBe(false);
  });

  /**
   * S3 as the requester's transport: every request answered by `answer` (an S3 error, or bytes with
   * the headers S3 sends), each request's method, URL and headers recorded.
   */
  type Answer = { error: string; status: number } | { body: Uint8Array | ReadableStream<Uint8Array>; headers?: Record<string, string> };
  function fakeS3(answer: () => Answer) {
    const requests: { method: string; url: URL; headers: Headers }[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      requests.push({ method: init?.method ?? "GET", url: new URL(String(input)), headers: new Headers(init?.headers) });
      const result = answer();
      if ("error" in result) {
        const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${result.error}</Code><Message>refused</Message></Error>`;
        return new Response(xml, { status: result.status, headers: { "content-type": "application/xml" } });
      }
      return new Response(result.body, { status: 200, headers: result.headers ?? {} });
    };
    return { s3: new S3Requester({ bucket: "b", region: "eu-west-1", endpoint: "http://127.0.0.1:4569", credentials, fetch }), requests };
  }
  const s3Error = (error: string, status: number) => () => ({ error, status });
  /** The complete function's inspector: ranges read by signed GETs (composition/complete.ts). */
  const inspector = (s3: S3Requester) => new RangedPackageInspector((p) => new S3RestRangeReader(s3, p));
  const pkg = { key: "uploads/p/f/a.apk", size: 100_000, fileName: "a.apk" };

  it("reads every range from the pinned version", async () => {
    const { s3, requests } = fakeS3(s3Error("InternalError", 500));
    await inspector(s3).inspect({ ...pkg, versionId: "v1", etag: '"e"' }).catch(() => undefined);
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) {
      expect(r.url.pathname).toBe(`/b/${pkg.key}`);
      expect(r.url.searchParams.get("versionId")).toBe("v1");
    }
  });

  it("guards reads with the ETag when the bucket gave no version id", async () => {
    const { s3, requests } = fakeS3(s3Error("InternalError", 500));
    await inspector(s3).inspect({ ...pkg, etag: '"e"' }).catch(() => undefined);
    expect(requests[0]!.headers.get("if-match")).toBe('"e"');
    expect(requests[0]!.url.searchParams.has("versionId")).toBe(false);
  });

  it.each([
    ["NoSuchVersion", 404],
    ["NoSuchKey", 404],
    ["PreconditionFailed", 412],
  ])("turns %s into 409 object_changed, not a retryable outage", async (name, status) => {
    const { s3 } = fakeS3(s3Error(name, status));
    const error = await inspector(s3).inspect({ ...pkg, versionId: "v1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe("object_changed");
  });

  it("parses a package it was handed whole without a request, and reads an object whole in one GET", async () => {
    const { s3, requests } = fakeS3(s3Error("InternalError", 500));
    const error = await inspector(s3).inspect({ ...pkg, size: 4, versionId: "v1", bytes: new Uint8Array(4) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPackageError);
    expect(requests).toEqual([]);

    const body = new Uint8Array([1, 2, 3]);
    const gets = fakeS3(() => ({ body, headers: { "content-length": "3", "x-amz-version-id": "v7", etag: '"e7"' } }));
    expect(await new S3RestObjectStore(gets.s3).read("k", 3)).toEqual({ size: 3, versionId: "v7", etag: '"e7"', body });
    let destroyed = false;
    // Pulled only when read (highWaterMark 0): a body left unread is cancelled, never downloaded.
    const unread = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(new Uint8Array(4)), cancel: () => void (destroyed = true) }, { highWaterMark: 0 });
    const larger = fakeS3(() => ({ body: unread, headers: { "content-length": "4", "x-amz-version-id": "v8" } }));
    expect(await new S3RestObjectStore(larger.s3).read("k", 3)).toEqual({ size: 4, versionId: "v8" });
    expect(destroyed).toBe(true);
    expect(gets.requests.map((r) => [r.method, r.url.pathname, r.url.search, r.headers.has("range")])).toEqual([["GET", "/b/k", "", false]]);
  });

  it("keeps a storage outage a DependencyError (503, upload stays pending)", async () => {
    const { s3 } = fakeS3(s3Error("InternalError", 500));
    const error = await inspector(s3).inspect({ ...pkg, versionId: "v1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
  });
});
