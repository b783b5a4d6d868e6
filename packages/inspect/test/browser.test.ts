import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { crc32 as nodeCrc32, deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BlobRangeReader, inspectBlob } from "../src/browser";
import { crc32, inflateRaw } from "../src/browser/zlib-browser";

/**
 * The extractor's browser entry (the dashboard reads a dropped package with it), run here on
 * Node's own Blob and DecompressionStream, the same platform APIs a browser has: the Blob-backed
 * reader, and the stand-ins for node:zlib the web app's bundler puts in place of Node's.
 */
const fixture = (name: string) => readFile(fileURLToPath(new URL(`../fixtures/apk/${name}`, import.meta.url)));

const inflated = (data: Uint8Array, maxOutputLength: number) =>
  new Promise<{ error: (Error & { code?: string }) | null; result: Buffer }>((resolve) => inflateRaw(data, { maxOutputLength }, (error, result) => resolve({ error, result })));

describe("@hangar/inspect/browser", () => {
  it("reads a package's name, version, bundle id and platform from a Blob, reading only ranges", async () => {
    const bytes = await fixture("aapt2-adaptive-icon.apk");
    expect(await inspectBlob(new Blob([bytes]), "App.apk")).toEqual({
      platform: "android",
      appName: "Adaptive",
      bundleId: "com.hangar.adaptive",
      version: "1.2",
      buildNumber: "12",
    });
    const reader = new BlobRangeReader(new Blob([bytes]));
    expect((await reader.read(0, 4)).toString("latin1")).toBe("PK\u0003\u0004");
    await expect(reader.read(bytes.length - 2, 4)).rejects.toMatchObject({ code: "read_failed" });
  });

  it("refuses what is no package with the extractor's error", async () => {
    await expect(inspectBlob(new Blob(["just text"]), "fake.apk")).rejects.toMatchObject({ name: "InspectError" });
  });

  it("inflates raw deflate like zlib, cut off past maxOutputLength with zlib's error code", async () => {
    const text = Buffer.from("hangar ".repeat(5000));
    const compressed = deflateRawSync(text);
    const ok = await inflated(compressed, text.length);
    expect(ok.error).toBeNull();
    expect(ok.result.equals(text)).toBe(true);
    const bomb = await inflated(compressed, 100);
    expect(bomb.error?.code).toBe("ERR_BUFFER_TOO_LARGE");
    expect((await inflated(Buffer.from("not deflate at all"), 1000)).error).toBeInstanceOf(Error);
  });

  it("computes zlib's CRC-32", () => {
    for (const data of [Buffer.alloc(0), Buffer.from("123456789"), Buffer.from("hangar ".repeat(1000))]) expect(crc32(data)).toBe(nodeCrc32(data));
  });
});
