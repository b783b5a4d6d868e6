import { describe, expect, it } from "vitest";
import { walkChunks } from "../../src/apk/binary/chunk";
import { StringPool, decodeModifiedUtf8 } from "../../src/apk/binary/string-pool";
import { stringPool } from "./helpers/encode";

function parse(buf: Buffer): StringPool {
  const first = walkChunks(buf, 0, buf.length).next();
  if (first.done) throw new Error("no chunk");
  return StringPool.parse(buf, first.value);
}

describe("StringPool UTF-16", () => {
  it("decodes BMP and supplementary characters", () => {
    const pool = parse(stringPool(["", "Hello", "日本語", "🚀 rocket", "l'appli [β]"]));
    expect(pool.utf8).toBe(false);
    expect([0, 1, 2, 3, 4].map((i) => pool.get(i))).toEqual(["", "Hello", "日本語", "🚀 rocket", "l'appli [β]"]);
  });

  it("reads two-unit lengths of strings longer than 0x7FFF units", () => {
    const long = "ab".repeat(20000) + "!";
    const pool = parse(stringPool(["before", long, "after"]));
    expect(pool.get(1)).toBe(long);
    expect(pool.get(1)?.length).toBe(40001);
    expect(pool.get(2)).toBe("after");
  });

  it("reads a string of exactly 0x8000 units (first length that needs two units)", () => {
    const s = "x".repeat(0x8000);
    expect(parse(stringPool([s])).get(0)).toBe(s);
  });
});

describe("StringPool UTF-8", () => {
  it("decodes short strings and keeps char and byte counts apart", () => {
    const pool = parse(stringPool(["a", "é日本", ""], { utf8: true }));
    expect(pool.utf8).toBe(true);
    expect([pool.get(0), pool.get(1), pool.get(2)]).toEqual(["a", "é日本", ""]);
  });

  it("reads two-byte lengths (over 127 characters, multi-byte so bytes ≠ characters)", () => {
    const s = "é".repeat(200); // 200 UTF-16 units, 400 bytes: both lengths need two bytes
    const t = "z".repeat(0x7fff);
    const pool = parse(stringPool([s, t, "end"], { utf8: true }));
    expect(pool.get(0)).toBe(s);
    expect(pool.get(1)).toBe(t);
    expect(pool.get(2)).toBe("end");
  });

  it("decodes aapt2's modified UTF-8: surrogate pairs as two 3-byte sequences, NUL as C0 80", () => {
    const cesu = Buffer.from([0x41, 0xed, 0xa0, 0xbd, 0xed, 0xba, 0x80, 0x42]); // A 🚀 B
    const withNul = Buffer.from([0x61, 0xc0, 0x80, 0x62]);
    const pool = parse(
      stringPool(["A🚀B", "a\0b"], { utf8: true, rawUtf8: new Map([[0, cesu], [1, withNul]]) }),
    );
    expect(pool.get(0)).toBe("A🚀B");
    expect(pool.get(1)).toBe("a\0b");
  });

  it("replaces invalid bytes instead of failing", () => {
    expect(decodeModifiedUtf8(Buffer.from([0x61, 0xff, 0x62, 0xe6]))).toBe("a\ufffdb\ufffd");
  });
});

describe("StringPool bounds", () => {
  it("answers undefined for indexes outside the pool, including -1 as unsigned", () => {
    const pool = parse(stringPool(["only"]));
    expect(pool.get(1)).toBeUndefined();
    expect(pool.get(-1)).toBeUndefined();
    expect(pool.get(0xffffffff)).toBeUndefined();
  });

  it("cuts a string count that claims more offsets than the chunk holds", () => {
    const buf = stringPool(["a", "b"]);
    buf.writeUInt32LE(1_000_000, 8);
    const pool = parse(buf);
    expect(pool.size).toBeLessThanOrEqual(2);
    expect(pool.get(0)).toBe("a");
    expect(pool.get(999_999)).toBeUndefined();
  });

  it("answers undefined for an offset past the data and for a length overrunning it", () => {
    const buf = stringPool(["abc", "def"]);
    buf.writeUInt32LE(0x7fffffff, 28 + 4); // second string's offset
    const pool = parse(buf);
    expect(pool.get(1)).toBeUndefined();

    const buf2 = stringPool(["abc"]);
    const stringsStart = buf2.readUInt32LE(20);
    buf2.writeUInt16LE(0x7000, stringsStart); // claims 0x7000 units
    expect(parse(buf2).get(0)).toBeUndefined();
  });

  it("refuses a pool whose header is too small to hold the counts", () => {
    const buf = Buffer.alloc(16);
    buf.writeUInt16LE(1, 0);
    buf.writeUInt16LE(16, 2);
    buf.writeUInt32LE(16, 4);
    expect(() => parse(buf)).toThrow(/too small/);
  });
});
