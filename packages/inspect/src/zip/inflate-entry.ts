import { crc32, inflateRaw } from "node:zlib";
import { InspectError } from "../inspect-result";
import { corrupt } from "./zip-structure";

/**
 * Inflates one entry's deflate stream. The output cap is the central directory's declared size,
 * which open-zip already checked against maxEntryBytes and the compression-ratio cap, so a bomb
 * that lies about its size is cut off by zlib as soon as it passes that size (zlib stops at the
 * first chunk over maxOutputLength) instead of after inflating gigabytes. Runs on libuv's pool,
 * so the event loop (and the deadline timer) keeps running.
 */
export function inflateBounded(compressed: Buffer, declaredSize: number, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxOutputLength must be >= 1; a declared-empty entry that inflates to 1 byte is still caught.
    inflateRaw(compressed, { maxOutputLength: Math.max(declaredSize, 1) }, (error, result) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ERR_BUFFER_TOO_LARGE") {
          reject(corrupt(`Entry ${name} inflates past its declared size of ${declaredSize} bytes`));
        } else {
          reject(new InspectError("zip_corrupt", `Entry ${name} is not valid deflate data: ${error.message}`, { cause: error }));
        }
        return;
      }
      resolve(result);
    });
  });
}

export function checkCrc(data: Buffer, expected: number, name: string): void {
  const actual = crc32(data);
  if (actual !== expected) {
    throw corrupt(
      `Entry ${name} fails its CRC check (expected ${expected.toString(16)}, got ${actual.toString(16)})`,
    );
  }
}
