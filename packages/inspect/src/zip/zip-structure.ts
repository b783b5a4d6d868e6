/**
 * ZIP record layouts (PKWARE APPNOTE 6.3) and parsers over byte buffers. Pure functions, no I/O:
 * open-zip.ts decides which bytes to fetch. Every offset is checked before it is read, because
 * the input is whatever a CI job uploaded.
 */
import { InspectError } from "../inspect-result";
import { decodeCp437 } from "./cp437";

export const LOCAL_HEADER_SIGNATURE = 0x04034b50;
export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
export const CENTRAL_HEADER_SIZE = 46;
export const EOCD_SIGNATURE = 0x06054b50;
export const EOCD_SIZE = 22;
export const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
export const ZIP64_LOCATOR_SIZE = 20;
export const ZIP64_EOCD_SIGNATURE = 0x06064b50;
export const ZIP64_EOCD_SIZE = 56;
export const MAX_COMMENT_LENGTH = 0xffff;
/** One read from the end finds the EOCD behind the longest comment, and the ZIP64 records before it. */
export const TAIL_READ_BYTES = MAX_COMMENT_LENGTH + EOCD_SIZE + ZIP64_LOCATOR_SIZE + ZIP64_EOCD_SIZE;

const ZIP64_EXTRA_ID = 0x0001;
const FLAG_UTF8 = 1 << 11;

export interface EndOfCentralDirectory {
  /** Absolute offset of the EOCD record. */
  eocdOffset: number;
  /** Absolute offset of whatever follows the central directory (ZIP64 EOCD or EOCD). */
  centralDirectoryBound: number;
  entryCount: number;
  centralDirectoryOffset: number;
  centralDirectorySize: number;
  comment: Buffer;
  zip64: boolean;
  /** Set when the ZIP64 EOCD record is not inside the tail we read and must be fetched. */
  zip64RecordOffset?: number;
}

/** What the central directory says about one entry, including what reading it needs. */
export interface CentralEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  nameLength: number;
  extraLength: number;
}

export function corrupt(message: string): InspectError {
  return new InspectError("zip_corrupt", message);
}

/**
 * Two 32-bit halves rather than readBigUInt64LE: in the browser, Buffer is the `buffer` package
 * (5.x), which has no BigInt reads, and a ZIP64 package (any build past 4 GiB) failed there with
 * "readBigUInt64LE is not a function". Exact up to 2^53 - 1, past which the value is refused.
 */
function u64(buf: Buffer, at: number, what: string): number {
  const low = buf.readUInt32LE(at);
  const high = buf.readUInt32LE(at + 4);
  if (high >= 2 ** 21) throw corrupt(`${what} is out of range`);
  return high * 2 ** 32 + low;
}

/**
 * Finds the EOCD in the last bytes of the file, searching backwards. A record whose comment
 * ends exactly at the end of the file wins, so a comment that itself contains the signature
 * does not fool us; failing that (trailing bytes after the comment), the last record whose
 * comment fits, as Android's libziparchive does.
 */
export function parseTail(tail: Buffer, fileSize: number): EndOfCentralDirectory {
  const tailStart = fileSize - tail.length;
  let at = -1;
  let loose = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    const commentEnd = i + EOCD_SIZE + tail.readUInt16LE(i + 20);
    if (commentEnd === tail.length) {
      at = i;
      break;
    }
    if (commentEnd < tail.length && loose < 0) loose = i;
  }
  if (at < 0) at = loose;
  if (at < 0) {
    throw new InspectError("not_a_zip", "No ZIP end-of-central-directory record: not a ZIP archive");
  }
  const disk = tail.readUInt16LE(at + 4);
  const cdDisk = tail.readUInt16LE(at + 6);
  let entryCount = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  const commentLength = tail.readUInt16LE(at + 20);
  const comment = Buffer.from(tail.subarray(at + EOCD_SIZE, at + EOCD_SIZE + commentLength));
  const eocdOffset = tailStart + at;
  let bound = eocdOffset;
  let zip64 = false;
  let zip64RecordOffset: number | undefined;

  const locatorAt = at - ZIP64_LOCATOR_SIZE;
  if (locatorAt >= 0 && tail.readUInt32LE(locatorAt) === ZIP64_LOCATOR_SIGNATURE) {
    zip64 = true;
    const recordOffset = u64(tail, locatorAt + 8, "ZIP64 end record offset");
    if (recordOffset + ZIP64_EOCD_SIZE > tailStart + locatorAt) {
      throw corrupt("ZIP64 end record offset points past its locator");
    }
    bound = recordOffset;
    const inTail = recordOffset - tailStart;
    if (inTail >= 0) {
      const record = parseZip64Record(tail.subarray(inTail, inTail + ZIP64_EOCD_SIZE));
      ({ entryCount, cdSize, cdOffset } = record);
    } else {
      zip64RecordOffset = recordOffset;
    }
  } else if (disk !== 0 || cdDisk !== 0) {
    // Split archives never reach us as one package; Android refuses them too.
    throw corrupt("Multi-disk ZIP archives are not supported");
  }

  const result: EndOfCentralDirectory = {
    eocdOffset,
    centralDirectoryBound: bound,
    entryCount,
    centralDirectoryOffset: cdOffset,
    centralDirectorySize: cdSize,
    comment,
    zip64,
  };
  if (zip64RecordOffset !== undefined) result.zip64RecordOffset = zip64RecordOffset;
  else checkCentralDirectoryBounds(result);
  return result;
}

export function parseZip64Record(record: Buffer): {
  entryCount: number;
  cdSize: number;
  cdOffset: number;
} {
  if (record.length < ZIP64_EOCD_SIZE || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) {
    throw corrupt("ZIP64 end-of-central-directory record is missing");
  }
  return {
    entryCount: u64(record, 32, "ZIP64 entry count"),
    cdSize: u64(record, 40, "ZIP64 central directory size"),
    cdOffset: u64(record, 48, "ZIP64 central directory offset"),
  };
}

export function checkCentralDirectoryBounds(eocd: EndOfCentralDirectory): void {
  const { centralDirectoryOffset: offset, centralDirectorySize: size, centralDirectoryBound } = eocd;
  if (offset + size > centralDirectoryBound) {
    throw corrupt(
      `Central directory (${size} bytes at ${offset}) overlaps the end records at ${centralDirectoryBound}`,
    );
  }
  // Each entry needs at least a 46-byte header, so a count the directory cannot hold is a lie.
  if (eocd.entryCount * CENTRAL_HEADER_SIZE > size && eocd.entryCount !== 0xffff) {
    throw corrupt(`Central directory of ${size} bytes cannot hold ${eocd.entryCount} entries`);
  }
}

/**
 * Parses central directory records until the directory's bytes run out. Counting by bytes rather
 * than by the EOCD count also reads archives whose 16-bit count wrapped past 65,535 without ZIP64.
 */
export function parseCentralDirectory(
  cd: Buffer,
  centralDirectoryOffset: number,
  onProgress: (entries: number) => void,
): CentralEntry[] {
  const entries: CentralEntry[] = [];
  let p = 0;
  while (p + 4 <= cd.length) {
    if (cd.readUInt32LE(p) !== CENTRAL_HEADER_SIGNATURE) {
      // Some writers pad the directory; anything after the last valid record is ignored only
      // if at least one record was found.
      if (entries.length > 0) break;
      throw corrupt(`No central directory record at offset ${centralDirectoryOffset + p}`);
    }
    if (p + CENTRAL_HEADER_SIZE > cd.length) throw corrupt("Truncated central directory record");
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const crc32 = cd.readUInt32LE(p + 16);
    let compressedSize = cd.readUInt32LE(p + 20);
    let uncompressedSize = cd.readUInt32LE(p + 24);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    let localHeaderOffset = cd.readUInt32LE(p + 42);
    const nameStart = p + CENTRAL_HEADER_SIZE;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > cd.length) throw corrupt("Central directory record runs past the directory");

    const nameBytes = cd.subarray(nameStart, extraStart);
    const name = flags & FLAG_UTF8 ? nameBytes.toString("utf8") : decodeName(nameBytes);

    if (
      compressedSize === 0xffffffff ||
      uncompressedSize === 0xffffffff ||
      localHeaderOffset === 0xffffffff
    ) {
      const zip64 = findExtra(cd.subarray(extraStart, extraStart + extraLength), ZIP64_EXTRA_ID);
      if (!zip64) throw corrupt(`Entry ${name} needs a ZIP64 extra field and has none`);
      // Only the saturated fields are present, always in this order (APPNOTE 4.5.3).
      let q = 0;
      const take = (what: string): number => {
        if (q + 8 > zip64.length) throw corrupt(`ZIP64 extra field of ${name} lacks ${what}`);
        const value = u64(zip64, q, `${what} of ${name}`);
        q += 8;
        return value;
      };
      if (uncompressedSize === 0xffffffff) uncompressedSize = take("uncompressed size");
      if (compressedSize === 0xffffffff) compressedSize = take("compressed size");
      if (localHeaderOffset === 0xffffffff) localHeaderOffset = take("local header offset");
    }
    if (localHeaderOffset >= centralDirectoryOffset) {
      throw corrupt(`Entry ${name} starts inside or after the central directory`);
    }
    entries.push({
      name,
      method,
      flags,
      crc32,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      nameLength,
      extraLength,
    });
    p = next;
    if ((entries.length & 0x3fff) === 0) onProgress(entries.length);
  }
  return entries;
}

function findExtra(extra: Buffer, id: number): Buffer | undefined {
  let p = 0;
  while (p + 4 <= extra.length) {
    const fieldId = extra.readUInt16LE(p);
    const size = extra.readUInt16LE(p + 2);
    const end = p + 4 + size;
    if (end > extra.length) return undefined;
    if (fieldId === id) return extra.subarray(p + 4, end);
    p = end;
  }
  return undefined;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Names without the UTF-8 flag: macOS and many build tools write UTF-8 anyway, so valid UTF-8
 * is taken as such and only the rest falls back to the spec's CP437.
 */
function decodeName(bytes: Buffer): string {
  let ascii = true;
  for (const byte of bytes) {
    if (byte >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return bytes.toString("latin1");
  try {
    return utf8.decode(bytes);
  } catch {
    return decodeCp437(bytes);
  }
}
