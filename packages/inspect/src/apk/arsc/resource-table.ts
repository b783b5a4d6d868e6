import { BinaryFormatError, fits } from "../binary/bytes";
import { CHUNK_HEADER_SIZE, ChunkType, walkChunks } from "../binary/chunk";
import type { Chunk } from "../binary/chunk";
import { RES_VALUE_SIZE } from "../binary/res-value";
import type { ResValue } from "../binary/res-value";
import { StringPool } from "../binary/string-pool";
import { parseResConfig } from "./res-config";
import type { ResConfig } from "./res-config";

/** ResTable_type flags. */
const TYPE_FLAG_SPARSE = 0x01;
const TYPE_FLAG_OFFSET16 = 0x02;
/** ResTable_entry flags. */
const ENTRY_FLAG_COMPLEX = 0x0001;
const ENTRY_FLAG_COMPACT = 0x0008;
const NO_ENTRY_32 = 0xffffffff;
const NO_ENTRY_16 = 0xffff;
/** ResTable_type fixed part before the config: header, id, flags, reserved, entryCount, entriesStart. */
const TYPE_CONFIG_OFFSET = 20;
/** ResTable_package: header, id, name[128] (UTF-16), typeStrings, lastPublicType, keyStrings, lastPublicKey. */
const PACKAGE_MIN_HEADER = 284;
const ENTRY_HEADER_SIZE = 8;

/** One value of a resource in one configuration. */
export interface TableEntry {
  config: ResConfig;
  /** The simple value; undefined for complex (bag) entries such as styles or plurals. */
  value: ResValue | undefined;
  keyIndex: number;
}

interface TypeChunk {
  typeId: number;
  flags: number;
  entryCount: number;
  offsetsStart: number;
  entriesStart: number;
  end: number;
  config: ResConfig;
}

interface TablePackage {
  id: number;
  name: string;
  typeNames: StringPool;
  keyNames: StringPool;
  typeIdOffset: number;
  types: Map<number, TypeChunk[]>;
}

export interface ResourceTableOptions {
  checkDeadline?: () => void;
}

/**
 * resources.arsc. Parsing only indexes the chunks (one pass over chunk headers); entries are read
 * when looked up, so a 30 MB table of a large app costs a walk, not a full decode.
 */
export class ResourceTable {
  private work = 0;

  private constructor(
    private readonly buf: Buffer,
    /** The global value string pool. */
    readonly strings: StringPool,
    private readonly packages: Map<number, TablePackage>,
    /** Tolerated defects, for diagnostics. */
    readonly anomalies: string[],
    private readonly checkDeadline: (() => void) | undefined,
  ) {}

  /**
   * Lookups scan every type chunk of a type; a hostile table can hold millions, so lookups, not
   * only parsing, watch the deadline (synchronous work would also starve any timer).
   */
  private step(): void {
    if (++this.work % 4096 === 0) this.checkDeadline?.();
  }

  static parse(buf: Buffer, options: ResourceTableOptions = {}): ResourceTable {
    const anomalies: string[] = [];
    if (buf.length < 12) throw new BinaryFormatError("resources.arsc is shorter than its header");
    const type = buf.readUInt16LE(0);
    let headerSize = buf.readUInt16LE(2);
    let size = buf.readUInt32LE(4);
    if (type !== ChunkType.TABLE) anomalies.push(`table header type is 0x${type.toString(16)}, not 0x2`);
    if (headerSize < 12 || headerSize >= buf.length) headerSize = 12;
    if (size > buf.length || size < headerSize) {
      anomalies.push(`table declares ${size} bytes but ${buf.length} exist`);
      size = buf.length;
    }

    let strings: StringPool | undefined;
    const packages = new Map<number, TablePackage>();
    const onIssue = (issue: { offset: number; reason: string }): void => {
      anomalies.push(`at ${issue.offset}: ${issue.reason}`);
    };
    let steps = 0;
    for (const chunk of walkChunks(buf, headerSize, size, onIssue)) {
      options.checkDeadline?.();
      if (chunk.type === ChunkType.STRING_POOL) {
        if (strings === undefined) strings = StringPool.parse(buf, chunk);
      } else if (chunk.type === ChunkType.TABLE_PACKAGE) {
        const pkg = parsePackage(buf, chunk, anomalies, () => {
          if (++steps % 512 === 0) options.checkDeadline?.();
        }, onIssue);
        if (pkg === undefined) continue;
        const existing = packages.get(pkg.id);
        if (existing === undefined) {
          packages.set(pkg.id, pkg);
        } else {
          // A second chunk for the same package id adds configurations to the first.
          for (const [typeId, chunks] of pkg.types) {
            existing.types.set(typeId, [...(existing.types.get(typeId) ?? []), ...chunks]);
          }
        }
      } else {
        anomalies.push(`skipped table chunk 0x${chunk.type.toString(16)} at ${chunk.start}`);
      }
    }
    if (strings === undefined) throw new BinaryFormatError("resources.arsc has no value string pool");
    return new ResourceTable(buf, strings, packages, anomalies, options.checkDeadline);
  }

  /** Package ids present, in table order. */
  get packageIds(): number[] {
    return [...this.packages.keys()];
  }

  /** Every locale any resource is provided in, in the "fr" / "zh-CN" / "b+sr+Latn" form, sorted. */
  get locales(): string[] {
    return [...this.localeConfigs().keys()];
  }

  /** One config per locale (keyed and sorted by its name), to resolve values for that locale. */
  localeConfigs(): Map<string, ResConfig> {
    const found = new Map<string, ResConfig>();
    for (const pkg of this.packages.values()) {
      for (const chunks of pkg.types.values()) {
        for (const chunk of chunks) {
          this.step();
          if (chunk.config.locale !== "" && !found.has(chunk.config.locale)) found.set(chunk.config.locale, chunk.config);
        }
      }
    }
    return new Map([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Every configuration's value of resource `resId` (0xPPTTEEEE), in table order. */
  entries(resId: number): TableEntry[] {
    const pkg = this.packageOf(resId);
    if (pkg === undefined) return [];
    const typeId = (resId >>> 16) & 0xff;
    const entryIndex = resId & 0xffff;
    const out: TableEntry[] = [];
    for (const chunk of pkg.types.get(typeId) ?? []) {
      this.step();
      const entry = this.readEntry(chunk, entryIndex);
      if (entry !== undefined) out.push(entry);
    }
    return out;
  }

  /** "string/app_name" for diagnostics, or undefined when the id is unknown. */
  resourceName(resId: number): string | undefined {
    const pkg = this.packageOf(resId);
    if (pkg === undefined) return undefined;
    const typeId = (resId >>> 16) & 0xff;
    const typeName = pkg.typeNames.get(typeId - 1 - pkg.typeIdOffset);
    const entry = this.entries(resId)[0];
    const keyName = entry === undefined ? undefined : pkg.keyNames.get(entry.keyIndex);
    if (typeName === undefined || keyName === undefined) return undefined;
    return `${typeName}/${keyName}`;
  }

  private packageOf(resId: number): TablePackage | undefined {
    const pkgId = resId >>> 24;
    const pkg = this.packages.get(pkgId);
    if (pkg !== undefined) return pkg;
    // Package id 0 is a shared library referring to itself before the loader assigns its id.
    if (pkgId === 0 && this.packages.size === 1) return this.packages.values().next().value;
    return undefined;
  }

  private entryOffset(chunk: TypeChunk, index: number): number | undefined {
    const { buf } = this;
    if ((chunk.flags & TYPE_FLAG_SPARSE) !== 0) {
      // Sorted (idx u16, offset/4 u16) pairs: binary search.
      let lo = 0;
      let hi = chunk.entryCount - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = chunk.offsetsStart + mid * 4;
        if (!fits(buf, at, 4, chunk.end)) return undefined;
        const idx = buf.readUInt16LE(at);
        if (idx === index) return buf.readUInt16LE(at + 2) * 4;
        if (idx < index) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    }
    if (index >= chunk.entryCount) return undefined;
    if ((chunk.flags & TYPE_FLAG_OFFSET16) !== 0) {
      const at = chunk.offsetsStart + index * 2;
      if (!fits(buf, at, 2, chunk.end)) return undefined;
      const v = buf.readUInt16LE(at);
      return v === NO_ENTRY_16 ? undefined : v * 4;
    }
    const at = chunk.offsetsStart + index * 4;
    if (!fits(buf, at, 4, chunk.end)) return undefined;
    const v = buf.readUInt32LE(at);
    return v === NO_ENTRY_32 ? undefined : v;
  }

  private readEntry(chunk: TypeChunk, index: number): TableEntry | undefined {
    const { buf } = this;
    const offset = this.entryOffset(chunk, index);
    if (offset === undefined) return undefined;
    const at = chunk.entriesStart + offset;
    if (!fits(buf, at, ENTRY_HEADER_SIZE, chunk.end)) return undefined;
    const first = buf.readUInt16LE(at);
    const flags = buf.readUInt16LE(at + 2);
    const third = buf.readUInt32LE(at + 4);
    if ((flags & ENTRY_FLAG_COMPACT) !== 0) {
      // Compact entry: key index in the first u16, data type in the flags' high byte, data inline.
      return { config: chunk.config, keyIndex: first, value: { type: flags >>> 8, data: third } };
    }
    if ((flags & ENTRY_FLAG_COMPLEX) !== 0) return { config: chunk.config, keyIndex: third, value: undefined };
    const size = first;
    if (size < ENTRY_HEADER_SIZE || !fits(buf, at + size, RES_VALUE_SIZE, chunk.end)) return undefined;
    const valueAt = at + size;
    return {
      config: chunk.config,
      keyIndex: third,
      value: { type: buf[valueAt + 3] as number, data: buf.readUInt32LE(valueAt + 4) },
    };
  }
}

function parsePackage(
  buf: Buffer,
  chunk: Chunk,
  anomalies: string[],
  tick: () => void,
  onIssue: (issue: { offset: number; reason: string }) => void,
): TablePackage | undefined {
  if (chunk.headerSize < PACKAGE_MIN_HEADER || !fits(buf, chunk.start, PACKAGE_MIN_HEADER, chunk.end)) {
    anomalies.push(`package chunk at ${chunk.start} has a ${chunk.headerSize}-byte header; skipped`);
    return undefined;
  }
  const id = buf.readUInt32LE(chunk.start + 8);
  const nameBytes = buf.subarray(chunk.start + 12, chunk.start + 12 + 256);
  const nul = findUtf16Nul(nameBytes);
  const name = nameBytes.toString("utf16le", 0, nul);
  const typeStringsRel = buf.readUInt32LE(chunk.start + 268);
  const keyStringsRel = buf.readUInt32LE(chunk.start + 276);
  const typeIdOffset = chunk.headerSize >= 288 && fits(buf, chunk.start + 284, 4, chunk.end)
    ? buf.readUInt32LE(chunk.start + 284)
    : 0;

  const poolAt = (rel: number): StringPool | undefined => {
    if (rel < CHUNK_HEADER_SIZE || chunk.start + rel >= chunk.end) return undefined;
    const first = walkChunks(buf, chunk.start + rel, chunk.end).next();
    if (first.done || first.value.type !== ChunkType.STRING_POOL) return undefined;
    try {
      return StringPool.parse(buf, first.value);
    } catch (error) {
      if (error instanceof BinaryFormatError) return undefined;
      throw error;
    }
  };

  const types = new Map<number, TypeChunk[]>();
  const pools: StringPool[] = [];
  for (const child of walkChunks(buf, chunk.start + chunk.headerSize, chunk.end, onIssue)) {
    tick();
    if (child.type === ChunkType.TABLE_TYPE) {
      const type = parseTypeChunk(buf, child);
      if (type === undefined) {
        anomalies.push(`unreadable type chunk at ${child.start}`);
        continue;
      }
      const list = types.get(type.typeId);
      if (list === undefined) types.set(type.typeId, [type]);
      else list.push(type);
    } else if (child.type === ChunkType.STRING_POOL && pools.length < 2) {
      try {
        pools.push(StringPool.parse(buf, child));
      } catch (error) {
        if (!(error instanceof BinaryFormatError)) throw error;
      }
    }
    // typeSpec, library, overlayable and unknown chunks carry nothing inspection needs.
  }
  return {
    id,
    name,
    // When the header's offsets are wrong, the first two pools in the package are, by
    // construction, the type and key names.
    typeNames: poolAt(typeStringsRel) ?? pools[0] ?? StringPool.empty,
    keyNames: poolAt(keyStringsRel) ?? pools[1] ?? StringPool.empty,
    typeIdOffset,
    types,
  };
}

function parseTypeChunk(buf: Buffer, chunk: Chunk): TypeChunk | undefined {
  if (chunk.headerSize < TYPE_CONFIG_OFFSET + 4 || !fits(buf, chunk.start, TYPE_CONFIG_OFFSET, chunk.end)) {
    return undefined;
  }
  const typeId = buf[chunk.start + 8] as number;
  const flags = buf[chunk.start + 9] as number;
  const entryCount = buf.readUInt32LE(chunk.start + 12);
  const entriesStartRel = buf.readUInt32LE(chunk.start + 16);
  if (typeId === 0) return undefined;
  const config = parseResConfig(buf, chunk.start + TYPE_CONFIG_OFFSET, chunk.headerSize - TYPE_CONFIG_OFFSET);
  const offsetsStart = chunk.start + chunk.headerSize;
  const entriesStart = chunk.start + entriesStartRel;
  // The offset table lies between the header and the entries; a count claiming more is cut.
  const width = (flags & (TYPE_FLAG_SPARSE | TYPE_FLAG_OFFSET16)) === TYPE_FLAG_OFFSET16 ? 2 : 4;
  const tableEnd = Math.min(entriesStart > offsetsStart ? entriesStart : chunk.end, chunk.end);
  const fitting = Math.max(0, Math.floor((tableEnd - offsetsStart) / width));
  return {
    typeId,
    flags,
    entryCount: Math.min(entryCount, fitting),
    offsetsStart,
    entriesStart,
    end: chunk.end,
    config,
  };
}

function findUtf16Nul(bytes: Buffer): number {
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    if (bytes[i] === 0 && bytes[i + 1] === 0) return i;
  }
  return bytes.length - (bytes.length % 2);
}
