/**
 * Bounds-checked little-endian reads. Every structure in AXML and resources.arsc is located by
 * offsets the file itself declares, so each read names the end it must stay inside; a read past
 * it throws BinaryFormatError instead of reading a neighbour's bytes or throwing a RangeError.
 */
export class BinaryFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BinaryFormatError";
  }
}

function check(buf: Buffer, pos: number, width: number, end: number): void {
  const limit = Math.min(end, buf.length);
  if (!Number.isInteger(pos) || pos < 0 || pos + width > limit) {
    throw new BinaryFormatError(`read of ${width} bytes at ${pos} is outside 0..${limit}`);
  }
}

export function u8(buf: Buffer, pos: number, end: number = buf.length): number {
  check(buf, pos, 1, end);
  return buf[pos] as number;
}

export function u16(buf: Buffer, pos: number, end: number = buf.length): number {
  check(buf, pos, 2, end);
  return buf.readUInt16LE(pos);
}

export function u32(buf: Buffer, pos: number, end: number = buf.length): number {
  check(buf, pos, 4, end);
  return buf.readUInt32LE(pos);
}

/** True when `width` bytes at `pos` lie inside both `end` and the buffer. */
export function fits(buf: Buffer, pos: number, width: number, end: number = buf.length): boolean {
  return Number.isInteger(pos) && pos >= 0 && width >= 0 && pos + width <= Math.min(end, buf.length);
}
