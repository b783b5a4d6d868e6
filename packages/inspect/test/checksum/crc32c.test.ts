import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { crc32c } from "../../src/checksum/crc32c";

/** The definition, a bit at a time: what the sliced tables must agree with. */
function bitwise(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (const byte of data) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  }
  return ~c >>> 0;
}

describe("crc32c", () => {
  it("matches the published check values (RFC 3720 B.4, the CRC catalogue's check)", () => {
    expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it("agrees with the bitwise definition at every length and alignment, and when continued across chunks", () => {
    const data = randomBytes(4096 + 37);
    for (let offset = 0; offset < 8; offset++) {
      for (const length of [0, 1, 3, 4, 7, 15, 16, 17, 31, 33, 64, 255, 1000, 4096]) {
        const slice = data.subarray(offset, offset + length);
        expect(crc32c(slice)).toBe(bitwise(slice));
      }
    }
    const whole = bitwise(data);
    for (const cut of [1, 5, 16, 100, 2049]) {
      expect(crc32c(data.subarray(cut), crc32c(data.subarray(0, cut)))).toBe(whole);
    }
  });
});
