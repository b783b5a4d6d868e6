/**
 * CRC32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum S3 names `x-amz-checksum-crc32c`.
 * Node's zlib has CRC32 only, and `@aws-crypto/crc32c` (the SDK's) goes a byte at a time; this is
 * slicing-by-8 — eight table lookups per 8 bytes — which keeps verifying a multi-GB upload from
 * dominating its time. Dependency-free, in @hangar/inspect so the local store (verifying parts),
 * the CLI (bundled standalone) and a browser can share this one implementation.
 */
const TABLES: Uint32Array[] = (() => {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
  const first = tables[0]!;
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    first[n] = c >>> 0;
  }
  for (let t = 1; t < 8; t++) {
    const previous = tables[t - 1]!;
    const table = tables[t]!;
    for (let n = 0; n < 256; n++) table[n] = (previous[n]! >>> 8) ^ first[previous[n]! & 0xff]!;
  }
  return tables;
})();
const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES as [Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array, Uint32Array];

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Continues `crc` (0 for a fresh one) over `data`; the result is the unsigned 32-bit CRC32C. */
export function crc32c(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  let i = 0;
  // Byte by byte up to a 4-byte boundary, so the bulk can be read as little-endian 32-bit words.
  while (i < data.length && (data.byteOffset + i) % 4 !== 0) c = T0[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  const words = Math.floor((data.length - i) / 8) * 2;
  if (words > 0 && LITTLE_ENDIAN) {
    const view = new Uint32Array(data.buffer, data.byteOffset + i, words);
    for (let w = 0; w < words; w += 2) {
      const lo = c ^ view[w]!;
      const hi = view[w + 1]!;
      c =
        T7[lo & 0xff]! ^
        T6[(lo >>> 8) & 0xff]! ^
        T5[(lo >>> 16) & 0xff]! ^
        T4[lo >>> 24]! ^
        T3[hi & 0xff]! ^
        T2[(hi >>> 8) & 0xff]! ^
        T1[(hi >>> 16) & 0xff]! ^
        T0[hi >>> 24]!;
    }
    i += words * 4;
  }
  while (i < data.length) c = T0[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
