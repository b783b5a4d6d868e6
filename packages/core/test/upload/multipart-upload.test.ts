import { describe, expect, it } from "vitest";
import {
  MAX_PARTS,
  PartUrls,
  StartMultipart,
  defaultUploadSettings,
  parseInput,
  partSizeFor,
  presignParts,
  startMultipartUpload,
  type MultipartStore,
  type PresignPartInput,
} from "../../src";
import { MemoryFiles, apiKey, fixedClock, sequentialIds } from "../support/fakes";

const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

describe("part size", () => {
  it("is 8 MiB up to 256 MiB, then about 32 parts of at most 64 MiB, then the whole number of MiB that keeps 10,000 parts", () => {
    expect(partSizeFor(1)).toBe(8 * MiB);
    expect(partSizeFor(25 * MiB)).toBe(8 * MiB);
    expect(partSizeFor(256 * MiB)).toBe(8 * MiB);
    expect(partSizeFor(256 * MiB + 1)).toBe(9 * MiB);
    expect(partSizeFor(300 * MiB)).toBe(10 * MiB);
    expect(partSizeFor(GiB)).toBe(32 * MiB);
    expect(partSizeFor(2 * GiB)).toBe(64 * MiB);
    expect(partSizeFor(30 * GiB)).toBe(64 * MiB);
    expect(partSizeFor(10_000 * 64 * MiB)).toBe(64 * MiB);
    expect(partSizeFor(10_000 * 64 * MiB + 1)).toBe(65 * MiB);
    for (const size of [300 * MiB, 700_001 * MiB, 1024 * GiB, 5 * 1024 * GiB]) {
      const part = partSizeFor(size);
      expect(part % MiB).toBe(0);
      expect(Math.ceil(size / part)).toBeLessThanOrEqual(MAX_PARTS);
    }
  });
});

describe("start", () => {
  it("signs each listed part for its exact length, the last one the rest", async () => {
    const signed: PresignPartInput[] = [];
    const multipart: MultipartStore = {
      create: async () => "upload-1",
      listParts: async () => [],
      complete: async () => true,
      abort: async () => undefined,
    };
    const deps = {
      files: new MemoryFiles(),
      multipart,
      signer: { presignPart: async (input: PresignPartInput) => (signed.push(input), `https://store.test/${input.partNumber}`) },
      clock: fixedClock(),
      ids: sequentialIds(),
      settings: defaultUploadSettings,
    };
    const fileSize = 20 * MiB + 5;
    const result = await startMultipartUpload(
      deps,
      apiKey(),
      parseInput(StartMultipart, {
        fileName: "big.ipa",
        fileSize,
        fileType: "application/octet-stream",
        partChecksums: [3, 1].map((partNumber) => ({ partNumber, checksumCRC32C: "yZRlqg==" })),
      }),
    );
    expect(result).toMatchObject({ uploadId: "upload-1", partSize: 8 * MiB, partCount: 3 });
    expect(result.parts.map((p) => p.partNumber)).toEqual([1, 3]);
    expect(signed.map((s) => [s.partNumber, s.size])).toEqual([
      [1, 8 * MiB],
      [3, 4 * MiB + 5],
    ]);
    expect(await deps.files.get(result.fileId)).toMatchObject({ status: "pending", uploadId: "upload-1", partSize: 8 * MiB });
  });
});

describe("checksum algorithm", () => {
  const setup = () => {
    const created: string[] = [];
    const signed: PresignPartInput[] = [];
    const multipart: MultipartStore = {
      create: async (_key, _type, algorithm) => (created.push(algorithm), "upload-1"),
      listParts: async () => [],
      complete: async () => true,
      abort: async () => undefined,
    };
    const deps = {
      files: new MemoryFiles(),
      multipart,
      signer: { presignPart: async (input: PresignPartInput) => (signed.push(input), `https://store.test/${input.partNumber}`) },
      clock: fixedClock(),
      ids: sequentialIds(),
      settings: defaultUploadSettings,
    };
    return { created, signed, deps };
  };
  const start = (extra: Record<string, unknown>) =>
    parseInput(StartMultipart, { fileName: "big.ipa", fileSize: 20 * MiB, fileType: "application/octet-stream", ...extra });

  it("is CRC32C unless the client asks for CRC32, which S3 is told at create and every part URL signs", async () => {
    const { created, signed, deps } = setup();
    await startMultipartUpload(deps, apiKey(), start({ partChecksums: [{ partNumber: 1, checksumCRC32C: "yZRlqg==" }] }));
    const result = await startMultipartUpload(
      deps,
      apiKey(),
      start({ checksumAlgorithm: "CRC32", partChecksums: [{ partNumber: 2, checksumCRC32: "NhCmhg==" }] }),
    );
    expect(created).toEqual(["CRC32C", "CRC32"]);
    expect(signed.map((s) => [s.checksumCRC32C, s.checksumCRC32])).toEqual([
      ["yZRlqg==", undefined],
      [undefined, "NhCmhg=="],
    ]);
    expect(await deps.files.get(result.fileId)).toMatchObject({ checksumAlgorithm: "CRC32" });
    await expect(
      presignParts(deps, apiKey(), parseInput(PartUrls, { key: result.key, uploadId: "upload-1", partChecksums: [{ partNumber: 1, checksumCRC32: "NhCmhg==" }] })),
    ).resolves.toMatchObject({ parts: [{ partNumber: 1 }] });
  });

  it("refuses a part checksum of the other algorithm, and a part with both or neither", async () => {
    const { deps, signed } = setup();
    await expect(
      startMultipartUpload(deps, apiKey(), start({ checksumAlgorithm: "CRC32", partChecksums: [{ partNumber: 1, checksumCRC32C: "yZRlqg==" }] })),
    ).rejects.toMatchObject({ issues: [{ field: "partChecksums", message: "part 1: this upload's parts carry checksumCRC32" }] });
    const crc32c = await startMultipartUpload(deps, apiKey(), start({}));
    await expect(
      presignParts(deps, apiKey(), parseInput(PartUrls, { key: crc32c.key, uploadId: "upload-1", partChecksums: [{ partNumber: 1, checksumCRC32: "NhCmhg==" }] })),
    ).rejects.toMatchObject({ issues: [{ field: "partChecksums", message: "part 1: this upload's parts carry checksumCRC32C" }] });
    for (const part of [{ partNumber: 1 }, { partNumber: 1, checksumCRC32: "NhCmhg==", checksumCRC32C: "yZRlqg==" }]) {
      expect(() => parseInput(PartUrls, { key: crc32c.key, uploadId: "upload-1", partChecksums: [part] })).toThrow(/exactly one of checksumCRC32C and checksumCRC32/);
    }
    expect(signed).toEqual([]);
  });
});
