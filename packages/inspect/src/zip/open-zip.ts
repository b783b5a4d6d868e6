/**
 * ZIP over random access. Our own compact reader rather than yauzl or adm-zip because:
 * - adm-zip needs the whole archive in memory (a 1 GB IPA in a Lambda);
 * - yauzl issues a read per central-directory record and per local header, each a separate S3
 *   request when reading in place, and insists on the encryption bit;
 * whereas the layout we need is small: one read for the tail (EOCD, ZIP64 records, comment), one
 * for the whole central directory (often none: small archives fit in the tail read), and one per
 * entry covering its local header and data.
 *
 * Like Android, sizes and method come from the central directory (data descriptors and odd local
 * headers do not matter) and the encryption flag is ignored: obfuscators set it on entries that
 * are not encrypted, and an entry that really is encrypted fails its CRC check.
 */
import type { InspectContext } from "../inspect-context";
import { InspectError } from "../inspect-result";
import type { RandomAccessReader } from "../reader/random-access-reader";
import { checkCrc, inflateBounded } from "./inflate-entry";
import type { ZipArchive, ZipEntryInfo } from "./zip-archive";
import {
  LOCAL_HEADER_SIGNATURE,
  LOCAL_HEADER_SIZE,
  TAIL_READ_BYTES,
  ZIP64_EOCD_SIZE,
  checkCentralDirectoryBounds,
  corrupt,
  parseCentralDirectory,
  parseTail,
  parseZip64Record,
} from "./zip-structure";
import type { CentralEntry, EndOfCentralDirectory } from "./zip-structure";

/**
 * Local extra fields often differ from central ones by a few bytes (zipalign padding, macOS's
 * longer "UT" timestamps); over-reading this much saves a second request per entry.
 */
export const LOCAL_HEADER_SLACK = 64;

const STORED = 0;
const DEFLATED = 8;

interface Region {
  start: number;
  bytes: Buffer;
}

export class RangeZipArchive implements ZipArchive {
  readonly entries: ReadonlyMap<string, ZipEntryInfo>;
  /** Raw (still compressed) bytes of prefetched entries, by name, until read. */
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  /** What readBeforeCentralDirectory fetched, kept for its next call. */
  private beforeDirectory: Region | undefined;

  constructor(
    private readonly reader: RandomAccessReader,
    private readonly ctx: InspectContext,
    private readonly central: ReadonlyMap<string, CentralEntry>,
    readonly endRecord: EndOfCentralDirectory,
    /** Bytes already fetched (tail, central directory): entries inside them cost no read. */
    private readonly regions: Region[],
  ) {
    this.entries = central;
  }

  get comment(): Buffer {
    return this.endRecord.comment;
  }

  prefetch(names: Iterable<string>): void {
    const { maxEntryBytes } = this.ctx.limits;
    for (const name of names) {
      const entry = this.central.get(name);
      if (!entry || this.inFlight.has(name)) continue;
      // Never fetch what read() would refuse anyway.
      if (entry.compressedSize > maxEntryBytes || entry.uncompressedSize > maxEntryBytes) continue;
      const raw = this.readEntryData(entry);
      // A prefetch nobody reads must not become an unhandled rejection; read() still sees the error.
      raw.catch(() => undefined);
      this.inFlight.set(name, raw);
    }
  }

  async read(name: string, options?: { maxBytes?: number }): Promise<Buffer> {
    const entry = this.central.get(name);
    if (!entry) throw corrupt(`No entry named ${name}`);
    this.ctx.checkDeadline();
    const { limits } = this.ctx;
    const maxBytes = Math.min(options?.maxBytes ?? limits.maxEntryBytes, limits.maxEntryBytes);
    if (entry.uncompressedSize > maxBytes) {
      throw new InspectError(
        "too_large",
        `Entry ${name} is ${entry.uncompressedSize} bytes uncompressed; the limit is ${maxBytes}`,
      );
    }
    if (entry.method === STORED) {
      if (entry.compressedSize !== entry.uncompressedSize) {
        throw corrupt(`Stored entry ${name} has different compressed and uncompressed sizes`);
      }
    } else if (entry.method === DEFLATED) {
      if (entry.uncompressedSize > Math.max(entry.compressedSize, 1) * limits.maxCompressionRatio) {
        throw new InspectError(
          "too_large",
          `Entry ${name} claims a compression ratio above ${limits.maxCompressionRatio}:1 (zip bomb?)`,
        );
      }
    } else {
      throw corrupt(`Entry ${name} uses compression method ${entry.method}; only stored and deflate are supported`);
    }

    const prefetched = this.inFlight.get(name);
    this.inFlight.delete(name);
    const raw = await (prefetched ?? this.readEntryData(entry));
    this.ctx.checkDeadline();
    const data =
      entry.method === STORED ? raw : await inflateBounded(raw, entry.uncompressedSize, name);
    if (data.length !== entry.uncompressedSize) {
      throw corrupt(
        `Entry ${name} inflates to ${data.length} bytes; the central directory says ${entry.uncompressedSize}`,
      );
    }
    checkCrc(data, entry.crc32, name);
    this.ctx.checkDeadline();
    return data;
  }

  async readBeforeCentralDirectory(length: number, speculative = length): Promise<Buffer> {
    const end = this.endRecord.centralDirectoryOffset;
    const known = this.knownBefore(end) ?? { start: end, bytes: Buffer.alloc(0) };
    if (end - known.start >= Math.min(length, end)) return known.bytes;
    this.ctx.checkDeadline();
    const start = Math.max(0, end - Math.max(length, speculative));
    const fetched = await this.reader.read(start, known.start - start);
    const bytes = known.bytes.length === 0 ? fetched : Buffer.concat([fetched, known.bytes]);
    this.beforeDirectory = { start, bytes };
    return bytes;
  }

  /** The longest run of fetched bytes that ends exactly at `end`. */
  private knownBefore(end: number): Region | undefined {
    let best: Region | undefined;
    for (const region of [...this.regions, ...(this.beforeDirectory ? [this.beforeDirectory] : [])]) {
      if (region.start >= end || region.start + region.bytes.length < end) continue;
      if (best === undefined || region.start < best.start) {
        best = { start: region.start, bytes: region.bytes.subarray(0, end - region.start) };
      }
    }
    return best;
  }

  /** The entry's compressed bytes, in one read unless its local header is unusually long. */
  private async readEntryData(entry: CentralEntry): Promise<Buffer> {
    const limit = this.endRecord.centralDirectoryOffset;
    const start = entry.localHeaderOffset;
    if (start + LOCAL_HEADER_SIZE > limit) throw corrupt(`Local header of ${entry.name} is out of bounds`);
    const guess =
      LOCAL_HEADER_SIZE + entry.nameLength + entry.extraLength + entry.compressedSize + LOCAL_HEADER_SLACK;
    const first = await this.fetch(start, Math.min(start + guess, limit));
    if (first.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) {
      throw corrupt(`Entry ${entry.name} has no local header at offset ${start}`);
    }
    const dataStart =
      start + LOCAL_HEADER_SIZE + first.readUInt16LE(26) + first.readUInt16LE(28);
    const dataEnd = dataStart + entry.compressedSize;
    if (dataEnd > limit) throw corrupt(`Data of ${entry.name} runs into the central directory`);
    const fetchedEnd = start + first.length;
    if (dataEnd <= fetchedEnd) return first.subarray(dataStart - start, dataEnd - start);
    const rest = await this.fetch(Math.max(fetchedEnd, dataStart), dataEnd);
    if (dataStart >= fetchedEnd) return rest;
    return Buffer.concat([first.subarray(dataStart - start), rest]);
  }

  private async fetch(start: number, end: number): Promise<Buffer> {
    for (const region of this.regions) {
      if (start >= region.start && end <= region.start + region.bytes.length) {
        return region.bytes.subarray(start - region.start, end - region.start);
      }
    }
    return this.reader.read(start, end - start);
  }
}

export async function openZip(reader: RandomAccessReader, ctx: InspectContext): Promise<RangeZipArchive> {
  ctx.checkDeadline();
  const size = reader.size;
  if (size < 22) throw new InspectError("not_a_zip", `File of ${size} bytes is too small to be a ZIP archive`);
  const tailLength = Math.min(size, TAIL_READ_BYTES);
  const tailStart = size - tailLength;
  const tail = await reader.read(tailStart, tailLength);
  const end = parseTail(tail, size);

  if (end.zip64RecordOffset !== undefined) {
    // Only when the ZIP64 end record is not right before its locator (legal, never seen in practice).
    const record = await reader.read(end.zip64RecordOffset, ZIP64_EOCD_SIZE);
    const values = parseZip64Record(record);
    end.entryCount = values.entryCount;
    end.centralDirectorySize = values.cdSize;
    end.centralDirectoryOffset = values.cdOffset;
    delete end.zip64RecordOffset;
    checkCentralDirectoryBounds(end);
  }
  const { centralDirectoryOffset: cdOffset, centralDirectorySize: cdSize } = end;
  if (cdSize > ctx.limits.maxEntryBytes) {
    throw new InspectError("too_large", `Central directory of ${cdSize} bytes exceeds the entry limit`);
  }
  ctx.checkDeadline();

  // One read for the part of the central directory the tail read did not already cover.
  let cd: Buffer;
  if (cdOffset >= tailStart) {
    cd = tail.subarray(cdOffset - tailStart, cdOffset - tailStart + cdSize);
  } else {
    const before = await reader.read(cdOffset, Math.min(cdOffset + cdSize, tailStart) - cdOffset);
    cd =
      cdOffset + cdSize <= tailStart
        ? before
        : Buffer.concat([before, tail.subarray(0, cdOffset + cdSize - tailStart)]);
  }
  const list = parseCentralDirectory(cd, cdOffset, () => ctx.checkDeadline());
  const central = new Map<string, CentralEntry>();
  for (const entry of list) central.set(entry.name, entry);

  const regions: Region[] = [{ start: tailStart, bytes: tail }];
  if (cdOffset < tailStart) regions.push({ start: cdOffset, bytes: cd });
  return new RangeZipArchive(reader, ctx, central, end, regions);
}
