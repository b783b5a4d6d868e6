import { crc32, inflateRaw, inflateRawSync } from "node:zlib";
import { InspectError } from "../inspect-result";
import { corrupt } from "./zip-structure";

/**
 * Entries up to this size are inflated on the calling thread: for a few KB (Info.plist, the
 * provisioning profile, a manifest) the pool's round trip (a zlib stream, a thread hop, a callback)
 * costs 3–20 times the inflating itself (0.15–0.37 ms against 0.015–0.04 ms per entry, measured),
 * and blocking the event loop for at most this much output stays well under a millisecond.
 */
export const SYNC_INFLATE_MAX_BYTES = 64 * 1024;
/**
 * Deflate never grows data by more than a few bytes per 64 KiB block, so an honest small entry's
 * stream is at most its declared size plus this. A longer one (a size that lies) goes to the pool
 * like a large entry: inline work stays bounded on its input as well as its output.
 */
const DEFLATE_OVERHEAD_BYTES = 64;
/**
 * What the web app's node:zlib (browser/zlib-browser.ts) throws for its synchronous calls:
 * DecompressionStream has no synchronous form, so in a browser small entries take inflateRaw too.
 */
export const SYNC_INFLATE_UNAVAILABLE = "ERR_ZLIB_SYNC_UNAVAILABLE";

/**
 * Inflates one entry's deflate stream. The output cap is the central directory's declared size,
 * which open-zip already checked against maxEntryBytes and the compression-ratio cap, so a bomb
 * that lies about its size is cut off by zlib as soon as it passes that size (zlib stops at the
 * first chunk over maxOutputLength) instead of after inflating gigabytes. Larger entries run on
 * libuv's pool, so the event loop (and the deadline timer) keeps running; small ones inline
 * (SYNC_INFLATE_MAX_BYTES).
 */
export function inflateBounded(compressed: Buffer, declaredSize: number, name: string): Promise<Buffer> {
  // maxOutputLength must be >= 1; a declared-empty entry that inflates to 1 byte is still caught.
  const options = { maxOutputLength: Math.max(declaredSize, 1) };
  if (declaredSize <= SYNC_INFLATE_MAX_BYTES && compressed.length <= declaredSize + DEFLATE_OVERHEAD_BYTES) {
    try {
      return Promise.resolve(inflateRawSync(compressed, options));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== SYNC_INFLATE_UNAVAILABLE) return Promise.reject(inflateError(error as Error, declaredSize, name));
    }
  }
  return new Promise((resolve, reject) => {
    inflateRaw(compressed, options, (error, result) => (error ? reject(inflateError(error, declaredSize, name)) : resolve(result)));
  });
}

function inflateError(error: Error, declaredSize: number, name: string): InspectError {
  if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") {
    return corrupt(`Entry ${name} inflates past its declared size of ${declaredSize} bytes`);
  }
  return new InspectError("zip_corrupt", `Entry ${name} is not valid deflate data: ${error.message}`, { cause: error });
}

export function checkCrc(data: Buffer, expected: number, name: string): void {
  const actual = crc32(data);
  if (actual !== expected) {
    throw corrupt(
      `Entry ${name} fails its CRC check (expected ${expected.toString(16)}, got ${actual.toString(16)})`,
    );
  }
}
