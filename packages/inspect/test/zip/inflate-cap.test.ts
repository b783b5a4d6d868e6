import { describe, expect, it, vi } from "vitest";
import { zipToBuffer } from "../../fixtures/zip-writer";
import { createInspectContext } from "../../src/inspect-context";
import { BufferRangeReader } from "../../src/reader/buffer-range-reader";
import { openZip } from "../../src/zip/open-zip";
import { errorCode } from "../helpers/error-code";

/**
 * Counts the bytes zlib really inflates. `inflateRaw` is replaced by the same contract built on
 * zlib's stream (the whole output, or ERR_BUFFER_TOO_LARGE at the first chunk past
 * `maxOutputLength`), which counts every chunk it produces: a refusal that came only after
 * inflating the whole bomb shows up in the count, not just in the error.
 */
const inflated = vi.hoisted(() => ({ bytes: 0 }));
vi.mock("node:zlib", async (importOriginal) => {
  const zlib = await importOriginal<typeof import("node:zlib")>();
  const inflateRaw = (input: Buffer, options: { maxOutputLength: number }, done: (error: Error | null, result?: Buffer) => void) => {
    const stream = zlib.createInflateRaw();
    const chunks: Buffer[] = [];
    let produced = 0;
    let finished = false;
    const finish = (error: Error | null, result?: Buffer) => {
      if (finished) return;
      finished = true;
      done(error, result);
    };
    stream.on("data", (chunk: Buffer) => {
      produced += chunk.length;
      inflated.bytes += chunk.length;
      if (produced > options.maxOutputLength) {
        stream.destroy();
        finish(Object.assign(new RangeError("Cannot create a Buffer larger than maxOutputLength"), { code: "ERR_BUFFER_TOO_LARGE" }));
      } else chunks.push(chunk);
    });
    stream.on("end", () => finish(null, Buffer.concat(chunks)));
    stream.on("error", (error) => finish(error));
    stream.end(input);
  };
  return { ...zlib, inflateRaw };
});

describe("the inflate output cap", () => {
  it("reads an honest deflated entry whole", async () => {
    const data = Buffer.from("hello deflate ".repeat(5000));
    const zip = await openZip(new BufferRangeReader(await zipToBuffer([{ name: "ok.txt", data }])), createInspectContext());
    inflated.bytes = 0;
    expect((await zip.read("ok.txt")).equals(data)).toBe(true);
    expect(inflated.bytes).toBe(data.length);
  });

  it("refuses a lying entry (declared 1,000 bytes, inflates to 32 MiB) after inflating about its declared size", async () => {
    const bytes = await zipToBuffer([{ name: "liar", data: Buffer.alloc(32 * 1024 * 1024) }]);
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(1000, cd + 24); // the central directory's uncompressed size
    const zip = await openZip(new BufferRangeReader(bytes), createInspectContext());
    inflated.bytes = 0;
    expect(await errorCode(zip.read("liar"))).toBe("zip_corrupt");
    // zlib stops at the first chunk past the cap (chunks are 16 KiB); never the 32 MiB.
    expect(inflated.bytes).toBeGreaterThan(1000);
    expect(inflated.bytes).toBeLessThanOrEqual(1000 + 64 * 1024);
  });

  it("refuses a small lying entry inflated on the calling thread (declared 1,000 bytes, a 40-byte stream of 32 KiB)", async () => {
    const data = Buffer.alloc(32 * 1024);
    const bytes = await zipToBuffer([{ name: "small-liar", data }]);
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(bytes.readUInt32LE(cd + 20)).toBeLessThan(1000); // the stream is shorter than the declared size
    bytes.writeUInt32LE(1000, cd + 24);
    const zip = await openZip(new BufferRangeReader(bytes), createInspectContext());
    expect(await errorCode(zip.read("small-liar"))).toBe("zip_corrupt");
  });
});
