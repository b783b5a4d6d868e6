import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { startObjectStore } from "@hangar/local";
import type { DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { logger } from "../../src/observability/logger";
import { expiredObjectKeys, handler, sealTarget } from "../../src/housekeeping/reap-expired-uploads.handler";

// The logger reads its level at import; these tests assert behaviour, not log lines.
beforeAll(() => logger.setLogLevel("SILENT"));
afterAll(() => logger.setLogLevel("INFO"));

const KEY = "uploads/proj_1/file_1/app-release.apk";
const ttl = { type: "Service", principalId: "dynamodb.amazonaws.com" };

function record(overrides: {
  eventName?: DynamoDBRecord["eventName"];
  userIdentity?: unknown;
  image?: Record<string, { S: string }>;
  sequence?: string;
}): DynamoDBRecord {
  return {
    eventID: `ev-${overrides.sequence ?? "1"}`,
    eventName: overrides.eventName ?? "REMOVE",
    userIdentity: "userIdentity" in overrides ? overrides.userIdentity : ttl,
    dynamodb: {
      SequenceNumber: overrides.sequence ?? "1",
      OldImage: overrides.image ?? { type: { S: "file" }, status: { S: "pending" }, key: { S: KEY } },
    },
  } as DynamoDBRecord;
}

describe("expiredObjectKeys", () => {
  it("returns the package key of a pending file record deleted by TTL", () => {
    expect(expiredObjectKeys(record({}))).toEqual([KEY]);
  });

  it("also returns the icon key when one was stored", () => {
    const image = { type: { S: "file" }, status: { S: "rejected" }, key: { S: KEY }, iconKey: { S: "uploads/proj_1/file_1/icon.png" } };
    expect(expiredObjectKeys(record({ image }))).toEqual([KEY, "uploads/proj_1/file_1/icon.png"]);
  });

  it.each([
    ["a deletion by a user or the app", record({ userIdentity: undefined })],
    ["a deletion by another service principal", record({ userIdentity: { type: "Service", principalId: "events.amazonaws.com" } })],
    ["an update", record({ eventName: "MODIFY" })],
    ["a completed file", record({ image: { type: { S: "file" }, status: { S: "completed" }, key: { S: KEY } } })],
    ["a share record", record({ image: { type: { S: "share" }, status: { S: "pending" }, key: { S: KEY } } })],
    ["a rate-limit window", record({ image: { type: { S: "rate" } } })],
    ["a key outside uploads/", record({ image: { type: { S: "file" }, status: { S: "pending" }, key: { S: "other/x/y/z.apk" } } })],
    ["a key climbing out of its folder", record({ image: { type: { S: "file" }, status: { S: "pending" }, key: { S: "uploads/a/../../etc" } } })],
  ])("ignores %s", (_label, r) => {
    expect(expiredObjectKeys(r)).toEqual([]);
  });
});

describe("sealTarget", () => {
  const seal = { type: { S: "seal" }, key: { S: KEY }, versionId: { S: "v-pinned" } };

  it("returns the pinned object of a seal item deleted by TTL", () => {
    expect(sealTarget(record({ image: seal }))).toEqual({ key: KEY, versionId: "v-pinned" });
    // A seal is not an expired upload: its object must not be deleted.
    expect(expiredObjectKeys(record({ image: seal }))).toEqual([]);
  });

  it.each([
    ["a seal deleted by a person or the app", record({ image: seal, userIdentity: undefined })],
    ["a seal without a version id", record({ image: { type: { S: "seal" }, key: { S: KEY } } })],
    ["a seal naming a key outside uploads/", record({ image: { ...seal, key: { S: "other/a/b/c.apk" } } })],
    ["an expired pending file", record({})],
  ])("ignores %s", (_label, r) => {
    expect(sealTarget(r)).toBeUndefined();
  });
});

describe("handler", () => {
  /**
   * The reaper as deployed (settings from the environment, its composition, signed S3 calls)
   * against the local store, which verifies the signatures and keeps S3's versioning semantics.
   */
  const BUCKET = "uploads-bucket";
  const CREDENTIALS = { accessKeyId: "LOCALTESTKEY00000001", secretAccessKey: "local-test-secret-key/0123456789abcdef" };
  let dataDir: string;
  let store: Awaited<ReturnType<typeof startObjectStore>>;
  let admin: S3Client;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "hangar-reaper-"));
    store = await startObjectStore({ dataDir, region: "eu-west-1", credentials: CREDENTIALS, port: 0 });
    admin = new S3Client({ region: "eu-west-1", endpoint: store.url, forcePathStyle: true, credentials: CREDENTIALS });
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    await admin.send(new PutBucketVersioningCommand({ Bucket: BUCKET, VersioningConfiguration: { Status: "Enabled" } }));
  });
  afterAll(async () => {
    admin.destroy();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    // The reaper's settings go through the same schema as every function's (settings.schema.ts).
    vi.stubEnv("HANGAR_TABLE_NAME", "table");
    vi.stubEnv("HANGAR_BUCKET_NAME", BUCKET);
    vi.stubEnv("AWS_REGION", "eu-west-1");
    vi.stubEnv("HANGAR_S3_ENDPOINT", store.url);
    vi.stubEnv("AWS_ACCESS_KEY_ID", CREDENTIALS.accessKeyId);
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", CREDENTIALS.secretAccessKey);
    vi.stubEnv("AWS_SESSION_TOKEN", "");
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  const event = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });
  const pending = (key: string) => ({ type: { S: "file" }, status: { S: "pending" }, key: { S: key } });
  const put = async (key: string, body: string) => (await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }))).VersionId!;
  /** Every version and delete marker of exactly `key`, as the bucket owner sees them. */
  async function versionsOf(key: string) {
    const out = await admin.send(new ListObjectVersionsCommand({ Bucket: BUCKET, Prefix: key }));
    return {
      versions: (out.Versions ?? []).filter((v) => v.Key === key).map((v) => v.VersionId),
      markers: (out.DeleteMarkers ?? []).filter((m) => m.Key === key).map((m) => m.VersionId),
    };
  }

  it("deletes the objects of expired uploads and nothing else, through the S3 object store", async () => {
    const key = "uploads/proj_1/file_1/app-release.apk";
    const uploaded = await put(key, "package");
    const result = await handler(event(record({ sequence: "1", image: pending(key) }), record({ sequence: "2", userIdentity: undefined, image: pending(key) })));
    expect(result).toEqual({ batchItemFailures: [] });
    // One delete of the key, not of a version: one delete marker, the bytes kept as a noncurrent
    // version for the bucket's lifecycle rule (a second delete would have added a second marker).
    const after = await versionsOf(key);
    expect(after.markers).toHaveLength(1);
    expect(after.versions).toEqual([uploaded]);
  });

  it("reports the records whose delete failed so Lambda retries them", async () => {
    const failing = "uploads/proj_1/file_10/app-release.apk";
    const fine = "uploads/proj_1/file_11/app-release.apk";
    await put(failing, "package");
    await put(fine, "package");
    // S3 slowing down for one key only: every attempt on it is refused, the other key's delete goes through.
    const realFetch = globalThis.fetch;
    const attempts: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(String(input));
      attempts.push(decodeURIComponent(url.pathname));
      if (url.pathname.endsWith("file_10/app-release.apk")) {
        return new Response("<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>", { status: 503 });
      }
      return realFetch(input, init);
    });
    const result = await handler(event(record({ sequence: "10", image: pending(failing) }), record({ sequence: "11", image: pending(fine) })));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: "10" }] });
    // The refused delete was retried before the record was given back; the other was made once.
    expect(attempts).toEqual([...Array(3).fill(`/${BUCKET}/${failing}`), `/${BUCKET}/${fine}`]);
    expect((await versionsOf(failing)).markers).toEqual([]);
    expect((await versionsOf(fine)).markers).toHaveLength(1);
  });

  it("seals a completed upload: every other version of its key is destroyed, the pinned one kept", async () => {
    const key = "uploads/proj_1/file_20/app-release.apk";
    const pinned = await put(key, "inspected bytes");
    await put(key, "an overwrite through a leaked upload URL");
    await admin.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key }));
    const longer = await put(`${key}.longer`, "another key sharing the prefix");
    expect((await versionsOf(key)).versions).toHaveLength(2);

    const seal = { type: { S: "seal" }, key: { S: key }, versionId: { S: pinned } };
    const result = await handler(event(record({ image: seal })));
    expect(result).toEqual({ batchItemFailures: [] });
    // The overwrite and the delete marker are gone; the pinned version is the current one again.
    expect(await versionsOf(key)).toEqual({ versions: [pinned], markers: [] });
    expect((await admin.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }))).VersionId).toBe(pinned);
    // A longer key that merely starts with it is not touched.
    expect(await versionsOf(`${key}.longer`)).toEqual({ versions: [longer], markers: [] });
  });
});
