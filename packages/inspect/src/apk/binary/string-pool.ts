import { BinaryFormatError, fits } from "./bytes";
import type { Chunk } from "./chunk";

const UTF8_FLAG = 0x100;
/** ResStringPool_header after the chunk header: stringCount, styleCount, flags, stringsStart, stylesStart. */
const POOL_HEADER_SIZE = 28;

const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * ResStringPool (chunk type 0x0001). Strings are decoded on first use and cached: a resources.arsc
 * pool can hold hundreds of thousands of strings of which inspection needs a handful.
 */
export class StringPool {
  private readonly cache = new Map<number, string | undefined>();

  private constructor(
    private readonly buf: Buffer,
    /** Number of string offsets that really fit in the chunk. */
    readonly size: number,
    readonly utf8: boolean,
    private readonly offsetsStart: number,
    private readonly stringsStart: number,
    private readonly stringsEnd: number,
  ) {}

  static readonly empty = new StringPool(Buffer.alloc(0), 0, false, 0, 0, 0);

  /** Parses the pool chunk; throws BinaryFormatError when its header cannot be read. */
  static parse(buf: Buffer, chunk: Chunk): StringPool {
    if (chunk.headerSize < POOL_HEADER_SIZE || !fits(buf, chunk.start, POOL_HEADER_SIZE, chunk.end)) {
      throw new BinaryFormatError(`string pool header at ${chunk.start} is too small`);
    }
    const stringCount = buf.readUInt32LE(chunk.start + 8);
    const styleCount = buf.readUInt32LE(chunk.start + 12);
    const flags = buf.readUInt32LE(chunk.start + 16);
    const stringsStartRel = buf.readUInt32LE(chunk.start + 20);
    const stylesStartRel = buf.readUInt32LE(chunk.start + 24);

    const offsetsStart = chunk.start + chunk.headerSize;
    const stringsStart = chunk.start + stringsStartRel;
    // Strings end where styles begin (if any), else at the chunk end: same rule as ResStringPool.
    let stringsEnd = chunk.end;
    if (styleCount > 0 && stylesStartRel > stringsStartRel) {
      stringsEnd = Math.min(chunk.end, chunk.start + stylesStartRel);
    }
    // The offset table may not overlap the string data nor leave the chunk; a count that claims
    // more is cut to what fits, so a hostile count cannot make us index foreign bytes.
    const offsetsEnd = stringCount > 0 && stringsStartRel > 0 ? Math.min(stringsStart, chunk.end) : chunk.end;
    const fitting = Math.max(0, Math.floor((offsetsEnd - offsetsStart) / 4));
    const size = Math.min(stringCount, fitting);
    return new StringPool(buf, size, (flags & UTF8_FLAG) !== 0, offsetsStart, stringsStart, stringsEnd);
  }

  /** The string at `index`, or undefined for "no string" (-1), out-of-range or malformed entries. */
  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) return undefined;
    if (this.cache.has(index)) return this.cache.get(index);
    let value: string | undefined;
    try {
      value = this.decode(index);
    } catch (error) {
      if (!(error instanceof BinaryFormatError)) throw error;
      value = undefined;
    }
    this.cache.set(index, value);
    return value;
  }

  private decode(index: number): string | undefined {
    const rel = this.buf.readUInt32LE(this.offsetsStart + index * 4);
    const pos = this.stringsStart + rel;
    if (rel >= this.stringsEnd - this.stringsStart || pos < this.stringsStart) return undefined;
    return this.utf8 ? this.decodeUtf8(pos) : this.decodeUtf16(pos);
  }

  private decodeUtf8(pos: number): string | undefined {
    const end = this.stringsEnd;
    // Two lengths: UTF-16 units (unused, only skipped), then encoded bytes. Each is one byte, or two
    // when the first has its high bit set (15-bit value).
    const [, afterCharLen] = readLength8(this.buf, pos, end);
    const [byteLen, dataStart] = readLength8(this.buf, afterCharLen, end);
    if (!fits(this.buf, dataStart, byteLen, end)) return undefined;
    return decodeModifiedUtf8(this.buf.subarray(dataStart, dataStart + byteLen));
  }

  private decodeUtf16(pos: number): string | undefined {
    const end = this.stringsEnd;
    if (!fits(this.buf, pos, 2, end)) return undefined;
    let units = this.buf.readUInt16LE(pos);
    let dataStart = pos + 2;
    // Lengths past 0x7FFF take two units: high bit set, high 15 bits first.
    if ((units & 0x8000) !== 0) {
      if (!fits(this.buf, dataStart, 2, end)) return undefined;
      units = ((units & 0x7fff) << 16) | this.buf.readUInt16LE(dataStart);
      dataStart += 2;
    }
    if (!fits(this.buf, dataStart, units * 2, end)) return undefined;
    return this.buf.toString("utf16le", dataStart, dataStart + units * 2);
  }
}

function readLength8(buf: Buffer, pos: number, end: number): [number, number] {
  if (!fits(buf, pos, 1, end)) throw new BinaryFormatError(`string length at ${pos} is outside the pool`);
  const first = buf[pos] as number;
  if ((first & 0x80) === 0) return [first, pos + 1];
  if (!fits(buf, pos + 1, 1, end)) throw new BinaryFormatError(`string length at ${pos} is cut off`);
  return [((first & 0x7f) << 8) | (buf[pos + 1] as number), pos + 2];
}

/**
 * Decodes the UTF-8 flavour resource tools write. aapt2 writes "modified UTF-8": characters
 * outside the BMP as two 3-byte surrogates (CESU-8) and NUL as C0 80, which a strict decoder turns
 * into U+FFFD. Android decodes them unit by unit, so we do too (after a fast path for valid UTF-8).
 */
export function decodeModifiedUtf8(bytes: Uint8Array): string {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    // fall through to the lenient decoder
  }
  const units: number[] = [];
  let out = "";
  let i = 0;
  const n = bytes.length;
  const cont = (k: number): number => {
    const b = bytes[k];
    return b !== undefined && (b & 0xc0) === 0x80 ? b & 0x3f : -1;
  };
  while (i < n) {
    const b0 = bytes[i] as number;
    if (b0 < 0x80) {
      units.push(b0);
      i += 1;
    } else if ((b0 & 0xe0) === 0xc0 && cont(i + 1) >= 0) {
      units.push(((b0 & 0x1f) << 6) | cont(i + 1));
      i += 2;
    } else if ((b0 & 0xf0) === 0xe0 && cont(i + 1) >= 0 && cont(i + 2) >= 0) {
      units.push(((b0 & 0x0f) << 12) | (cont(i + 1) << 6) | cont(i + 2));
      i += 3;
    } else if ((b0 & 0xf8) === 0xf0 && cont(i + 1) >= 0 && cont(i + 2) >= 0 && cont(i + 3) >= 0) {
      const cp = ((b0 & 0x07) << 18) | (cont(i + 1) << 12) | (cont(i + 2) << 6) | cont(i + 3);
      if (cp > 0x10ffff) {
        units.push(0xfffd);
      } else {
        const v = cp - 0x10000;
        units.push(0xd800 | (v >> 10), 0xdc00 | (v & 0x3ff));
      }
      i += 4;
    } else {
      units.push(0xfffd);
      i += 1;
    }
    if (units.length >= 4096) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return out + String.fromCharCode(...units);
}
