import bplistCreator from "bplist-creator";
import { describe, expect, it } from "vitest";
import { BinaryPlistError, parseBinaryPlist } from "../../src/ipa/binary-plist";
import { parsePlist, PlistParseError } from "../../src/ipa/plist";

/** Hand-built bplist00: objects laid out in order, 1-byte offsets and refs. */
function handBuilt(objects: number[][], top = 0): Buffer {
  const body: number[] = [...Buffer.from("bplist00")];
  const offsets: number[] = [];
  for (const object of objects) {
    offsets.push(body.length);
    body.push(...object);
  }
  const tableOffset = body.length;
  body.push(...offsets);
  const trailer = Buffer.alloc(32);
  trailer[6] = 1;
  trailer[7] = 1;
  trailer.writeBigUInt64BE(BigInt(objects.length), 8);
  trailer.writeBigUInt64BE(BigInt(top), 16);
  trailer.writeBigUInt64BE(BigInt(tableOffset), 24);
  return Buffer.concat([Buffer.from(body), trailer]);
}

describe("parseBinaryPlist", () => {
  it("decodes what bplist-creator writes: strings (ASCII and UTF-16), numbers, booleans, dates, data, nesting", () => {
    const date = new Date("2026-05-04T03:02:01.000Z");
    const value = {
      ascii: "com.example.app",
      unicode: "🚀 Ракета 火箭 صاروخ",
      int: 42,
      big: 5_000_000_000,
      negative: -7,
      real: 1.5,
      yes: true,
      no: false,
      when: date,
      blob: Buffer.from([1, 2, 3, 250]),
      list: ["a", 1, [true]],
      nested: { CFBundlePrimaryIcon: { CFBundleIconFiles: ["AppIcon60x60"] } },
    };
    const parsed = parseBinaryPlist(bplistCreator(value)) as Record<string, unknown>;
    expect({ ...parsed, nested: { ...(parsed.nested as object) } }).toEqual({
      ...value,
      nested: { CFBundlePrimaryIcon: { CFBundleIconFiles: ["AppIcon60x60"] } },
    });
  });

  it("reads 8-byte integers without Buffer's BigInt reads (the browser's buffer has none), also from a view inside a larger buffer", () => {
    const int64 = (value: bigint) => {
      const bytes = Buffer.alloc(8);
      bytes.writeBigInt64BE(value);
      return [0x13, ...bytes];
    };
    expect(parseBinaryPlist(handBuilt([int64(-1n)]))).toBe(-1);
    expect(parseBinaryPlist(handBuilt([int64(2n ** 60n)]))).toBe(2n ** 60n);
    const plist = handBuilt([int64(-(2n ** 62n))]);
    const inside = Buffer.concat([Buffer.from("padding"), plist]).subarray(7);
    expect(inside.byteOffset).toBeGreaterThan(0);
    expect(parseBinaryPlist(inside)).toBe(-(2n ** 62n));
  });

  it("keeps a __proto__ key as a plain key", () => {
    const parsed = parseBinaryPlist(bplistCreator({ ["__proto__"]: "x", a: "b" } as Record<string, string>));
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });

  it("cuts reference cycles at the depth bound instead of recursing forever", () => {
    // Object 0: array [ref 0] — an array containing itself.
    const parsed = parseBinaryPlist(handBuilt([[0xa1, 0]]), { maxDepth: 5 });
    let depth = 0;
    let node: unknown = parsed;
    while (Array.isArray(node)) {
      node = node[0];
      depth++;
    }
    expect(node).toBeNull();
    expect(depth).toBe(5);
  });

  it("refuses exponential expansion through shared references (billion laughs)", () => {
    // Object i is an array of two references to object i+1; 40 levels → 2^40 nodes.
    const levels = 40;
    const objects = Array.from({ length: levels }, (_, i) => [0xa2, i + 1, i + 1]);
    objects.push([0x51, 0x78]); // "x"
    expect(() => parseBinaryPlist(handBuilt(objects), { maxDepth: 64 })).toThrow(BinaryPlistError);
  });

  it("throws BinaryPlistError for truncated or out-of-range input", () => {
    const good = bplistCreator({ a: "b" });
    expect(() => parseBinaryPlist(good.subarray(0, good.length - 5))).toThrow(BinaryPlistError);
    expect(() => parseBinaryPlist(Buffer.from("bplist00"))).toThrow(BinaryPlistError);
    expect(() => parseBinaryPlist(handBuilt([[0xa1, 9]]))).toThrow(/out of range/);
    expect(() => parseBinaryPlist(handBuilt([[0x5f, 0x10, 200, 0x41]]))).toThrow(/past/);
  });
});

describe("parsePlist", () => {
  it("reads XML plists and maps failures to PlistParseError", () => {
    expect(parsePlist(Buffer.from('<?xml version="1.0"?><plist version="1.0"><dict><key>a</key><integer>1</integer></dict></plist>'))).toEqual({ a: 1 });
    expect(() => parsePlist(Buffer.from("<plist><dict><key>"))).toThrow(PlistParseError);
    expect(() => parsePlist(Buffer.from("bplist00 broken"))).toThrow(PlistParseError);
  });

  it("reads UTF-16 XML plists with a BOM", () => {
    const xml = '<?xml version="1.0" encoding="UTF-16"?><plist version="1.0"><dict><key>n</key><string>Ünï</string></dict></plist>';
    expect(parsePlist(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, "utf16le")]))).toEqual({ n: "Ünï" });
  });
});
