/**
 * node:zlib for the published bundle on every Node it promises (18+): `zlib.crc32`, which
 * @hangar/inspect uses to check ZIP entries and write PNG chunks, arrived in Node 20.15/22.2.
 * scripts/build.ts points the bundle's `node:zlib` imports here; where Node has crc32 this is
 * node:zlib itself.
 */
import * as zlib from "node:zlib";

export * from "node:zlib";

let table: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, the ZIP and PNG one), continuing from `value` like zlib.crc32. */
function crc32Js(data: string | NodeJS.ArrayBufferView, value = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let crc = (value ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export const crc32: (data: string | NodeJS.ArrayBufferView, value?: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === "function" ? zlib.crc32 : crc32Js;

export { crc32Js as crc32Fallback };
