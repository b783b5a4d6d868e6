import { createHash, type Hash } from "node:crypto";
import { crc32 } from "node:zlib";
import { crc32c } from "./crc32c";

/** Flexible-checksum algorithms this store can verify (x-amz-checksum-<name>). CRC64NVME is not. */
export const SUPPORTED_CHECKSUMS = ["crc32", "crc32c", "sha1", "sha256"] as const;
export type ChecksumAlgorithm = (typeof SUPPORTED_CHECKSUMS)[number];
export const KNOWN_CHECKSUMS = [...SUPPORTED_CHECKSUMS, "crc64nvme"] as const;

export function isSupportedChecksum(name: string): name is ChecksumAlgorithm {
  return (SUPPORTED_CHECKSUMS as readonly string[]).includes(name);
}

export interface IncrementalChecksum {
  update(data: Buffer): void;
  /** Base64, the encoding S3 uses in x-amz-checksum-* headers. */
  digestBase64(): string;
}

export function createChecksum(algorithm: ChecksumAlgorithm): IncrementalChecksum {
  if (algorithm === "crc32" || algorithm === "crc32c") {
    const next = algorithm === "crc32" ? crc32 : crc32c;
    let value = 0;
    return {
      update: (data) => {
        value = next(data, value);
      },
      digestBase64: () => {
        const out = Buffer.alloc(4);
        out.writeUInt32BE(value >>> 0);
        return out.toString("base64");
      },
    };
  }
  const hash: Hash = createHash(algorithm);
  return { update: (data) => hash.update(data), digestBase64: () => hash.digest("base64") };
}
