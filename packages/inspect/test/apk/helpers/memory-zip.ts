import { createInspectContext } from "../../../src/inspect-context";
import type { InspectContext } from "../../../src/inspect-context";
import { InspectError } from "../../../src/inspect-result";
import type { InspectLimits } from "../../../src/inspect-result";
import type { ZipArchive, ZipEntryInfo } from "../../../src/zip/zip-archive";

/** A ZipArchive over named buffers, recording what was read: APK logic without ZIP bytes. */
export interface MemoryZip extends ZipArchive {
  reads: string[];
}

export function memoryZip(files: Record<string, Buffer | string>): MemoryZip {
  const data = new Map(Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? Buffer.from(v) : v]));
  const entries = new Map<string, ZipEntryInfo>(
    [...data].map(([name, bytes]) => [name, { name, compressedSize: bytes.length, uncompressedSize: bytes.length, method: 0 }]),
  );
  const reads: string[] = [];
  return {
    entries,
    reads,
    async read(name, options) {
      const bytes = data.get(name);
      if (bytes === undefined) throw new InspectError("zip_corrupt", `No entry named ${name}`);
      if (options?.maxBytes !== undefined && bytes.length > options.maxBytes) {
        throw new InspectError("too_large", `${name} is ${bytes.length} bytes; the limit is ${options.maxBytes}`);
      }
      reads.push(name);
      return bytes;
    },
  };
}

export function testContext(limits?: Partial<InspectLimits>): InspectContext {
  return createInspectContext(limits);
}
