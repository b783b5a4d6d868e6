import { CreateBucketCommand, ListObjectVersionsCommand, PutBucketVersioningCommand, PutObjectCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { DependencyError } from "@hangar/core";
import { RangedPackageInspector, S3Requester, S3RestMultipartStore, S3RestObjectStore, S3RestRangeReader } from "@hangar/core/s3-rest";
import { S3ObjectPurger } from "@hangar/core/s3-purger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS, REGION, startStoreFixture, type StoreFixture } from "./object-store-fixture";

/**
 * The functions' S3 adapters on signed fetches (core's adapters/s3/object-store.rest.s3.ts and
 * object-purger.s3.ts) against the local store, which verifies SigV4 and keeps S3's semantics
 * (versions, ranges, conditional reads, multipart, DeleteObjects).
 */
let f: StoreFixture;
const bucket = "hangar-packages";
const plain = "hangar-unversioned";
let s3: S3Requester;

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
  await f.client.send(new CreateBucketCommand({ Bucket: plain }));
  await f.client.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: "Enabled" } }));
  s3 = new S3Requester({ bucket, region: REGION, endpoint: f.store.url, credentials: CREDENTIALS });
});
afterAll(() => f.dispose());

const bytes = (s: string) => new TextEncoder().encode(s);

describe("S3RestObjectStore", () => {
  it("puts, heads, reads and deletes an object, with its version and ETag; a key with spaces and unicode is signed as sent", async () => {
    const store = new S3RestObjectStore(s3);
    const key = "uploads/ws 1/Mon app ü+(1).ipa";
    const { versionId } = await store.put(key, bytes("hello package"), "application/octet-stream");
    expect(versionId).toMatch(/\S+/);
    const head = await store.head(key);
    expect(head).toEqual({ size: 13, versionId, etag: expect.stringMatching(/^".+"$/) });
    expect(await store.read(key, 1024)).toEqual({ ...head, body: bytes("hello package") });
    // Larger than maxBytes: the head only, the body left unread.
    expect(await store.read(key, 5)).toEqual(head);
    expect(await store.listVersions(key)).toEqual([{ versionId }]);
    await store.delete(key, versionId);
    expect(await store.head(key)).toBeUndefined();
    expect(await store.read(key, 1024)).toBeUndefined();
    expect(await store.listVersions(key)).toEqual([]);
  });

  it("lists exactly the key's versions and delete markers, not those of longer keys", async () => {
    const store = new S3RestObjectStore(s3);
    const a = await store.put("icons/a.png", bytes("1"), "image/png");
    const b = await store.put("icons/a.png", bytes("2"), "image/png");
    await store.put("icons/a.png.old", bytes("3"), "image/png");
    await store.delete("icons/a.png");
    const versions = (await store.listVersions("icons/a.png")).map((v) => v.versionId);
    expect(versions).toHaveLength(3);
    expect(versions).toEqual(expect.arrayContaining([a.versionId, b.versionId]));
  });

  it("answers a missing key as absent and every other failure as a DependencyError (503)", async () => {
    expect(await new S3RestObjectStore(s3).head("nothing/here")).toBeUndefined();
    const wrongKey = new S3Requester({ bucket, region: REGION, endpoint: f.store.url, credentials: { ...CREDENTIALS, secretAccessKey: "not-the-secret" } });
    const refused = await new S3RestObjectStore(wrongKey).put("k", bytes("x"), "text/plain").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DependencyError);
    expect((refused as Error).message).toBe("S3 PutObject failed (SignatureDoesNotMatch)");
    await expect(new S3RestObjectStore(wrongKey).head("k")).rejects.toBeInstanceOf(DependencyError);
  });
});

describe("S3RestRangeReader", () => {
  it("reads ranges of the version HEAD saw, even after the key was overwritten", async () => {
    const store = new S3RestObjectStore(s3);
    await store.put("pkg.apk", bytes("0123456789"), "application/vnd.android.package-archive");
    const head = (await store.head("pkg.apk"))!;
    await store.put("pkg.apk", bytes("abcdefghij"), "application/vnd.android.package-archive");
    const reader = new S3RestRangeReader(s3, { key: "pkg.apk", ...head });
    expect((await reader.read(2, 3)).toString()).toBe("234");
    expect((await reader.read(9, 1)).toString()).toBe("9");
    expect(reader.stats).toEqual({ reads: 2, bytesRead: 4 });
    await expect(reader.read(8, 3)).rejects.toMatchObject({ code: "read_failed" });
  });

  it("fails a read on an unversioned bucket once the object was replaced (If-Match), and the inspector calls that a changed object", async () => {
    const unversioned = new S3Requester({ bucket: plain, region: REGION, endpoint: f.store.url, credentials: CREDENTIALS });
    await f.client.send(new PutObjectCommand({ Bucket: plain, Key: "app.ipa", Body: "a".repeat(100) }));
    const head = (await new S3RestObjectStore(unversioned).head("app.ipa"))!;
    expect(head.versionId).toBeUndefined();
    await f.client.send(new PutObjectCommand({ Bucket: plain, Key: "app.ipa", Body: "b".repeat(100) }));
    const reader = new S3RestRangeReader(unversioned, { key: "app.ipa", ...head });
    const error = await reader.read(0, 4).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "read_failed", cause: { name: "PreconditionFailed", status: 412 } });
    const inspector = new RangedPackageInspector((pkg) => new S3RestRangeReader(unversioned, pkg));
    const changed = await inspector.inspect({ key: "app.ipa", fileName: "app.ipa", ...head }).catch((e: unknown) => e);
    expect(changed).toMatchObject({ code: "object_changed" });
  });
});

describe("S3RestMultipartStore", () => {
  it("creates an upload, lists its parts with their checksums, completes it, and answers a finished upload as gone", async () => {
    const multipart = new S3RestMultipartStore(s3);
    const key = "uploads/big.ipa";
    const uploadId = await multipart.create(key, "application/octet-stream", "CRC32C");
    const part1 = Buffer.alloc(5 * 1024 * 1024, 1);
    const part2 = Buffer.from("tail");
    for (const [n, body] of [part1, part2].entries()) {
      await f.client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: n + 1, Body: body, ChecksumAlgorithm: "CRC32C" }));
    }
    const parts = (await multipart.listParts(key, uploadId))!;
    expect(parts.map((p) => [p.partNumber, p.size])).toEqual([[1, part1.length], [2, 4]]);
    expect(parts.every((p) => /^".+"$/.test(p.etag) && p.checksumCRC32C)).toBe(true);
    expect(await multipart.complete(key, uploadId, parts)).toBe(true);
    expect((await new S3RestObjectStore(s3).head(key))?.size).toBe(part1.length + 4);
    expect(await multipart.listParts(key, uploadId)).toBeUndefined();
    expect(await multipart.complete(key, uploadId, parts)).toBe(false);
    await multipart.abort(key, uploadId);
  });

  it("aborts an upload: its parts are gone", async () => {
    const multipart = new S3RestMultipartStore(s3);
    const uploadId = await multipart.create("uploads/aborted.apk", "application/vnd.android.package-archive", "CRC32");
    expect(await multipart.listParts("uploads/aborted.apk", uploadId)).toEqual([]);
    await multipart.abort("uploads/aborted.apk", uploadId);
    expect(await multipart.listParts("uploads/aborted.apk", uploadId)).toBeUndefined();
  });
});

describe("S3ObjectPurger", () => {
  const listAll = async (prefix: string) => {
    const out = await f.client.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix }));
    return [...(out.Versions ?? []), ...(out.DeleteMarkers ?? [])].map((v) => v.Key);
  };

  it("deletes every version and delete marker under the prefix for good, and nothing beside it", async () => {
    const store = new S3RestObjectStore(s3);
    await store.put("uploads/purge-p/f1/a.apk", bytes("1"), "application/octet-stream");
    await store.put("uploads/purge-p/f1/a.apk", bytes("2"), "application/octet-stream");
    await store.put("uploads/purge-p/f2/b & <c>.ipa", bytes("3"), "application/octet-stream");
    await store.delete("uploads/purge-p/f2/b & <c>.ipa");
    await store.put("uploads/purge-px/f1/kept.apk", bytes("4"), "application/octet-stream");
    const purger = new S3ObjectPurger(s3);
    expect(await purger.purgePrefix("uploads/purge-p/")).toEqual({ deleted: 4, more: false });
    expect(await listAll("uploads/purge-p/")).toEqual([]);
    expect(await listAll("uploads/purge-px/")).toEqual(["uploads/purge-px/f1/kept.apk"]);
    expect(await purger.purgePrefix("uploads/purge-p/")).toEqual({ deleted: 0, more: false });
  });

  it("deletes a page of 1000 versions in one DeleteObjects and says when more remain", async () => {
    const prefix = "uploads/purge-many/";
    for (let i = 0; i < 1001; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, 1001 - i) }, (_, j) => f.client.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}${i + j}.apk`, Body: "x" }))),
      );
    }
    const requests: string[] = [];
    const counting = new S3Requester({
      bucket,
      region: REGION,
      endpoint: f.store.url,
      credentials: CREDENTIALS,
      fetch: (input, init) => (requests.push(`${init?.method} ${new URL(String(input)).search.split("&")[0]}`), fetch(input, init)),
    });
    const purger = new S3ObjectPurger(counting);
    expect(await purger.purgePrefix(prefix)).toEqual({ deleted: 1000, more: true });
    expect(requests).toEqual(["GET ?versions", "POST ?delete"]);
    expect(await purger.purgePrefix(prefix)).toEqual({ deleted: 1, more: false });
    expect(await listAll(prefix)).toEqual([]);
  });

  it("fails the page with a DependencyError when S3 could not delete a version, so the delete is resumed", async () => {
    const store = new S3RestObjectStore(s3);
    await store.put("uploads/purge-denied/f/a.apk", bytes("1"), "application/octet-stream");
    // S3 answers DeleteObjects 200 and names each version it refused (a bucket policy, an object lock).
    const denying = new S3Requester({
      bucket,
      region: REGION,
      endpoint: f.store.url,
      credentials: CREDENTIALS,
      fetch: async (input, init) =>
        init?.method === "POST"
          ? new Response(
              '<DeleteResult><Error><Key>uploads/purge-denied/f/a.apk</Key><VersionId>v</VersionId><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>',
              { status: 200 },
            )
          : fetch(input, init),
    });
    const error = await new S3ObjectPurger(denying).purgePrefix("uploads/purge-denied/").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toBe("S3 DeleteObject failed (AccessDenied)");
    expect(await listAll("uploads/purge-denied/")).toHaveLength(1);
  });

  it("answers a refused listing as a DependencyError (503)", async () => {
    const wrongKey = new S3Requester({ bucket, region: REGION, endpoint: f.store.url, credentials: { ...CREDENTIALS, secretAccessKey: "not-the-secret" } });
    const error = await new S3ObjectPurger(wrongKey).purgePrefix("uploads/").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toBe("S3 ListObjectVersions failed (SignatureDoesNotMatch)");
  });
});
