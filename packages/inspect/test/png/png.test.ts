import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { iconPixels, toCgbi } from "../../fixtures/ipa-fixture-images";
import { cgbiToPng, encodePng, isCgbi, PngError, pngSize } from "../../src/png";

describe("pngSize", () => {
  it("reads IHDR of standard and CgBI PNGs", () => {
    expect(pngSize(encodePng(3, 2, Buffer.alloc(24)))).toEqual({ width: 3, height: 2 });
    expect(pngSize(toCgbi(5, 4, Buffer.alloc(80)))).toEqual({ width: 5, height: 4 });
  });

  it("undefined for anything else", () => {
    expect(pngSize(Buffer.from("GIF89a"))).toBeUndefined();
    expect(pngSize(encodePng(3, 2, Buffer.alloc(24)).subarray(0, 20))).toBeUndefined();
    expect(pngSize(new Uint8Array(0))).toBeUndefined();
  });
});

describe("cgbiToPng", () => {
  it("gives back the exact pixels for opaque and fully transparent images, readable by pngjs", () => {
    const source = iconPixels(48, 3);
    const cgbi = toCgbi(48, 48, source);
    expect(isCgbi(cgbi)).toBe(true);
    const converted = cgbiToPng(cgbi);
    expect(isCgbi(converted)).toBe(false);
    const png = PNG.sync.read(converted);
    expect(Buffer.from(png.data).equals(source)).toBe(true);
  });

  it("un-premultiplies semi-transparent pixels within rounding", () => {
    const width = 16;
    const source = Buffer.alloc(width * width * 4);
    for (let i = 0; i < width * width; i++) {
      source.set([(i * 7) & 0xff, (i * 13) & 0xff, (i * 29) & 0xff, 16 + (i % 240)], i * 4);
    }
    const png = PNG.sync.read(cgbiToPng(toCgbi(width, width, source)));
    for (let p = 0; p < source.length; p += 4) {
      const alpha = source[p + 3]!;
      expect(png.data[p + 3]).toBe(alpha);
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(png.data[p + k]! - source[p + k]!)).toBeLessThanOrEqual(Math.ceil(255 / alpha / 2) + 1);
      }
    }
  });

  it("throws PngError on damaged data or absurd sizes", () => {
    const cgbi = toCgbi(8, 8, Buffer.alloc(256, 0x80));
    expect(() => cgbiToPng(cgbi.subarray(0, 60))).toThrow(PngError);
    const huge = Buffer.from(cgbi);
    huge.writeUInt32BE(100_000, 8 + 12 + 4 + 8); // IHDR width
    expect(() => cgbiToPng(huge)).toThrow(PngError);
  });
});
