import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import type { S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BufferRangeReader } from "../../src/reader/buffer-range-reader";
import { FileRangeReader } from "../../src/reader/file-range-reader";
import { S3RangeReader } from "../../src/s3";
import { errorCode } from "../helpers/error-code";

const content = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

describe("FileRangeReader", () => {
  let dir: string;
  let path: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hangar-reader-"));
    path = join(dir, "file.bin");
    await writeFile(path, content);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads exact ranges and counts them", async () => {
    const reader = await FileRangeReader.open(path);
    expect(reader.size).toBe(1000);
    expect((await reader.read(10, 5)).equals(content.subarray(10, 15))).toBe(true);
    expect((await reader.read(990, 10)).equals(content.subarray(990))).toBe(true);
    expect(reader.stats).toEqual({ bytesRead: 15, reads: 2 });
    await reader.close();
  });

  it("refuses ranges outside the file with read_failed", async () => {
    const reader = await FileRangeReader.open(path);
    expect(await errorCode(reader.read(995, 10))).toBe("read_failed");
    expect(await errorCode(reader.read(-1, 1))).toBe("read_failed");
    expect(await errorCode(reader.read(0.5, 1))).toBe("read_failed");
    expect(reader.stats.reads).toBe(0);
    await reader.close();
  });

  it("read_failed for a missing file or a directory", async () => {
    expect(await errorCode(FileRangeReader.open(join(dir, "nope")))).toBe("read_failed");
    expect(await errorCode(FileRangeReader.open(dir))).toBe("read_failed");
  });
});

describe("BufferRangeReader", () => {
  it("returns copies, so later mutation of the source does not leak into results", async () => {
    const source = Buffer.from(content);
    const reader = new BufferRangeReader(source);
    const got = await reader.read(0, 4);
    source[0] = 99;
    expect(got[0]).toBe(0);
  });
});

describe("S3RangeReader", () => {
  function fakeClient(onSend: (input: GetObjectCommand["input"]) => Buffer | Error) {
    const calls: GetObjectCommand["input"][] = [];
    const client = {
      async send(command: GetObjectCommand) {
        expect(command).toBeInstanceOf(GetObjectCommand);
        calls.push(command.input);
        const result = onSend(command.input);
        if (result instanceof Error) throw result;
        // Only the part of the SDK stream mixin the reader uses.
        return { Body: { transformToByteArray: async () => new Uint8Array(result) } };
      },
    } as unknown as S3Client;
    return { client, calls };
  }

  function served(input: GetObjectCommand["input"]): Buffer {
    const [, from, to] = /^bytes=(\d+)-(\d+)$/.exec(input.Range ?? "") ?? [];
    return content.subarray(Number(from), Number(to) + 1);
  }

  it("sends inclusive byte ranges and the If-Match etag", async () => {
    const { client, calls } = fakeClient(served);
    const reader = new S3RangeReader({ client, bucket: "b", key: "k.ipa", size: 1000, ifMatch: '"etag"' });
    expect((await reader.read(100, 50)).equals(content.subarray(100, 150))).toBe(true);
    expect(calls).toEqual([{ Bucket: "b", Key: "k.ipa", Range: "bytes=100-149", IfMatch: '"etag"' }]);
    expect(reader.stats).toEqual({ bytesRead: 50, reads: 1 });
  });

  it("reads every range from the pinned version", async () => {
    const { client, calls } = fakeClient(served);
    const reader = new S3RangeReader({ client, bucket: "b", key: "k.apk", size: 1000, versionId: "v1" });
    await reader.read(0, 10);
    await reader.read(990, 10);
    expect(calls).toEqual([
      { Bucket: "b", Key: "k.apk", Range: "bytes=0-9", VersionId: "v1" },
      { Bucket: "b", Key: "k.apk", Range: "bytes=990-999", VersionId: "v1" },
    ]);
  });

  it("read_failed on short bodies, SDK errors and out-of-range requests", async () => {
    const short = new S3RangeReader({ client: fakeClient(() => Buffer.alloc(3)).client, bucket: "b", key: "k", size: 1000 });
    expect(await errorCode(short.read(0, 10))).toBe("read_failed");
    const failing = new S3RangeReader({
      client: fakeClient(() => new Error("AccessDenied")).client,
      bucket: "b",
      key: "k",
      size: 1000,
    });
    expect(await errorCode(failing.read(0, 10))).toBe("read_failed");
    const { client, calls } = fakeClient(served);
    expect(await errorCode(new S3RangeReader({ client, bucket: "b", key: "k", size: 1000 }).read(999, 2))).toBe(
      "read_failed",
    );
    expect(calls).toHaveLength(0);
  });
});
