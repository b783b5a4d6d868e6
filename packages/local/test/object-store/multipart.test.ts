import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  UploadPartCommand,
  type ChecksumAlgorithm,
  type CompletedPart,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { crc32c } from "../../src/object-store/body/crc32c";
import { objectExists, s3ErrorOf, startStoreFixture, type StoreFixture } from "./object-store-fixture";
import { errorCode } from "./raw-http";

let f: StoreFixture;
const bucket = "multipart";
const MiB = 1024 * 1024;
/** S3's minimum for every part but the last. */
const MIN_PART = 5 * MiB;

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
  await f.client.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: "Enabled" } }));
});
afterAll(() => f.dispose());

const md5 = (data: Buffer) => createHash("md5").update(data).digest();
const crc32cBase64 = (data: Buffer) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32c(data));
  return out.toString("base64");
};
/** S3's ETag of a multipart object: MD5 of the concatenated binary part MD5s, then `-<count>`. */
const multipartEtag = (parts: Buffer[]) => `"${createHash("md5").update(Buffer.concat(parts.map(md5))).digest("hex")}-${parts.length}"`;

async function create(key: string, checksumAlgorithm?: ChecksumAlgorithm, inBucket = bucket): Promise<string> {
  const created = await f.client.send(
    new CreateMultipartUploadCommand({
      Bucket: inBucket,
      Key: key,
      ContentType: "application/octet-stream",
      ...(checksumAlgorithm ? { ChecksumAlgorithm: checksumAlgorithm } : {}),
    }),
  );
  expect(created.UploadId).toBeTruthy();
  return created.UploadId!;
}

async function upload(
  key: string,
  uploadId: string,
  partNumber: number,
  body: Buffer,
  checksum?: string,
  inBucket = bucket,
): Promise<CompletedPart> {
  const res = await f.client.send(
    new UploadPartCommand({
      Bucket: inBucket,
      Key: key,
      UploadId: uploadId,
      PartNumber: partNumber,
      Body: body,
      ...(checksum !== undefined ? { ChecksumCRC32C: checksum } : {}),
    }),
  );
  return { PartNumber: partNumber, ETag: res.ETag!, ...(res.ChecksumCRC32C ? { ChecksumCRC32C: res.ChecksumCRC32C } : {}) };
}

const complete = (key: string, uploadId: string, parts: CompletedPart[], inBucket = bucket) =>
  f.client.send(new CompleteMultipartUploadCommand({ Bucket: inBucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));

async function readAll(key: string, versionId?: string): Promise<Buffer> {
  const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(versionId ? { VersionId: versionId } : {}) }));
  return Buffer.from(await get.Body!.transformToByteArray());
}

describe("crc32c", () => {
  it("matches the reference values (RFC 3720 and the usual check value)", () => {
    expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(32, 0))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
    const data = randomBytes(1000);
    // Continued over pieces (at odd offsets) it gives the checksum of the whole.
    expect(crc32c(data.subarray(3), crc32c(data.subarray(0, 3)))).toBe(crc32c(data));
  });
});

describe("multipart upload", () => {
  it("completes parts uploaded out of order into one object with S3's ETag, served whole, by range and by version", async () => {
    const key = "builds/game.ipa";
    const parts = [randomBytes(MIN_PART), randomBytes(MIN_PART), randomBytes(123_457)];
    const uploadId = await create(key);
    const done = await Promise.all([
      upload(key, uploadId, 3, parts[2]!),
      upload(key, uploadId, 1, parts[0]!),
      upload(key, uploadId, 2, parts[1]!),
    ]);
    expect(done.map((p) => p.ETag)).toEqual([parts[2]!, parts[0]!, parts[1]!].map((p) => `"${md5(p).toString("hex")}"`));

    const listed = await f.client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    expect(listed.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, MIN_PART],
      [2, MIN_PART],
      [3, 123_457],
    ]);

    const result = await complete(key, uploadId, [done[1]!, done[2]!, done[0]!]);
    expect(result.ETag).toBe(multipartEtag(parts));
    expect(result.VersionId).toBeTruthy();

    const whole = Buffer.concat(parts);
    const head = await f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect(head.ContentLength).toBe(whole.length);
    expect(head.ETag).toBe(multipartEtag(parts));
    expect(head.ContentType).toBe("application/octet-stream");
    expect(head.VersionId).toBe(result.VersionId);
    expect((await readAll(key, result.VersionId)).equals(whole)).toBe(true);

    // A range across the boundary of parts 1 and 2.
    const ranged = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${MIN_PART - 10}-${MIN_PART + 9}` }));
    expect(Buffer.from(await ranged.Body!.transformToByteArray()).equals(whole.subarray(MIN_PART - 10, MIN_PART + 10))).toBe(true);

    // The upload is gone: nothing of it is left on disk, and its id names nothing.
    expect(await readdir(join(f.dataDir, bucket, ".uploads"))).toEqual([]);
    expect((await s3ErrorOf(f.client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId })))).name).toBe("NoSuchUpload");
  });

  it("takes a re-sent part number as a replacement of the earlier part", async () => {
    const key = "builds/retried.apk";
    const first = randomBytes(MIN_PART);
    const retried = randomBytes(MIN_PART);
    const last = randomBytes(1000);
    const uploadId = await create(key);
    const stale = await upload(key, uploadId, 1, first);
    const part1 = await upload(key, uploadId, 1, retried);
    const part2 = await upload(key, uploadId, 2, last);

    const listed = await f.client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    expect(listed.Parts?.map((p) => [p.PartNumber, p.ETag])).toEqual([
      [1, part1.ETag],
      [2, part2.ETag],
    ]);
    // The replaced part's ETag no longer names a part.
    expect((await s3ErrorOf(complete(key, uploadId, [stale, part2]))).name).toBe("InvalidPart");

    await complete(key, uploadId, [part1, part2]);
    expect((await readAll(key)).equals(Buffer.concat([retried, last]))).toBe(true);
  });

  it("refuses completion with a missing part, a wrong ETag, parts out of order or a too-small part, and still completes afterwards", async () => {
    const key = "builds/checked.apk";
    const parts = [randomBytes(MIN_PART), randomBytes(MIN_PART), randomBytes(10)];
    const uploadId = await create(key);
    const done = [await upload(key, uploadId, 1, parts[0]!), await upload(key, uploadId, 2, parts[1]!), await upload(key, uploadId, 3, parts[2]!)];

    const missing = await s3ErrorOf(complete(key, uploadId, [done[0]!, done[1]!, { PartNumber: 4, ETag: done[2]!.ETag! }]));
    expect([missing.name, missing.$metadata.httpStatusCode]).toEqual(["InvalidPart", 400]);
    const wrongEtag = await s3ErrorOf(complete(key, uploadId, [done[0]!, { PartNumber: 2, ETag: `"${"0".repeat(32)}"` }, done[2]!]));
    expect(wrongEtag.name).toBe("InvalidPart");
    expect((await s3ErrorOf(complete(key, uploadId, [done[1]!, done[0]!, done[2]!]))).name).toBe("InvalidPartOrder");
    expect((await s3ErrorOf(complete(key, uploadId, [done[0]!, done[0]!, done[2]!]))).name).toBe("InvalidPartOrder");
    // Only the last part may be under 5 MiB: part 3 (10 bytes) in the middle is refused, at completion as S3 does.
    const small = await upload(key, uploadId, 4, randomBytes(MIN_PART));
    expect((await s3ErrorOf(complete(key, uploadId, [done[0]!, done[2]!, small]))).name).toBe("EntityTooSmall");
    expect(await objectExists(f.client, bucket, key)).toBe(false);

    // Parts left out of the list are dropped with the upload.
    const result = await complete(key, uploadId, done);
    expect(result.ETag).toBe(multipartEtag(parts));
    expect((await readAll(key)).equals(Buffer.concat(parts))).toBe(true);
  });

  it("refuses an upload id with another key", async () => {
    const uploadId = await create("builds/a.apk");
    const part = await upload("builds/a.apk", uploadId, 1, randomBytes(100));
    const other = "builds/b.apk";
    expect((await s3ErrorOf(upload(other, uploadId, 1, randomBytes(100)))).name).toBe("NoSuchUpload");
    expect((await s3ErrorOf(complete(other, uploadId, [part]))).name).toBe("NoSuchUpload");
    expect((await s3ErrorOf(f.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: other, UploadId: uploadId })))).name).toBe(
      "NoSuchUpload",
    );
    expect(await objectExists(f.client, bucket, other)).toBe(false);
    // Still usable with its own key.
    await complete("builds/a.apk", uploadId, [part]);
  });

  it("aborts: parts deleted, the id refused afterwards, the upload no longer listed", async () => {
    const key = "builds/aborted.apk";
    const uploadId = await create(key);
    const part = await upload(key, uploadId, 1, randomBytes(1000));
    const before = await f.client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: "builds/aborted" }));
    expect(before.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([[key, uploadId]]);

    await f.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    expect(await readdir(join(f.dataDir, bucket, ".uploads"))).not.toContain(uploadId);
    expect((await s3ErrorOf(upload(key, uploadId, 2, randomBytes(10)))).name).toBe("NoSuchUpload");
    expect((await s3ErrorOf(complete(key, uploadId, [part]))).name).toBe("NoSuchUpload");
    const after = await f.client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: "builds/aborted" }));
    expect(after.Uploads ?? []).toEqual([]);
    expect(await objectExists(f.client, bucket, key)).toBe(false);
  });

  it("refuses a part after completion, also through a part URL presigned before it", async () => {
    const key = "builds/sealed.apk";
    const body = randomBytes(2000);
    const uploadId = await create(key);
    const url = await getSignedUrl(f.client, new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 1 }), {
      expiresIn: 900,
    });
    const part = await upload(key, uploadId, 1, body);
    const result = await complete(key, uploadId, [part]);

    expect((await s3ErrorOf(upload(key, uploadId, 1, randomBytes(2000)))).name).toBe("NoSuchUpload");
    const res = await fetch(url, { method: "PUT", body: randomBytes(2000) });
    expect(res.status).toBe(404);
    expect(errorCode(await res.text())).toBe("NoSuchUpload");
    const head = await f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    expect([head.VersionId, head.ETag]).toEqual([result.VersionId, multipartEtag([body])]);
  });

  it("refuses a part whose body was still arriving when the upload was aborted, keeping none of its bytes", async () => {
    const key = "builds/aborted-midway.apk";
    const uploadId = await create(key);
    const body = randomBytes(3 * MiB);
    const url = await getSignedUrl(f.client, new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 1 }), {
      expiresIn: 900,
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: "PUT", headers: { "Content-Length": body.length } }, (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString("utf8")));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.write(body.subarray(0, MiB), () => {
        // The first MiB is on its way: the store found the upload and is streaming the part to disk.
        void f.client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))
          .then(() => req.end(body.subarray(MiB)), reject);
      });
    });
    const { status, text } = await answer;
    expect([status, errorCode(text)]).toEqual([404, "NoSuchUpload"]);
    expect(await readdir(join(f.dataDir, bucket, ".uploads"))).not.toContain(uploadId);
    expect(await readdir(join(f.dataDir, ".tmp"))).toEqual([]);
  });

  it("lists uploads in progress by key, a page at a time", async () => {
    const prefix = "listing/";
    const ids = [await create(`${prefix}b.apk`), await create(`${prefix}a.apk`), await create(`${prefix}c.apk`)];
    const first = await f.client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix, MaxUploads: 2 }));
    expect(first.Uploads?.map((u) => u.Key)).toEqual([`${prefix}a.apk`, `${prefix}b.apk`]);
    expect(first.IsTruncated).toBe(true);
    const rest = await f.client.send(
      new ListMultipartUploadsCommand({
        Bucket: bucket,
        Prefix: prefix,
        KeyMarker: first.NextKeyMarker!,
        UploadIdMarker: first.NextUploadIdMarker!,
      }),
    );
    expect(rest.Uploads?.map((u) => [u.Key, u.UploadId])).toEqual([[`${prefix}c.apk`, ids[2]]]);
    expect(rest.IsTruncated).toBe(false);
    for (const [index, name] of ["b", "a", "c"].entries()) {
      await f.client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: `${prefix}${name}.apk`, UploadId: ids[index]! }));
    }
  });

  it("refuses part numbers outside 1..10000", async () => {
    const key = "builds/numbers.apk";
    const uploadId = await create(key);
    for (const partNumber of [0, 10_001]) {
      const error = await s3ErrorOf(upload(key, uploadId, partNumber, randomBytes(10)));
      expect([error.name, error.$metadata.httpStatusCode]).toEqual(["InvalidArgument", 400]);
    }
    await upload(key, uploadId, 10_000, randomBytes(10));
  });

  it("keeps an upload across a restart of the store", async () => {
    const key = "builds/restart.apk";
    const body = randomBytes(3000);
    const uploadId = await create(key);
    const part = await upload(key, uploadId, 1, body);
    await f.restart();
    await complete(key, uploadId, [part]);
    expect((await readAll(key)).equals(body)).toBe(true);
  });
});

describe("a completed multipart object's files", () => {
  const plain = "multipart-plain";
  /** Every bytes file of the bucket's objects. */
  const blobFiles = async (name: string) => {
    const files: string[] = [];
    for (const shard of await readdir(join(f.dataDir, name))) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      files.push(...(await readdir(join(f.dataDir, name, shard))).filter((file) => file.endsWith(".bin")));
    }
    return files;
  };

  it("serves any range across its parts and frees every part's file when overwritten", async () => {
    await f.client.send(new CreateBucketCommand({ Bucket: plain }));
    const key = "builds/overwritten.apk";
    const parts = [randomBytes(MIN_PART), randomBytes(MIN_PART), randomBytes(MIN_PART), randomBytes(777)];
    const uploadId = await create(key, undefined, plain);
    const done: CompletedPart[] = [];
    for (const [index, body] of parts.entries()) done.push(await upload(key, uploadId, index + 1, body, undefined, plain));
    await complete(key, uploadId, done, plain);
    expect(await blobFiles(plain)).toHaveLength(parts.length);

    const whole = Buffer.concat(parts);
    for (const [start, end] of [
      [0, 0],
      [MIN_PART - 1, 2 * MIN_PART + 5],
      [3 * MIN_PART, whole.length - 1],
      [whole.length - 1000, whole.length - 1],
    ] as const) {
      const get = await f.client.send(new GetObjectCommand({ Bucket: plain, Key: key, Range: `bytes=${start}-${end}` }));
      expect(Buffer.from(await get.Body!.transformToByteArray()).equals(whole.subarray(start, end + 1))).toBe(true);
    }

    await f.client.send(new PutObjectCommand({ Bucket: plain, Key: key, Body: Buffer.from("replaced") }));
    expect(await blobFiles(plain)).toHaveLength(1);
  });

  it("keeps a download that started before its version was deleted whole", async () => {
    const key = "builds/deleted-while-read.apk";
    const parts = [randomBytes(MIN_PART), randomBytes(MIN_PART), randomBytes(MIN_PART)];
    const uploadId = await create(key);
    const done: CompletedPart[] = [];
    for (const [index, body] of parts.entries()) done.push(await upload(key, uploadId, index + 1, body));
    const { VersionId } = await complete(key, uploadId, done);

    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId }));
    await f.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key, VersionId }));
    expect(await objectExists(f.client, bucket, key)).toBe(false);
    expect(Buffer.from(await get.Body!.transformToByteArray()).equals(Buffer.concat(parts))).toBe(true);
  });
});

describe("multipart upload with CRC32C checksums", () => {
  it("verifies each part's checksum, refuses a wrong or missing one, and gives the object S3's composite checksum", async () => {
    const key = "builds/checksummed.ipa";
    const parts = [randomBytes(MIN_PART), randomBytes(4321)];
    const uploadId = await create(key, "CRC32C");

    const wrong = await s3ErrorOf(upload(key, uploadId, 1, parts[0]!, crc32cBase64(parts[1]!)));
    expect([wrong.name, wrong.$metadata.httpStatusCode]).toEqual(["BadDigest", 400]);
    const none = await s3ErrorOf(upload(key, uploadId, 1, parts[0]!));
    expect([none.name, none.message]).toEqual([
      "InvalidRequest",
      "Checksum Type mismatch occurred, expected checksum Type: crc32c, actual checksum Type: null",
    ]);
    expect((await f.client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }))).Parts ?? []).toEqual([]);

    const done = [await upload(key, uploadId, 1, parts[0]!, crc32cBase64(parts[0]!)), await upload(key, uploadId, 2, parts[1]!, crc32cBase64(parts[1]!))];
    expect(done.map((p) => p.ChecksumCRC32C)).toEqual(parts.map(crc32cBase64));
    const listed = await f.client.send(new ListPartsCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    expect(listed.ChecksumAlgorithm).toBe("CRC32C");
    expect(listed.Parts?.map((p) => p.ChecksumCRC32C)).toEqual(parts.map(crc32cBase64));

    // As on S3, completion must repeat each part's checksum, and it must match.
    const withoutChecksums = done.map(({ PartNumber, ETag }) => ({ PartNumber, ETag }));
    expect((await s3ErrorOf(complete(key, uploadId, withoutChecksums))).message).toBe(
      "The upload was created using a crc32c checksum. The complete request must include the checksum for each part. It was missing for part 1 in the request.",
    );
    expect((await s3ErrorOf(complete(key, uploadId, [done[0]!, { ...done[1]!, ChecksumCRC32C: crc32cBase64(parts[0]!) }]))).name).toBe(
      "InvalidPart",
    );

    const result = await complete(key, uploadId, done);
    const composite = crc32cBase64(Buffer.concat(parts.map((p) => Buffer.from(crc32cBase64(p), "base64"))));
    expect(result.ChecksumCRC32C).toBe(`${composite}-2`);
    const head = await f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: "ENABLED" }));
    expect([head.ChecksumCRC32C, head.ChecksumType]).toEqual([`${composite}-2`, "COMPOSITE"]);
    expect((await readAll(key)).equals(Buffer.concat(parts))).toBe(true);
  });

  it("takes SHA-256 part checksums the same way, with the composite SHA-256 for the object", async () => {
    const key = "builds/sha256.ipa";
    const parts = [randomBytes(MIN_PART), randomBytes(99)];
    const sha256 = (data: Buffer) => createHash("sha256").update(data).digest();
    const uploadId = await create(key, "SHA256");
    const done: CompletedPart[] = [];
    for (const [index, body] of parts.entries()) {
      const res = await f.client.send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: index + 1,
          Body: body,
          ChecksumSHA256: sha256(body).toString("base64"),
        }),
      );
      done.push({ PartNumber: index + 1, ETag: res.ETag!, ChecksumSHA256: res.ChecksumSHA256! });
    }
    const mismatch = await s3ErrorOf(
      f.client.send(
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 3, Body: parts[1]!, ChecksumCRC32C: crc32cBase64(parts[1]!) }),
      ),
    );
    expect(mismatch.message).toBe("Checksum Type mismatch occurred, expected checksum Type: sha256, actual checksum Type: crc32c");
    const result = await complete(key, uploadId, done);
    expect(result.ChecksumSHA256).toBe(`${createHash("sha256").update(Buffer.concat(parts.map(sha256))).digest("base64")}-2`);
  });

  it("accepts a part PUT to a presigned URL that signs its checksum, and refuses other bytes on that URL", async () => {
    const key = "builds/presigned.ipa";
    const body = randomBytes(70_000);
    const checksum = crc32cBase64(body);
    const uploadId = await create(key, "CRC32C");
    // How the API presigns a part for the CLI: the checksum the CLI computed is signed into the URL's query.
    const url = await getSignedUrl(
      f.client,
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: 1, ChecksumCRC32C: checksum, ContentLength: body.length }),
      { expiresIn: 900, signableHeaders: new Set(["content-length"]) },
    );
    expect(new URL(url).searchParams.get("x-amz-checksum-crc32c")).toBe(checksum);

    const tampered = Buffer.from(body);
    tampered[0]! ^= 1;
    const refused = await fetch(url, { method: "PUT", body: tampered });
    expect(refused.status).toBe(400);
    expect(errorCode(await refused.text())).toBe("BadDigest");

    const res = await fetch(url, { method: "PUT", body });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${md5(body).toString("hex")}"`);
    expect(res.headers.get("x-amz-checksum-crc32c")).toBe(checksum);
    await complete(key, uploadId, [{ PartNumber: 1, ETag: res.headers.get("etag")!, ChecksumCRC32C: checksum }]);
    expect((await readAll(key)).equals(body)).toBe(true);
  });

  it("takes CRC32 parts through presigned URLs (the CLI's algorithm), refusing a CRC32C part, with the composite CRC32", async () => {
    const key = "builds/crc32.apk";
    const parts = [randomBytes(MIN_PART), randomBytes(1234)];
    const crc32Base64 = (data: Buffer) => {
      const out = Buffer.alloc(4);
      out.writeUInt32BE(crc32(data));
      return out.toString("base64");
    };
    const uploadId = await create(key, "CRC32");
    const presignPart = (partNumber: number, body: Buffer, checksum: { ChecksumCRC32?: string; ChecksumCRC32C?: string }) =>
      getSignedUrl(
        f.client,
        new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: partNumber, ContentLength: body.length, ...checksum }),
        { expiresIn: 900, signableHeaders: new Set(["content-length"]) },
      );
    const wrongAlgorithm = await fetch(await presignPart(1, parts[0]!, { ChecksumCRC32C: crc32cBase64(parts[0]!) }), { method: "PUT", body: parts[0]! });
    expect(wrongAlgorithm.status).toBe(400);
    expect(await wrongAlgorithm.text()).toContain("expected checksum Type: crc32, actual checksum Type: crc32c");
    const done: CompletedPart[] = [];
    for (const [index, body] of parts.entries()) {
      const url = await presignPart(index + 1, body, { ChecksumCRC32: crc32Base64(body) });
      expect(new URL(url).searchParams.get("x-amz-checksum-crc32")).toBe(crc32Base64(body));
      const res = await fetch(url, { method: "PUT", body });
      expect(res.status).toBe(200);
      done.push({ PartNumber: index + 1, ETag: res.headers.get("etag")!, ChecksumCRC32: crc32Base64(body) });
    }
    const result = await complete(key, uploadId, done);
    const composite = crc32Base64(Buffer.concat(parts.map((p) => Buffer.from(crc32Base64(p), "base64"))));
    expect(result.ChecksumCRC32).toBe(`${composite}-2`);
    expect((await readAll(key)).equals(Buffer.concat(parts))).toBe(true);
  });

  it("takes a part as a streamed aws-chunked body with a trailing checksum", async () => {
    const key = "builds/chunked.ipa";
    const body = randomBytes(300_000);
    const uploadId = await create(key, "CRC32C");
    const res = await f.client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId: uploadId,
        PartNumber: 1,
        Body: Readable.from([body.subarray(0, 100_000), body.subarray(100_000)]),
        ContentLength: body.length,
        ChecksumAlgorithm: "CRC32C",
      }),
    );
    expect(res.ChecksumCRC32C).toBe(crc32cBase64(body));
    await complete(key, uploadId, [{ PartNumber: 1, ETag: res.ETag!, ChecksumCRC32C: res.ChecksumCRC32C! }]);
    expect((await readAll(key)).equals(body)).toBe(true);
  });
});

/** Memory outside the JS heap, where Buffers live. */
const bufferMemory = () => {
  const usage = process.memoryUsage();
  return usage.arrayBuffers + usage.external;
};

it("uploads and completes 40 parts (200 MiB) with memory bounded by stream buffers", async () => {
  const key = "builds/many-parts.ipa";
  const PARTS = 40;
  // One buffer sent as every part keeps the test's own memory flat; the store sees 200 MiB.
  const block = randomBytes(MIN_PART);
  const uploadId = await create(key);

  const baseline = bufferMemory();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, bufferMemory())), 5);
  const done: CompletedPart[] = [];
  for (let n = 1; n <= PARTS; n += 4) {
    done.push(...(await Promise.all([n, n + 1, n + 2, n + 3].map((p) => upload(key, uploadId, p, block)))));
  }
  const result = await complete(key, uploadId, done);
  clearInterval(sampler);

  expect(result.ETag).toBe(multipartEtag(Array.from({ length: PARTS }, () => block)));
  // Garbage from socket chunks lingers until V8 collects it, so the bound is loose; holding the object would take 200 MiB.
  expect(peak - baseline).toBeLessThan(120 * MiB);
  const head = await f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  expect(head.ContentLength).toBe(PARTS * MIN_PART);
  const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${39 * MIN_PART}-` }));
  expect(Buffer.from(await get.Body!.transformToByteArray()).equals(block)).toBe(true);
});
