/**
 * Binary property list ("bplist00") reader. Our own rather than npm bplist-parser because that
 * one follows object references without any guard: a few hundred bytes whose arrays reference
 * each other expand exponentially (or forever, with a cycle) and hold the Lambda past its
 * deadline; it also truncates 64-bit integers and logs to the console on odd input. Here every
 * offset is checked, nesting is bounded and the total number of decoded objects is budgeted.
 * Layout: CoreFoundation's CFBinaryPList.c.
 */
import type { PlistDict, PlistValue } from "./plist-value";

/**
 * A big-endian signed 64-bit integer. Through a DataView, not Buffer#readBigInt64BE: the browser
 * build (the dashboard inspects a build before uploading it) runs on the `buffer` package, which
 * has no BigInt reads.
 */
function int64At(buf: Uint8Array, offset: number): bigint {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getBigInt64(offset);
}

export class BinaryPlistError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BinaryPlistError";
  }
}

const MAGIC = "bplist00";
const TRAILER_SIZE = 32;
/** Seconds between the Unix epoch and CoreFoundation's (2001-01-01). */
const CF_EPOCH_SECONDS = 978_307_200;

export interface BinaryPlistOptions {
  /** Containers nested deeper than this decode as null (a reference cycle is infinite nesting). */
  maxDepth?: number;
  /** Total objects decoded, counting shared ones each time they are reached. */
  maxObjects?: number;
}

export function isBinaryPlist(buf: Buffer): boolean {
  return buf.length >= 8 && buf.toString("latin1", 0, 8) === MAGIC;
}

export function parseBinaryPlist(buf: Buffer, options: BinaryPlistOptions = {}): PlistValue {
  const maxDepth = options.maxDepth ?? 32;
  const maxObjects = options.maxObjects ?? 200_000;
  if (!isBinaryPlist(buf)) throw new BinaryPlistError("Not a binary plist");
  if (buf.length < MAGIC.length + TRAILER_SIZE + 1) throw new BinaryPlistError("Binary plist is truncated");
  const trailer = buf.length - TRAILER_SIZE;
  const offsetSize = buf[trailer + 6]!;
  const refSize = buf[trailer + 7]!;
  const objectCount = readBig(buf, trailer + 8, 8);
  const topObject = readBig(buf, trailer + 16, 8);
  const tableOffset = readBig(buf, trailer + 24, 8);
  if (offsetSize < 1 || offsetSize > 8 || refSize < 1 || refSize > 8) {
    throw new BinaryPlistError("Binary plist trailer has invalid integer sizes");
  }
  if (objectCount === 0 || topObject >= objectCount) throw new BinaryPlistError("Binary plist has no top object");
  if (tableOffset < MAGIC.length || tableOffset + objectCount * offsetSize > trailer) {
    throw new BinaryPlistError("Binary plist offset table is out of bounds");
  }

  let decoded = 0;

  const offsetOf = (ref: number): number => {
    if (ref >= objectCount) throw new BinaryPlistError(`Object reference ${ref} out of range`);
    const offset = readBig(buf, tableOffset + ref * offsetSize, offsetSize);
    if (offset < MAGIC.length || offset >= tableOffset) throw new BinaryPlistError("Object offset out of bounds");
    return offset;
  };

  /** Count of a container or string: the low nibble, or an int object after the marker. */
  const lengthAt = (offset: number): { length: number; start: number } => {
    const info = buf[offset]! & 0x0f;
    if (info !== 0x0f) return { length: info, start: offset + 1 };
    const marker = buf[offset + 1];
    if (marker === undefined || marker >> 4 !== 0x1) throw new BinaryPlistError("Bad length marker");
    const size = 1 << (marker & 0x0f);
    if (size > 8) throw new BinaryPlistError("Length does not fit");
    return { length: readBig(buf, offset + 2, size), start: offset + 2 + size };
  };

  const within = (start: number, byteLength: number): void => {
    if (byteLength < 0 || start + byteLength > tableOffset) {
      throw new BinaryPlistError("Object runs past the object area");
    }
  };

  const refsAt = (start: number, count: number): number[] => {
    within(start, count * refSize);
    const refs: number[] = [];
    for (let i = 0; i < count; i++) refs.push(readBig(buf, start + i * refSize, refSize));
    return refs;
  };

  const decode = (ref: number, depth: number): PlistValue => {
    decoded += 1;
    if (decoded > maxObjects) throw new BinaryPlistError(`Binary plist expands past ${maxObjects} objects`);
    const offset = offsetOf(ref);
    const marker = buf[offset]!;
    const type = marker >> 4;
    const info = marker & 0x0f;
    switch (type) {
      case 0x0:
        if (info === 0x8) return false;
        if (info === 0x9) return true;
        return null;
      case 0x1: {
        const size = 1 << info;
        within(offset + 1, size);
        if (size === 16) return int64At(buf, offset + 9); // 128-bit: low 64 bits, as CF does
        if (size === 8) {
          const value = int64At(buf, offset + 1);
          return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
            ? Number(value)
            : value;
        }
        if (size > 8) throw new BinaryPlistError("Integer too wide");
        return readBig(buf, offset + 1, size);
      }
      case 0x2: {
        const size = 1 << info;
        within(offset + 1, size);
        if (size === 4) return buf.readFloatBE(offset + 1);
        if (size === 8) return buf.readDoubleBE(offset + 1);
        throw new BinaryPlistError("Unsupported real size");
      }
      case 0x3:
        within(offset + 1, 8);
        return new Date((buf.readDoubleBE(offset + 1) + CF_EPOCH_SECONDS) * 1000);
      case 0x4: {
        const { length, start } = lengthAt(offset);
        within(start, length);
        return Buffer.from(buf.subarray(start, start + length));
      }
      case 0x5: {
        const { length, start } = lengthAt(offset);
        within(start, length);
        return buf.toString("latin1", start, start + length);
      }
      case 0x6: {
        const { length, start } = lengthAt(offset);
        within(start, length * 2);
        return Buffer.from(buf.subarray(start, start + length * 2)).swap16().toString("utf16le");
      }
      case 0x7: {
        const { length, start } = lengthAt(offset);
        within(start, length);
        return buf.toString("utf8", start, start + length);
      }
      case 0x8:
        within(offset + 1, info + 1);
        return info + 1 <= 6 ? buf.readUIntBE(offset + 1, info + 1) : null;
      case 0xa:
      case 0xb:
      case 0xc: {
        const { length, start } = lengthAt(offset);
        const refs = refsAt(start, length);
        if (depth >= maxDepth) return null;
        return refs.map((child) => decode(child, depth + 1));
      }
      case 0xd: {
        const { length, start } = lengthAt(offset);
        const keys = refsAt(start, length);
        const values = refsAt(start + length * refSize, length);
        if (depth >= maxDepth) return null;
        // No prototype: a "__proto__" key is just a key.
        const dict: PlistDict = Object.create(null) as PlistDict;
        for (let i = 0; i < length; i++) {
          const key = decode(keys[i]!, depth + 1);
          if (typeof key !== "string") throw new BinaryPlistError("Dictionary key is not a string");
          dict[key] = decode(values[i]!, depth + 1);
        }
        return dict;
      }
      default:
        throw new BinaryPlistError(`Unknown object type 0x${type.toString(16)}`);
    }
  };

  return decode(topObject, 0);
}

/** Big-endian unsigned integer of 1–8 bytes; refuses values past 2^53. */
function readBig(buf: Buffer, at: number, size: number): number {
  if (at < 0 || at + size > buf.length) throw new BinaryPlistError("Read past the end of the plist");
  let value = 0;
  for (let i = 0; i < size; i++) {
    value = value * 256 + buf[at + i]!;
    if (value > Number.MAX_SAFE_INTEGER) throw new BinaryPlistError("Integer out of range");
  }
  return value;
}
