import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { s3ErrorOf, startStoreFixture, type StoreFixture } from "./object-store-fixture";

let f: StoreFixture;
const bucket = "packages";

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: bucket }));
});
afterAll(() => f.dispose());

describe("buckets", () => {
  it("creates a bucket idempotently and heads it", async () => {
    await f.client.send(new CreateBucketCommand({ Bucket: "second-bucket" }));
    await f.client.send(new CreateBucketCommand({ Bucket: "second-bucket" }));
    const head = await f.client.send(new HeadBucketCommand({ Bucket: "second-bucket" }));
    expect(head.$metadata.httpStatusCode).toBe(200);
  });

  it("answers 404 for a missing bucket", async () => {
    const headError = await s3ErrorOf(f.client.send(new HeadBucketCommand({ Bucket: "no-such-bucket" })));
    expect(headError.$metadata.httpStatusCode).toBe(404);
    const putError = await s3ErrorOf(f.client.send(new PutObjectCommand({ Bucket: "no-such-bucket", Key: "k", Body: "x" })));
    expect(putError.name).toBe("NoSuchBucket");
    expect(putError.$metadata.httpStatusCode).toBe(404);
  });

  it("lists buckets and deletes only empty ones", async () => {
    await f.client.send(new CreateBucketCommand({ Bucket: "to-delete" }));
    await f.client.send(new PutObjectCommand({ Bucket: "to-delete", Key: "k", Body: "x" }));
    const names = (await f.client.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name);
    expect(names).toEqual(expect.arrayContaining([bucket, "to-delete"]));

    const notEmpty = await s3ErrorOf(f.client.send(new DeleteBucketCommand({ Bucket: "to-delete" })));
    expect(notEmpty.name).toBe("BucketNotEmpty");
    await f.client.send(new DeleteObjectCommand({ Bucket: "to-delete", Key: "k" }));
    await f.client.send(new DeleteBucketCommand({ Bucket: "to-delete" }));
    const gone = await s3ErrorOf(f.client.send(new HeadBucketCommand({ Bucket: "to-delete" })));
    expect(gone.$metadata.httpStatusCode).toBe(404);
  });

  it("refuses an invalid bucket name", async () => {
    const error = await s3ErrorOf(f.client.send(new CreateBucketCommand({ Bucket: "Bad_Name" })));
    expect(error.name).toBe("InvalidBucketName");
  });
});

describe("objects", () => {
  it("puts, heads, gets and deletes an object", async () => {
    const body = Buffer.from("hello hangar");
    const put = await f.client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: "builds/app.apk",
        Body: body,
        ContentType: "application/vnd.android.package-archive",
        Metadata: { build: "42" },
        ContentDisposition: 'attachment; filename="app.apk"',
      }),
    );
    const md5 = createHash("md5").update(body).digest("hex");
    expect(put.ETag).toBe(`"${md5}"`);

    const head = await f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: "builds/app.apk" }));
    expect(head.ContentLength).toBe(body.length);
    expect(head.ContentType).toBe("application/vnd.android.package-archive");
    expect(head.ETag).toBe(`"${md5}"`);
    expect(head.Metadata).toEqual({ build: "42" });
    expect(head.ContentDisposition).toBe('attachment; filename="app.apk"');
    expect(head.AcceptRanges).toBe("bytes");
    expect(head.LastModified).toBeInstanceOf(Date);

    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "builds/app.apk" }));
    expect(Buffer.from(await get.Body!.transformToByteArray())).toEqual(body);
    expect(get.$metadata.httpStatusCode).toBe(200);

    await f.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: "builds/app.apk" }));
    const missing = await s3ErrorOf(f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "builds/app.apk" })));
    expect(missing.name).toBe("NoSuchKey");
    expect(missing.$metadata.httpStatusCode).toBe(404);
    const missingHead = await s3ErrorOf(f.client.send(new HeadObjectCommand({ Bucket: bucket, Key: "builds/app.apk" })));
    expect(missingHead.$metadata.httpStatusCode).toBe(404);
  });

  it("overwrites an object and serves the new bytes", async () => {
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "overwrite", Body: "first version" }));
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "overwrite", Body: "second" }));
    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "overwrite" }));
    expect(await get.Body!.transformToString()).toBe("second");
  });

  it("honours conditional GETs", async () => {
    const put = await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "conditional", Body: "v1" }));
    const notModified = await s3ErrorOf(f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "conditional", IfNoneMatch: put.ETag })));
    expect(notModified.$metadata.httpStatusCode).toBe(304);
    const failed = await s3ErrorOf(f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "conditional", IfMatch: '"0000"' })));
    expect(failed.$metadata.httpStatusCode).toBe(412);
    const matched = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "conditional", IfMatch: put.ETag }));
    expect(await matched.Body!.transformToString()).toBe("v1");
  });

  it.each([
    ["a key with spaces.apk"],
    ["unicode/ünïcødé 应用 🚀.ipa"],
    ["../../escape"],
    ["dir/../../../etc/passwd"],
    ["./dot/./segments/"],
    ["double//slash"],
    ["symbols !'()*&$@=;:+,?#[]%~"],
  ])("stores key %j inside the data dir and reads it back", async (key) => {
    const body = `content of ${key}`;
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(await get.Body!.transformToString()).toBe(body);
    const list = await f.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: key }));
    expect(list.Contents?.map((o) => o.Key)).toContain(key);
  });

  it("keeps every file under hashed names inside the bucket folders", async () => {
    const files = (await readdir(f.dataDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => relative(f.dataDir, join(entry.parentPath, entry.name)));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/^(\.tmp\/[0-9a-f-]{36}|[a-z0-9.-]+\/(\.bucket\.json|[0-9a-f]{2}\/[0-9a-f]{64}(\.json|\.[0-9a-f-]{36}\.bin)))$/);
    }
    // The `../` keys above did not create anything next to the data dir either.
    expect((await readdir(dirname(f.dataDir))).filter((name) => name === "escape" || name === "etc")).toEqual([]);
  });
});

describe("range reads", () => {
  const size = 3 * 1024 * 1024 + 17;
  const data = randomBytes(size);
  const key = "ranges/big.bin";

  beforeAll(async () => {
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: data }));
  });

  it.each([
    ["bytes=0-9", 0, 9],
    ["bytes=1048576-2097151", 1048576, 2097151],
    [`bytes=${size - 5}-`, size - 5, size - 1],
    ["bytes=-100", size - 100, size - 1],
    [`bytes=100-${size + 1000}`, 100, size - 1],
    [`bytes=-${size * 2}`, 0, size - 1],
  ])("%s → 206 with the right bytes", async (range, start, end) => {
    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: range }));
    expect(get.$metadata.httpStatusCode).toBe(206);
    expect(get.ContentRange).toBe(`bytes ${start}-${end}/${size}`);
    expect(get.ContentLength).toBe(end - start + 1);
    const bytes = Buffer.from(await get.Body!.transformToByteArray());
    expect(bytes.equals(data.subarray(start, end + 1))).toBe(true);
  });

  it("serves the whole multi-MB object without a range", async () => {
    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = Buffer.from(await get.Body!.transformToByteArray());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(createHash("sha256").update(data).digest("hex"));
  });

  it("answers 416 for a range past the end", async () => {
    const error = await s3ErrorOf(f.client.send(new GetObjectCommand({ Bucket: bucket, Key: key, Range: `bytes=${size}-` })));
    expect(error.$metadata.httpStatusCode).toBe(416);
    expect(error.name).toBe("InvalidRange");
  });
});

describe("ListObjectsV2", () => {
  const keys = ["list/a.apk", "list/b.apk", "list/c/d.apk", "list/c/e.apk", "list/f.ipa", "other/x"];

  beforeAll(async () => {
    for (const key of keys) await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: key }));
  });

  it("lists by prefix in key order with sizes and ETags", async () => {
    const list = await f.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/" }));
    expect(list.Contents?.map((o) => o.Key)).toEqual(keys.slice(0, 5));
    expect(list.KeyCount).toBe(5);
    expect(list.IsTruncated).toBe(false);
    const first = list.Contents![0]!;
    expect(first.Size).toBe("list/a.apk".length);
    expect(first.ETag).toBe(`"${createHash("md5").update("list/a.apk").digest("hex")}"`);
  });

  it("pages with max-keys and continuation tokens", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await f.client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/", MaxKeys: 2, ContinuationToken: token }),
      );
      pages++;
      seen.push(...(page.Contents ?? []).map((o) => o.Key!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(keys.slice(0, 5));
  });

  it("groups common prefixes with a delimiter", async () => {
    const list = await f.client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: "list/", Delimiter: "/" }));
    expect(list.Contents?.map((o) => o.Key)).toEqual(["list/a.apk", "list/b.apk", "list/f.ipa"]);
    expect(list.CommonPrefixes?.map((p) => p.Prefix)).toEqual(["list/c/"]);
  });

  it("refuses a continuation token it did not issue", async () => {
    const error = await s3ErrorOf(f.client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: "garbage" })));
    expect(error.$metadata.httpStatusCode).toBe(400);
  });
});

describe("persistence", () => {
  it("keeps buckets and objects across a restart on the same data dir", async () => {
    await f.client.send(new PutObjectCommand({ Bucket: bucket, Key: "persist/me.apk", Body: "still here", ContentType: "text/plain" }));
    await f.restart();
    const get = await f.client.send(new GetObjectCommand({ Bucket: bucket, Key: "persist/me.apk" }));
    expect(await get.Body!.transformToString()).toBe("still here");
    expect(get.ContentType).toBe("text/plain");
  });
});
