import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutBucketVersioningCommand,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { s3ErrorOf, startStoreFixture, type StoreFixture } from "./object-store-fixture";
import { errorCode } from "./raw-http";

let f: StoreFixture;
const versioned = "versioned";
const plain = "plain";

beforeAll(async () => {
  f = await startStoreFixture();
  await f.client.send(new CreateBucketCommand({ Bucket: versioned }));
  await f.client.send(new CreateBucketCommand({ Bucket: plain }));
  await f.client.send(new PutBucketVersioningCommand({ Bucket: versioned, VersioningConfiguration: { Status: "Enabled" } }));
});
afterAll(() => f.dispose());

async function put(bucket: string, key: string, body: string | Buffer) {
  return f.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

async function text(bucket: string, key: string, options: { versionId?: string; range?: string } = {}) {
  const out = await f.client.send(
    new GetObjectCommand({
      Bucket: bucket,
      Key: key,
      ...(options.versionId ? { VersionId: options.versionId } : {}),
      ...(options.range ? { Range: options.range } : {}),
    }),
  );
  return { body: await out.Body!.transformToString(), versionId: out.VersionId };
}

/** A presigned GET as the service signs a download: 5 minutes, optionally pinned to a version. */
function presignGet(bucket: string, key: string, versionId?: string) {
  return getSignedUrl(f.client, new GetObjectCommand({ Bucket: bucket, Key: key, ...(versionId ? { VersionId: versionId } : {}) }), {
    expiresIn: 300,
  });
}

describe("bucket versioning configuration", () => {
  it("is empty until set, then reports what was set", async () => {
    expect((await f.client.send(new GetBucketVersioningCommand({ Bucket: plain }))).Status).toBeUndefined();
    expect((await f.client.send(new GetBucketVersioningCommand({ Bucket: versioned }))).Status).toBe("Enabled");
  });

  it("refuses a status S3 does not know and a missing bucket", async () => {
    // The SDK serializes whatever status it is given; S3 itself refuses anything but Enabled and Suspended.
    const wrong = await s3ErrorOf(
      f.client.send(new PutBucketVersioningCommand({ Bucket: plain, VersioningConfiguration: { Status: "On" as "Enabled" } })),
    );
    expect(wrong.$metadata.httpStatusCode).toBe(400);
    expect(wrong.name).toBe("MalformedXML");
    expect((await f.client.send(new GetBucketVersioningCommand({ Bucket: plain }))).Status).toBeUndefined();

    const missing = await s3ErrorOf(
      f.client.send(new PutBucketVersioningCommand({ Bucket: "no-such-bucket", VersioningConfiguration: { Status: "Enabled" } })),
    );
    expect(missing.name).toBe("NoSuchBucket");
  });
});

describe("an unversioned bucket", () => {
  it("names no version ids and an overwrite replaces the object", async () => {
    const first = await put(plain, "k", "first");
    expect(first.VersionId).toBeUndefined();
    await put(plain, "k", "second");
    const got = await text(plain, "k");
    expect(got).toEqual({ body: "second", versionId: undefined });
    // Only the "null" version exists, and it is the new bytes.
    expect((await text(plain, "k", { versionId: "null" })).body).toBe("second");
  });
});

describe("a versioning-enabled bucket", () => {
  it("gives every PUT a new version id and serves each version by id, including byte ranges", async () => {
    const v1 = await put(versioned, "app.apk", "original bytes");
    const v2 = await put(versioned, "app.apk", "SWAPPED BYTES!");
    expect(v1.VersionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(v2.VersionId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(v2.VersionId).not.toBe(v1.VersionId);

    const head = await f.client.send(new HeadObjectCommand({ Bucket: versioned, Key: "app.apk" }));
    expect(head.VersionId).toBe(v2.VersionId);
    const headOld = await f.client.send(new HeadObjectCommand({ Bucket: versioned, Key: "app.apk", VersionId: v1.VersionId }));
    expect(headOld.VersionId).toBe(v1.VersionId);
    expect(headOld.ETag).toBe(v1.ETag);

    expect(await text(versioned, "app.apk")).toEqual({ body: "SWAPPED BYTES!", versionId: v2.VersionId });
    expect(await text(versioned, "app.apk", { versionId: v1.VersionId! })).toEqual({ body: "original bytes", versionId: v1.VersionId });
    expect((await text(versioned, "app.apk", { versionId: v1.VersionId!, range: "bytes=9-13" })).body).toBe("bytes");
  });

  it("serves the pinned version through a presigned GET, and refuses a tampered version id", async () => {
    const v1 = await put(versioned, "signed.apk", "pinned");
    const v2 = await put(versioned, "signed.apk", "newer!");

    const pinned = await fetch(await presignGet(versioned, "signed.apk", v1.VersionId));
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get("x-amz-version-id")).toBe(v1.VersionId);
    expect(await pinned.text()).toBe("pinned");

    const ranged = await fetch(await presignGet(versioned, "signed.apk", v1.VersionId), { headers: { range: "bytes=0-2" } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("pin");

    // The version id is part of what was signed: pointing the URL at another version breaks the signature.
    const tampered = new URL(await presignGet(versioned, "signed.apk", v1.VersionId));
    tampered.searchParams.set("versionId", v2.VersionId!);
    const refused = await fetch(tampered);
    expect(refused.status).toBe(403);
    expect(errorCode(await refused.text())).toBe("SignatureDoesNotMatch");

    // Adding a version id to an unpinned URL is refused just the same.
    const added = new URL(await presignGet(versioned, "signed.apk"));
    added.searchParams.set("versionId", v1.VersionId!);
    expect((await fetch(added)).status).toBe(403);
  });

  it("answers NoSuchVersion for an unknown id and InvalidArgument for one that cannot be an id", async () => {
    await put(versioned, "known.apk", "x");
    const unknown = await s3ErrorOf(
      f.client.send(new GetObjectCommand({ Bucket: versioned, Key: "known.apk", VersionId: "A".repeat(32) })),
    );
    expect(unknown.name).toBe("NoSuchVersion");
    expect(unknown.$metadata.httpStatusCode).toBe(404);

    const res = await fetch(await presignGet(versioned, "known.apk", "not a version"));
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(errorCode(body)).toBe("InvalidArgument");
    expect(body).toContain("Invalid version id specified");
  });

  it("turns a DELETE without version id into a delete marker: the key is gone, its versions are not", async () => {
    const v1 = await put(versioned, "deleted.apk", "keep me");
    const deleted = await f.client.send(new DeleteObjectCommand({ Bucket: versioned, Key: "deleted.apk" }));
    expect(deleted.DeleteMarker).toBe(true);
    expect(deleted.VersionId).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const current = await s3ErrorOf(f.client.send(new GetObjectCommand({ Bucket: versioned, Key: "deleted.apk" })));
    expect(current.name).toBe("NoSuchKey");
    expect((await text(versioned, "deleted.apk", { versionId: v1.VersionId! })).body).toBe("keep me");
    const listed = await f.client.send(new ListObjectsV2Command({ Bucket: versioned, Prefix: "deleted" }));
    expect(listed.KeyCount).toBe(0);

    // Naming the marker itself is a 405, as on S3.
    const marker = await s3ErrorOf(
      f.client.send(new GetObjectCommand({ Bucket: versioned, Key: "deleted.apk", VersionId: deleted.VersionId })),
    );
    expect(marker.$metadata.httpStatusCode).toBe(405);

    // Removing the marker brings the object back; removing a version by id destroys exactly that version.
    await f.client.send(new DeleteObjectCommand({ Bucket: versioned, Key: "deleted.apk", VersionId: deleted.VersionId }));
    expect((await text(versioned, "deleted.apk")).body).toBe("keep me");
    const removed = await f.client.send(new DeleteObjectCommand({ Bucket: versioned, Key: "deleted.apk", VersionId: v1.VersionId }));
    expect(removed.VersionId).toBe(v1.VersionId);
    const gone = await s3ErrorOf(
      f.client.send(new GetObjectCommand({ Bucket: versioned, Key: "deleted.apk", VersionId: v1.VersionId })),
    );
    expect(gone.name).toBe("NoSuchVersion");
  });

  it("keeps a bucket that still holds noncurrent versions from being deleted", async () => {
    await f.client.send(new CreateBucketCommand({ Bucket: "history" }));
    await f.client.send(new PutBucketVersioningCommand({ Bucket: "history", VersioningConfiguration: { Status: "Enabled" } }));
    const v = await put("history", "k", "x");
    const marker = await f.client.send(new DeleteObjectCommand({ Bucket: "history", Key: "k" }));
    const notEmpty = await s3ErrorOf(f.client.send(new DeleteBucketCommand({ Bucket: "history" })));
    expect(notEmpty.name).toBe("BucketNotEmpty");
    await f.client.send(new DeleteObjectCommand({ Bucket: "history", Key: "k", VersionId: v.VersionId }));
    await f.client.send(new DeleteObjectCommand({ Bucket: "history", Key: "k", VersionId: marker.VersionId }));
    await f.client.send(new DeleteBucketCommand({ Bucket: "history" }));
  });

  it("writes the 'null' version while suspended, keeping the versions made before", async () => {
    await f.client.send(new CreateBucketCommand({ Bucket: "suspended" }));
    await f.client.send(new PutBucketVersioningCommand({ Bucket: "suspended", VersioningConfiguration: { Status: "Enabled" } }));
    const v1 = await put("suspended", "k", "enabled-era");
    await f.client.send(new PutBucketVersioningCommand({ Bucket: "suspended", VersioningConfiguration: { Status: "Suspended" } }));
    expect((await put("suspended", "k", "null one")).VersionId).toBe("null");
    expect((await put("suspended", "k", "null two")).VersionId).toBe("null");
    expect(await text("suspended", "k")).toEqual({ body: "null two", versionId: "null" });
    expect((await text("suspended", "k", { versionId: v1.VersionId! })).body).toBe("enabled-era");
  });
});

describe("data stored before versioning", () => {
  it("reads an object of the earlier sidecar format as version 'null', which survives enabling versioning", async () => {
    await f.client.send(new CreateBucketCommand({ Bucket: "legacy" }));
    await put("legacy", "old.apk", "stored before versioning");
    // Rewrite the sidecar in the format written before versions existed: one record, no version id.
    const shardDir = join(f.dataDir, "legacy", (await readdir(join(f.dataDir, "legacy"))).find((n) => /^[0-9a-f]{2}$/.test(n))!);
    const sidecar = join(shardDir, (await readdir(shardDir)).find((n) => n.endsWith(".json"))!);
    const history = JSON.parse(await readFile(sidecar, "utf8")) as { versions: Record<string, unknown>[] };
    const { versionId: _dropped, ...legacyRecord } = history.versions[0]!;
    await writeFile(sidecar, JSON.stringify(legacyRecord));
    await f.restart();

    expect((await text("legacy", "old.apk")).body).toBe("stored before versioning");
    await f.client.send(new PutBucketVersioningCommand({ Bucket: "legacy", VersioningConfiguration: { Status: "Enabled" } }));
    expect((await f.client.send(new HeadObjectCommand({ Bucket: "legacy", Key: "old.apk" }))).VersionId).toBe("null");
    const newer = await put("legacy", "old.apk", "written after enabling");
    expect(await text("legacy", "old.apk")).toEqual({ body: "written after enabling", versionId: newer.VersionId });
    expect((await text("legacy", "old.apk", { versionId: "null" })).body).toBe("stored before versioning");
  });
});
