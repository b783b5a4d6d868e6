/**
 * Little encoders for the binary formats under test, written from ResourceTypes.h independently
 * of the parsers so that a misreading of the layout in one does not hide in the other.
 */

export function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value & 0xffff, 0);
  return b;
}

export function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0, 0);
  return b;
}

/** A chunk: type, headerSize (8 + extra header), size, extra header, body. */
export function chunk(type: number, extraHeader: Buffer, body: Buffer): Buffer {
  const headerSize = 8 + extraHeader.length;
  return Buffer.concat([u16(type), u16(headerSize), u32(headerSize + body.length), extraHeader, body]);
}

function pad4(b: Buffer): Buffer {
  return b.length % 4 === 0 ? b : Buffer.concat([b, Buffer.alloc(4 - (b.length % 4))]);
}

function length8(n: number): Buffer {
  if (n > 0x7fff) throw new Error(`UTF-8 pool length ${n} cannot be encoded`);
  return n < 0x80 ? Buffer.from([n]) : Buffer.from([0x80 | (n >> 8), n & 0xff]);
}

function length16(n: number): Buffer {
  return n < 0x8000 ? u16(n) : Buffer.concat([u16(0x8000 | (n >>> 16)), u16(n & 0xffff)]);
}

export interface PoolOptions {
  utf8?: boolean;
  /** Bytes to use for a string instead of Buffer.from(s, "utf8") (e.g. CESU-8 surrogates). */
  rawUtf8?: Map<number, Buffer>;
}

/** ResStringPool with lengths in one or two units as the strings need. */
export function stringPool(strings: string[], options: PoolOptions = {}): Buffer {
  const offsets: number[] = [];
  const parts: Buffer[] = [];
  let at = 0;
  strings.forEach((s, i) => {
    let piece: Buffer;
    if (options.utf8) {
      const bytes = options.rawUtf8?.get(i) ?? Buffer.from(s, "utf8");
      piece = Buffer.concat([length8(s.length), length8(bytes.length), bytes, Buffer.from([0])]);
    } else {
      piece = Buffer.concat([length16(s.length), Buffer.from(s, "utf16le"), u16(0)]);
    }
    offsets.push(at);
    parts.push(piece);
    at += piece.length;
  });
  const data = pad4(Buffer.concat(parts));
  const headerExtra = Buffer.concat([
    u32(strings.length),
    u32(0),
    u32(options.utf8 ? 0x100 : 0),
    u32(28 + strings.length * 4),
    u32(0),
  ]);
  return chunk(0x0001, headerExtra, Buffer.concat([...offsets.map(u32), data]));
}

export const T = {
  REFERENCE: 0x01,
  ATTRIBUTE: 0x02,
  STRING: 0x03,
  FLOAT: 0x04,
  INT_DEC: 0x10,
  INT_HEX: 0x11,
  BOOLEAN: 0x12,
} as const;

export function resValue(type: number, data: number): Buffer {
  return Buffer.concat([u16(8), Buffer.from([0, type]), u32(data)]);
}
