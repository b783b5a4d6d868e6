/**
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum S3 names `x-amz-checksum-crc32c`.
 * Node's zlib has CRC32 only, and `@aws-crypto/crc32c` (the SDK's) goes a byte at a time; this is
 * slicing-by-16 — sixteen table lookups per 16 bytes, from one flat 16 KiB table — which keeps
 * checksumming a multi-GB upload from dominating its time (both the CLI, hashing every part before
 * it asks for the part's URL, and the local store, verifying it, pay it once per byte).
 * Dependency-free, in @hangar/inspect so the local store, the CLI (bundled standalone) and a
 * browser can share this one implementation.
 *
 * Measured on the shared 2-core machine (CPU time, 64 KiB chunks): slicing-by-8 from eight
 * separate tables ~1.2 GB/s, from one flat table ~1.5 GB/s, slicing-by-16 ~1.7 GB/s,
 * slicing-by-32 ~1.5 GB/s (its 32 KiB table crowds the L1 cache). Rejected: a WebAssembly
 * slicing-by-8, ~1.5 GB/s with the copy into its memory, and a browser's CSP may forbid compiling it.
 */
const POLYNOMIAL = 0x82f63b78;
const SLICES = 16;

/** Sixteen 256-entry tables end to end: table k (at k × 256) is table 0 advanced by k zero bytes. */
const T: Uint32Array = (() => {
  const table = new Uint32Array(256 * SLICES);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? POLYNOMIAL ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  for (let at = 256; at < table.length; at++) {
    const previous = table[at - 256]!;
    table[at] = (previous >>> 8) ^ table[previous & 0xff]!;
  }
  return table;
})();

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Continues `crc` (0 for a fresh one) over `data`; the result is the unsigned 32-bit CRC32C. */
export function crc32c(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  let i = 0;
  // Byte by byte up to a 4-byte boundary, so the bulk can be read as little-endian 32-bit words.
  while (i < data.length && (data.byteOffset + i) % 4 !== 0) c = T[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  const words = Math.floor((data.length - i) / 16) * 4;
  if (words > 0 && LITTLE_ENDIAN) {
    const view = new Uint32Array(data.buffer, data.byteOffset + i, words);
    for (let w = 0; w < words; w += 4) {
      // The first byte of the 16 goes through 15 more bytes' worth of table (T[15]), the last through none (T[0]).
      const a = c ^ view[w]!;
      const b = view[w + 1]!;
      const d = view[w + 2]!;
      const e = view[w + 3]!;
      c =
        T[3840 + (a & 0xff)]! ^
        T[3584 + ((a >>> 8) & 0xff)]! ^
        T[3328 + ((a >>> 16) & 0xff)]! ^
        T[3072 + (a >>> 24)]! ^
        T[2816 + (b & 0xff)]! ^
        T[2560 + ((b >>> 8) & 0xff)]! ^
        T[2304 + ((b >>> 16) & 0xff)]! ^
        T[2048 + (b >>> 24)]! ^
        T[1792 + (d & 0xff)]! ^
        T[1536 + ((d >>> 8) & 0xff)]! ^
        T[1280 + ((d >>> 16) & 0xff)]! ^
        T[1024 + (d >>> 24)]! ^
        T[768 + (e & 0xff)]! ^
        T[512 + ((e >>> 8) & 0xff)]! ^
        T[256 + ((e >>> 16) & 0xff)]! ^
        T[e >>> 24]!;
    }
    i += words * 4;
  }
  while (i < data.length) c = T[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
