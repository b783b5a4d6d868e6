import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZipWriter, zipToBuffer } from "../../fixtures/zip-writer";
import { createInspectContext } from "../../src/inspect-context";
import type { InspectLimits } from "../../src/inspect-result";
import { BufferRangeReader } from "../../src/reader/buffer-range-reader";
import { FileRangeReader } from "../../src/reader/file-range-reader";
import { LOCAL_HEADER_SLACK, openZip } from "../../src/zip/open-zip";
import { TAIL_READ_BYTES } from "../../src/zip/zip-structure";
import { errorCode } from "../helpers/error-code";
import { LoggingReader } from "../helpers/logging-reader";

const text = (s: string) => Buffer.from(s, "utf8");

function open(bytes: Buffer, limits?: Partial<InspectLimits>) {
  return openZip(new BufferRangeReader(bytes), createInspectContext(limits));
}

describe("openZip on small archives", () => {
  it("reads stored and deflated entries", async () => {
    const big = Buffer.from("hello deflate ".repeat(500));
    const zip = await open(
      await zipToBuffer([
        { name: "a.txt", data: text("stored bytes"), method: "store" },
        { name: "dir/b.txt", data: big },
      ]),
    );
    expect([...zip.entries.keys()]).toEqual(["a.txt", "dir/b.txt"]);
    expect(zip.entries.get("dir/b.txt")).toMatchObject({ method: 8, uncompressedSize: big.length });
    expect((await zip.read("a.txt")).toString()).toBe("stored bytes");
    expect((await zip.read("dir/b.txt")).equals(big)).toBe(true);
  });

  it("reads entries written with data descriptors (sizes only in the central directory)", async () => {
    const data = Buffer.from("x".repeat(3000) + "end");
    const zip = await open(
      await zipToBuffer([
        { name: "d.bin", data, dataDescriptor: true },
        { name: "s.bin", data: text("stored"), method: "store", dataDescriptor: true },
      ]),
    );
    expect((await zip.read("d.bin")).equals(data)).toBe(true);
    expect((await zip.read("s.bin")).toString()).toBe("stored");
  });

  it("ignores the encryption bit, like Android", async () => {
    const zip = await open(
      await zipToBuffer([{ name: "flagged.txt", data: text("not really encrypted"), encryptedFlag: true }]),
    );
    expect((await zip.read("flagged.txt")).toString()).toBe("not really encrypted");
  });

  it("reads forced ZIP64 records and per-entry ZIP64 extras", async () => {
    const zip = await open(
      await zipToBuffer(
        [
          { name: "one", data: text("1"), method: "store" },
          { name: "two", data: text("2".repeat(100)) },
        ],
        { forceZip64: true },
      ),
    );
    expect(zip.endRecord.zip64).toBe(true);
    expect((await zip.read("two")).toString()).toBe("2".repeat(100));
  });

  it("finds the end record behind a 65,535-byte comment, even one containing a signature", async () => {
    const comment = Buffer.alloc(0xffff, 0x41);
    // A fake EOCD signature early in the comment whose comment length would not fit.
    comment.writeUInt32LE(0x06054b50, 10);
    const bytes = await zipToBuffer([{ name: "c.txt", data: text("with comment") }], { comment });
    const zip = await open(bytes);
    expect(zip.comment.length).toBe(0xffff);
    expect((await zip.read("c.txt")).toString()).toBe("with comment");
  });

  it("reads local headers whose extra field is longer than the central one", async () => {
    const zip = await open(
      await zipToBuffer([
        { name: "short", data: text("s"), localExtra: Buffer.alloc(8) },
        { name: "long", data: text("long extra"), localExtra: Buffer.alloc(3000), method: "store" },
      ]),
    );
    expect((await zip.read("short")).toString()).toBe("s");
    expect((await zip.read("long")).toString()).toBe("long extra");
  });

  it("decodes UTF-8 names without the flag, and CP437 names", async () => {
    const cp437 = Buffer.from([0x80, 0x81, 0x2e, 0x74]); // "Çü.t" in CP437, invalid UTF-8
    const bytes = await zipToBuffer([
      { name: "Ünïcödé/名前.txt", data: text("u"), utf8Flag: false },
      { name: "placeholder", data: text("p"), utf8Flag: false },
    ]);
    // Patch the second name (same length) to raw CP437 bytes in both headers.
    let at = bytes.indexOf("placeholder");
    while (at >= 0) {
      cp437.copy(bytes, at);
      bytes.write("der", at + 4, "latin1"); // keep length: "Çü.tceholder"
      at = bytes.indexOf("placeholder", at + 1);
    }
    const zip = await open(bytes);
    expect(zip.entries.has("Ünïcödé/名前.txt")).toBe(true);
    expect([...zip.entries.keys()][1]).toMatch(/^Çü\.t/);
  });
});

describe("prefetch", () => {
  it("fetches entries once, up front, and read() uses those bytes", async () => {
    const bytes = await zipToBuffer([
      { name: "a", data: text("first") },
      { name: "pad", data: Buffer.alloc(200_000, 1), method: "store" },
      { name: "b", data: text("second"), method: "store" },
      { name: "pad2", data: Buffer.alloc(200_000, 2), method: "store" },
    ]);
    const reader = new BufferRangeReader(bytes);
    const zip = await openZip(reader, createInspectContext());
    const afterOpen = reader.stats.reads;
    zip.prefetch(["a", "b", "missing"]);
    expect(reader.stats.reads).toBe(afterOpen + 2);
    expect((await zip.read("a")).toString()).toBe("first");
    expect((await zip.read("b")).toString()).toBe("second");
    expect(reader.stats.reads).toBe(afterOpen + 2);
    // Consumed: a second read fetches again.
    await zip.read("a");
    expect(reader.stats.reads).toBe(afterOpen + 3);
  });

  it("a failed prefetch surfaces on read, not as an unhandled rejection", async () => {
    const bytes = await zipToBuffer([{ name: "a", data: text("payload"), method: "store" }]);
    bytes.writeUInt32LE(0, 0); // break the local header signature
    const zip = await open(bytes);
    zip.prefetch(["a"]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await errorCode(zip.read("a"))).toBe("zip_corrupt");
  });
});

describe("readBeforeCentralDirectory (where an APK keeps its signing block)", () => {
  it("answers from the tail read when it covers the bytes, else fetches only what is missing, once", async () => {
    // 2,000 entries: a central directory larger than the tail read, so the bytes before it are not at hand.
    const entries = Array.from({ length: 2000 }, (_, i) => ({ name: `f/${String(i).padStart(5, "0")}`, data: text(`${i}`), method: "store" as const }));
    const bytes = await zipToBuffer([{ name: "big.bin", data: Buffer.alloc(40_000, 7), method: "store" }, ...entries]);
    const reader = new LoggingReader(new BufferRangeReader(bytes));
    const zip = await openZip(reader, createInspectContext());
    const cd = zip.endRecord.centralDirectoryOffset;
    expect(zip.endRecord.centralDirectorySize).toBeGreaterThan(TAIL_READ_BYTES);
    reader.log.length = 0;
    expect((await zip.readBeforeCentralDirectory(24, 1000)).equals(bytes.subarray(cd - 1000, cd))).toBe(true);
    expect(reader.log).toEqual([{ offset: cd - 1000, length: 1000 }]);
    expect((await zip.readBeforeCentralDirectory(500)).equals(bytes.subarray(cd - 1000, cd))).toBe(true);
    expect((await zip.readBeforeCentralDirectory(3000)).equals(bytes.subarray(cd - 3000, cd))).toBe(true);
    expect(reader.log).toEqual([
      { offset: cd - 1000, length: 1000 },
      { offset: cd - 3000, length: 2000 },
    ]);
    // Never before the file's start.
    expect((await zip.readBeforeCentralDirectory(cd + 10_000)).length).toBe(cd);

    const small = await zipToBuffer([{ name: "a.txt", data: text("x".repeat(5000)), method: "store" }]);
    const smallReader = new LoggingReader(new BufferRangeReader(small));
    const smallZip = await openZip(smallReader, createInspectContext());
    const smallCd = smallZip.endRecord.centralDirectoryOffset;
    const before = await smallZip.readBeforeCentralDirectory(24, 16_384);
    // All of it was in the tail read: every byte before the directory, and no read for them.
    expect(before.equals(small.subarray(0, smallCd))).toBe(true);
    expect(smallReader.log).toHaveLength(1);
  });
});

describe("openZip refuses what is not a sound ZIP", () => {
  it("not_a_zip without an end record", async () => {
    expect(await errorCode(open(Buffer.alloc(5000, 7)))).toBe("not_a_zip");
    expect(await errorCode(open(Buffer.alloc(3)))).toBe("not_a_zip");
  });

  it("zip_corrupt or not_a_zip when truncated anywhere", async () => {
    const bytes = await zipToBuffer([
      { name: "a", data: Buffer.from("aaaa".repeat(1000)) },
      { name: "b", data: text("bbb"), method: "store" },
    ]);
    for (const cut of [1, 10, 21, 22, 60, 100, bytes.length - 200]) {
      const truncated = bytes.subarray(0, bytes.length - cut);
      const code = await errorCode(
        open(truncated).then(async (zip) => {
          for (const name of zip.entries.keys()) await zip.read(name);
        }),
      );
      expect(["not_a_zip", "zip_corrupt"]).toContain(code);
    }
  });

  it("zip_corrupt on a CRC mismatch", async () => {
    const bytes = await zipToBuffer([{ name: "a", data: text("payload"), method: "store" }]);
    bytes[bytes.indexOf("payload")] = 0x50;
    expect(await errorCode(open(bytes).then((zip) => zip.read("a")))).toBe("zip_corrupt");
  });

  it("zip_corrupt on an unsupported compression method", async () => {
    const bytes = await zipToBuffer([{ name: "a", data: text("payload"), method: "store" }]);
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt16LE(12, cd + 10); // bzip2
    expect(await errorCode(open(bytes).then((zip) => zip.read("a")))).toBe("zip_corrupt");
  });

  it("zip_corrupt when an entry points into the central directory", async () => {
    const bytes = await zipToBuffer([{ name: "a", data: text("payload") }]);
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(cd + 4, cd + 42);
    expect(await errorCode(open(bytes))).toBe("zip_corrupt");
  });
});

describe("caps against zip bombs", () => {
  const zeros = Buffer.alloc(4 * 1024 * 1024);

  it("refuses an entry whose declared size exceeds maxEntryBytes, before reading it", async () => {
    const reader = new BufferRangeReader(await zipToBuffer([{ name: "big", data: zeros, method: "store" }]));
    const zip = await openZip(reader, createInspectContext({ maxEntryBytes: 1024 * 1024 }));
    const readsBefore = reader.stats.reads;
    expect(await errorCode(zip.read("big"))).toBe("too_large");
    expect(reader.stats.reads).toBe(readsBefore);
  });

  it("honours a per-call maxBytes", async () => {
    const zip = await open(await zipToBuffer([{ name: "e", data: Buffer.alloc(5000) }]));
    expect(await errorCode(zip.read("e", { maxBytes: 4999 }))).toBe("too_large");
    expect((await zip.read("e", { maxBytes: 5000 })).length).toBe(5000);
  });

  it("refuses a declared compression ratio above the cap", async () => {
    // 4 MiB of zeros deflates ~1000:1.
    const zip = await open(await zipToBuffer([{ name: "bomb", data: zeros }]), { maxCompressionRatio: 100 });
    expect(await errorCode(zip.read("bomb"))).toBe("too_large");
  });

  it("stops inflating as soon as an entry passes its declared size", async () => {
    const bytes = await zipToBuffer([{ name: "liar", data: zeros }]);
    // Make the central directory claim 1000 bytes: inflation must be cut off, not run to 4 MiB.
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(1000, cd + 24);
    expect(await errorCode(open(bytes).then((zip) => zip.read("liar")))).toBe("zip_corrupt");
  });

  it("zip_corrupt when deflate data is garbage", async () => {
    const garbage = deflateRawSync(Buffer.from("z".repeat(1000)));
    const bytes = await zipToBuffer([{ name: "g", data: Buffer.from("z".repeat(1000)) }]);
    const at = bytes.indexOf(garbage);
    bytes.fill(0xff, at, at + 4);
    expect(await errorCode(open(bytes).then((zip) => zip.read("g")))).toBe("zip_corrupt");
  });

  it("times out through the deadline", async () => {
    const bytes = await zipToBuffer([{ name: "a", data: text("a") }]);
    const ctx = createInspectContext({ timeBudgetMs: -1 });
    expect(await errorCode(openZip(new BufferRangeReader(bytes), ctx))).toBe("timeout");
  });
});

describe("large archives generated at test time", () => {
  let dir: string;
  let manyPath: string;
  let bigPath: string;
  const bigAsset = 200 * 1024 * 1024;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "hangar-zip-"));
    manyPath = join(dir, "many.zip");
    const many = await ZipWriter.toFile(manyPath);
    for (let i = 0; i < 70_000; i++) {
      await many.add({ name: `Payload/Big.app/assets/${i}.txt`, data: Buffer.from(String(i)), method: "store" });
    }
    await many.add({ name: "last.txt", data: text("the last one") });
    await many.finish();

    bigPath = join(dir, "big.zip");
    const big = await ZipWriter.toFile(bigPath);
    await big.add({ name: "first.txt", data: text("before the asset") });
    await big.addRepeated("assets/huge.bin", bigAsset, { sparse: true });
    await big.add({ name: "after.txt", data: text("after the asset"), dataDescriptor: true });
    await big.finish();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a ZIP64 archive of more than 65,535 entries", async () => {
    const reader = await FileRangeReader.open(manyPath);
    try {
      const zip = await openZip(reader, createInspectContext());
      expect(zip.endRecord.zip64).toBe(true);
      expect(zip.entries.size).toBe(70_001);
      expect((await zip.read("Payload/Big.app/assets/69999.txt")).toString()).toBe("69999");
      expect((await zip.read("last.txt")).toString()).toBe("the last one");
      // Tail, the one central-directory read, then one read per entry outside those.
      expect(reader.stats.reads).toBe(4);
      const cd = zip.endRecord.centralDirectorySize;
      expect(reader.stats.bytesRead).toBeLessThanOrEqual(TAIL_READ_BYTES + cd + 2 * (100 + LOCAL_HEADER_SLACK));
    } finally {
      await reader.close();
    }
  });

  it("reads around a 200 MB stored asset without touching it", async () => {
    const reader = await FileRangeReader.open(bigPath);
    try {
      expect(reader.size).toBeGreaterThan(bigAsset);
      const zip = await openZip(reader, createInspectContext());
      expect((await zip.read("first.txt")).toString()).toBe("before the asset");
      expect((await zip.read("after.txt")).toString()).toBe("after the asset");
      expect(zip.entries.get("assets/huge.bin")?.uncompressedSize).toBe(bigAsset);
      // One tail read (holding the directory and after.txt) and one for first.txt.
      expect(reader.stats.reads).toBe(2);
      expect(reader.stats.bytesRead).toBeLessThanOrEqual(TAIL_READ_BYTES + 200);
    } finally {
      await reader.close();
    }
  });
});
