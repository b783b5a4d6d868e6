import { DeleteObjectCommand, ListObjectVersionsCommand, S3Client } from "@aws-sdk/client-s3";
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
  let send: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    // The reaper's settings go through the same schema as every function's (settings.schema.ts).
    vi.stubEnv("HANGAR_TABLE_NAME", "table");
    vi.stubEnv("HANGAR_BUCKET_NAME", "uploads-bucket");
    vi.stubEnv("AWS_REGION", "eu-west-1");
    send = vi.spyOn(S3Client.prototype, "send");
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  const event = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });

  it("deletes the objects of expired uploads and nothing else, through the S3 object store", async () => {
    send.mockResolvedValue({} as never);
    const result = await handler(event(record({ sequence: "1" }), record({ sequence: "2", userIdentity: undefined })));
    expect(result).toEqual({ batchItemFailures: [] });
    expect(send).toHaveBeenCalledTimes(1);
    const command = send.mock.calls[0]![0] as DeleteObjectCommand;
    expect(command).toBeInstanceOf(DeleteObjectCommand);
    expect(command.input).toEqual({ Bucket: "uploads-bucket", Key: KEY });
  });

  it("reports the records whose delete failed so Lambda retries them", async () => {
    send.mockRejectedValueOnce(new Error("SlowDown") as never).mockResolvedValue({} as never);
    const result = await handler(event(record({ sequence: "10" }), record({ sequence: "11" })));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: "10" }] });
    expect(send).toHaveBeenCalledTimes(2);
  });

  it("seals a completed upload: every other version of its key is destroyed, the pinned one kept", async () => {
    send.mockImplementation(async (command: unknown) => {
      if (command instanceof ListObjectVersionsCommand) {
        return {
          Versions: [
            { Key: KEY, VersionId: "v-overwrite" },
            { Key: KEY, VersionId: "v-pinned" },
            { Key: `${KEY}.longer`, VersionId: "v-other-key" },
          ],
          DeleteMarkers: [{ Key: KEY, VersionId: "v-marker" }],
          IsTruncated: false,
        };
      }
      return {};
    });
    const seal = { type: { S: "seal" }, key: { S: KEY }, versionId: { S: "v-pinned" } };
    const result = await handler(event(record({ image: seal })));
    expect(result).toEqual({ batchItemFailures: [] });
    const commands: unknown[] = send.mock.calls.map((call: unknown[]) => call[0]);
    const deletes = commands.filter((c): c is DeleteObjectCommand => c instanceof DeleteObjectCommand);
    expect(deletes.map((c) => c.input)).toEqual([
      { Bucket: "uploads-bucket", Key: KEY, VersionId: "v-overwrite" },
      { Bucket: "uploads-bucket", Key: KEY, VersionId: "v-marker" },
    ]);
  });
});
