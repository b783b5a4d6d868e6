/**
 * The part of `node:zlib` the extractor uses, for browsers (the web app's bundler aliases
 * `node:zlib` to this file when it bundles @hangar/inspect/browser): inflateRaw through the
 * platform's DecompressionStream("deflate-raw"), cut off past maxOutputLength as zlib does, and
 * crc32. The synchronous calls (PNG re-encoding of Apple's CgBI icons) have no browser
 * equivalent: they throw, and the icon is left out (the service extracts it at complete).
 */
import { Buffer } from "buffer";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array, value = 0): number {
  let c = ~value >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

async function inflate(data: Uint8Array, maxOutputLength: number): Promise<Buffer> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxOutputLength) {
      await reader.cancel();
      throw Object.assign(new RangeError("Cannot create a Buffer larger than maxOutputLength"), { code: "ERR_BUFFER_TOO_LARGE" });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

export function inflateRaw(data: Uint8Array, options: { maxOutputLength?: number }, callback: (error: Error | null, result: Buffer) => void): void {
  inflate(data, options.maxOutputLength ?? Number.MAX_SAFE_INTEGER).then(
    (result) => callback(null, result),
    (error: Error) => callback(error, Buffer.alloc(0)),
  );
}

/** The code zip/inflate-entry.ts (SYNC_INFLATE_UNAVAILABLE) reads to inflate small entries asynchronously here. */
const unavailable = (name: string) => () => {
  throw Object.assign(new Error(`zlib.${name} is not available in the browser`), { code: "ERR_ZLIB_SYNC_UNAVAILABLE" });
};
export const inflateSync = unavailable("inflateSync");
export const inflateRawSync = unavailable("inflateRawSync");
export const deflateSync = unavailable("deflateSync");
