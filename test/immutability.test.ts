import { DeleteObjectCommand, GetBucketVersioningCommand, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import {
  ConflictError,
  completeUpload,
  defaultUploadSettings,
  randomIds,
  SEAL_MARGIN_SECONDS,
  sealUpload,
  type ApiKey,
  type CompleteDeps,
  type ObjectStore,
} from "@hangar/core";
import { DynamoApiKeyRepository, DynamoFileRepository } from "@hangar/core/dynamo";
import { RangedPackageInspector, S3Requester, S3RestObjectStore, S3RestRangeReader } from "@hangar/core/s3-rest";
import { beforeAll, describe, expect, it } from "vitest";
import { call, complete, db, mediaType, newKey, presign, put, readFixture, stack, storeClient, upload, type Key } from "./support/api";
import { fixtures, inspectFile } from "./support/fixtures";

/**
 * Issue 8, item 1: the presigned PUT stays valid after complete, so anyone holding it can write other
 * bytes to the key. What complete inspected must stay the only thing ever served.
 */

let key: Key;
let path: string;
let original: Uint8Array;
beforeAll(async () => {
  key = await newKey();
  // A package with an icon, so the icon's pinning is exercised too.
  path = fixtures("apk").find((f) => f.endsWith("aapt2-string-refs.apk"))!;
  original = readFixture(path);
});

/** Same size, other bytes: what an attacker with the upload URL can still PUT (length and type are signed). */
const swapped = (bytes: Uint8Array) => new Uint8Array(bytes.length).fill(0x41);

async function followDownload(userKey: string): Promise<{ location: string; bytes: Uint8Array }> {
  const reply = await call(`/download/${userKey}`);
  expect(reply.status).toBe(302);
  const location = reply.headers.get("location")!;
  const res = await fetch(location);
  expect(res.status).toBe(200);
  return { location, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The functions' S3 calls (signed fetches) as the bucket owner, against the local store. */
const requester = () => {
  const s = stack();
  return new S3Requester({ bucket: s.bucketName, region: s.region, endpoint: s.s3Endpoint, credentials: s.credentials });
};

const item = async (pk: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: stack().tableName, Key: { pk, sk } }))).Item;

describe("a completed build cannot be swapped through its upload URL", () => {
  it("the local bucket has versioning enabled, as the AWS stack's", async () => {
    const out = await storeClient().send(new GetBucketVersioningCommand({ Bucket: stack().bucketName }));
    expect(out.Status).toBe("Enabled");
  });

  it("downloads exactly the inspected bytes after another PUT to the same URL", async () => {
    const { declared, presigned, completed } = await upload(key, "pinned.apk", original);
    expect(completed.status, completed.text).toBe(200);

    // The upload URL still works (S3 answers 200 as long as it is valid): the key's current version changes…
    const overwrite = await put(presigned.json.uploadUrl, swapped(original));
    expect(overwrite.status).toBe(200);
    const current = await storeClient().send(new GetObjectCommand({ Bucket: stack().bucketName, Key: presigned.json.key }));
    expect(new Uint8Array(await current.Body!.transformToByteArray())).toEqual(swapped(original));

    // …but the download link serves the version complete read.
    const download = await followDownload(completed.json.userKey);
    expect(download.bytes).toEqual(original);
    const share = await item(`SHARE#${completed.json.userKey}`, "SHARE");
    expect(share?.versionId).toEqual(expect.any(String));
    expect(new URL(download.location).searchParams.get("versionId")).toBe(share!.versionId);

    // A repeated complete answers the same key and metadata, without reading the new bytes.
    const again = await complete(key, { ...declared, key: presigned.json.key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(completed.json);

    // The share page's icon is pinned to the version complete wrote.
    const page = await call(`/share/${completed.json.userKey}`);
    expect(page.status).toBe(200);
    expect(share?.iconVersionId).toEqual(expect.any(String));
    expect(page.text).toContain(`versionId=${encodeURIComponent(share!.iconVersionId as string)}`);
  });

  it("seals the key once the upload URL is dead: only the pinned version remains, current again", async () => {
    const { presigned, completed } = await upload(key, "sealed.apk", original);
    expect(completed.status, completed.text).toBe(200);
    expect((await put(presigned.json.uploadUrl, swapped(original))).status).toBe(200);
    expect((await put(presigned.json.uploadUrl, swapped(original))).status).toBe(200);

    // complete wrote a seal item whose TTL fires when no presigned PUT can succeed any more.
    const file = await item(`FILE#${completed.json.fileId}`, "FILE");
    const seal = await item(`SEAL#${completed.json.fileId}`, "SEAL");
    expect(seal).toMatchObject({ type: "seal", key: presigned.json.key, versionId: file!.versionId });
    const signedAt = Math.floor(Date.parse(file!.createdAt as string) / 1000);
    expect(seal!.ttl).toBe(signedAt + defaultUploadSettings.presignExpiresSeconds + SEAL_MARGIN_SECONDS);

    // What the reaper does when that TTL fires, against the real store: the two overwrites go.
    const store = new S3RestObjectStore(requester());
    expect((await store.listVersions(presigned.json.key)).length).toBe(3);
    expect(await sealUpload({ storage: store }, { key: presigned.json.key, versionId: file!.versionId as string })).toEqual({ removed: 2 });
    expect(await store.listVersions(presigned.json.key)).toEqual([{ versionId: file!.versionId }]);
    // The pinned version is the current one again: nothing left for noncurrent expiry to take.
    expect((await store.head(presigned.json.key))?.versionId).toBe(file!.versionId);
    expect((await followDownload(completed.json.userKey)).bytes).toEqual(original);
  });

  it("keeps serving records completed before versioning (no version id), unpinned", async () => {
    const { completed } = await upload(key, "legacy.apk", original);
    expect(completed.status, completed.text).toBe(200);
    await db().send(
      new UpdateCommand({
        TableName: stack().tableName,
        Key: { pk: `SHARE#${completed.json.userKey}`, sk: "SHARE" },
        UpdateExpression: "REMOVE versionId, iconVersionId",
      }),
    );
    const download = await followDownload(completed.json.userKey);
    expect(new URL(download.location).searchParams.has("versionId")).toBe(false);
    expect(download.bytes).toEqual(original);
  });
});

describe("the object changing between complete's HEAD and its ranged reads", () => {
  /**
   * Complete as the service runs it (real DynamoDB, object store, S3 adapters and extractor), with
   * `afterHead` run between the HEAD and the first ranged read: the window an overwrite could use.
   */
  async function completeWithRace(fileName: string, afterHead: (objectKey: string, versionId: string | undefined) => Promise<void>) {
    const declared = { fileName, fileSize: original.length, fileType: mediaType(fileName) };
    const presigned = await presign(key, declared);
    expect(presigned.status).toBe(200);
    expect((await put(presigned.json.uploadUrl, original)).status).toBe(200);

    const s3 = requester();
    const real = new S3RestObjectStore(s3);
    const racingStore: ObjectStore = {
      async head(objectKey) {
        const head = await real.head(objectKey);
        await afterHead(objectKey, head?.versionId);
        return head;
      },
      // Never the bytes with the head: the package is read by ranges after it, as a large one is,
      // so the window exists (a small package read whole in one GET has none).
      read(objectKey) {
        return this.head(objectKey);
      },
      put: (k, body, type) => real.put(k, body, type),
      delete: (k) => real.delete(k),
      listVersions: (k) => real.listVersions(k),
    };
    const deps: CompleteDeps = {
      files: new DynamoFileRepository(db(), stack().tableName),
      storage: racingStore,
      inspector: new RangedPackageInspector((pkg) => new S3RestRangeReader(s3, pkg)),
      clock: { now: () => new Date() },
      ids: randomIds,
      settings: defaultUploadSettings,
    };
    const caller = (await new DynamoApiKeyRepository(db(), stack().tableName).get(key.clientId)) as ApiKey;
    const outcome = await completeUpload(deps, caller, { ...declared, key: presigned.json.key }, {
      publicBaseUrl: stack().baseUrl,
      shareBaseUrl: stack().baseUrl,
    }).catch((error: unknown) => error);
    return { declared, presigned, outcome };
  }

  it("an overwrite after HEAD: the original is read, recorded and served", async () => {
    const truth = await inspectFile(path);
    const { outcome, presigned } = await completeWithRace("overwritten.apk", async (objectKey) => {
      await storeClient().send(
        new PutObjectCommand({ Bucket: stack().bucketName, Key: objectKey, Body: swapped(original), ContentType: mediaType(objectKey) }),
      );
    });
    expect(outcome).not.toBeInstanceOf(Error);
    const result = outcome as Awaited<ReturnType<typeof completeUpload>>;
    expect(result.metadata).toMatchObject({ appName: truth.appName, bundleId: truth.bundleId, version: truth.version });
    expect((await followDownload(result.userKey)).bytes).toEqual(original);
    expect(await item(`FILE#${presigned.json.fileId}`, "FILE")).toMatchObject({ status: "completed" });
  });

  it("the pinned version deleted after HEAD: a clean 409 object_changed, and the upload stays pending", async () => {
    const { outcome, presigned, declared } = await completeWithRace("vanished.apk", async (objectKey, versionId) => {
      expect(versionId).toEqual(expect.any(String));
      await storeClient().send(new DeleteObjectCommand({ Bucket: stack().bucketName, Key: objectKey, VersionId: versionId }));
    });
    expect(outcome).toBeInstanceOf(ConflictError);
    expect((outcome as ConflictError).code).toBe("object_changed");
    const record = await item(`FILE#${presigned.json.fileId}`, "FILE");
    expect(record).toMatchObject({ status: "pending" });
    expect(record).not.toHaveProperty("userKey");

    // Through the API the upload is still a normal pending one: nothing is stored now, so complete says so (4xx).
    const again = await complete(key, { ...declared, key: presigned.json.key });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe("object_missing");
  });
});
