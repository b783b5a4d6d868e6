import { T, chunk, resValue, stringPool, u16, u32 } from "./encode";

export interface ConfigSpec {
  language?: string;
  region?: string;
  script?: string;
  variant?: string;
  density?: number;
  sdk?: number;
  night?: boolean;
  /** Declared config size (64 today; older tools wrote 28..52). */
  size?: number;
}

export interface EntrySpec {
  index: number;
  key: string;
  /** A string (put in the global pool) or a typed value. */
  string?: string;
  type?: number;
  data?: number;
  /** A complex (bag) entry with this many map items. */
  complex?: number;
  compact?: boolean;
}

export interface TypeSpec {
  typeId: number;
  config?: ConfigSpec;
  encoding?: "dense" | "sparse" | "offset16";
  /** Entry slots of the type (defaults to max index + 1). */
  entryCount?: number;
  entries: EntrySpec[];
}

export interface TableSpec {
  packageId?: number;
  packageName?: string;
  /** Type names by id - 1 ("attr", "drawable", "mipmap", "string", ...). */
  typeNames?: string[];
  types: TypeSpec[];
  utf8?: boolean;
}

export const DEFAULT_TYPE_NAMES = ["attr", "drawable", "mipmap", "string"];
export const TYPE = { attr: 1, drawable: 2, mipmap: 3, string: 4 } as const;

export function resId(typeId: number, index: number, packageId = 0x7f): number {
  return ((packageId << 24) | (typeId << 16) | index) >>> 0;
}

/** ResTable_config::packLanguageOrRegion for three letters. */
function pack(code: string, base: number): Buffer {
  if (code.length === 2) return Buffer.from(code, "latin1");
  if (code.length !== 3) return Buffer.alloc(2);
  const [first, second, third] = [...code].map((c) => c.charCodeAt(0) - base) as [number, number, number];
  return Buffer.from([0x80 | (third << 2) | (second >> 3), ((second << 5) | first) & 0xff]);
}

export function configBytes(spec: ConfigSpec = {}): Buffer {
  const b = Buffer.alloc(64);
  b.writeUInt32LE(spec.size ?? 64, 0);
  if (spec.language) pack(spec.language, 0x61).copy(b, 8);
  if (spec.region) pack(spec.region, 0x30).copy(b, 10);
  if (spec.density) b.writeUInt16LE(spec.density, 14);
  if (spec.sdk) b.writeUInt16LE(spec.sdk, 24);
  if (spec.night) b[29] = 0x20;
  if (spec.script) b.write(spec.script, 36, "latin1");
  if (spec.variant) b.write(spec.variant, 40, "latin1");
  return b.subarray(0, Math.max(spec.size ?? 64, 28));
}

/** Builds a resources.arsc with one package. */
export function buildArsc(spec: TableSpec): Buffer {
  const values: string[] = [];
  const keys: string[] = [];
  const valueIds = new Map<string, number>();
  const keyIds = new Map<string, number>();
  const intern = (list: string[], ids: Map<string, number>, s: string): number => {
    let i = ids.get(s);
    if (i === undefined) {
      i = list.push(s) - 1;
      ids.set(s, i);
    }
    return i;
  };
  const valueIndex = (s: string): number => intern(values, valueIds, s);
  const keyIndex = (s: string): number => intern(keys, keyIds, s);

  const typeChunks = spec.types.map((t) => {
    const encoding = t.encoding ?? "dense";
    const sorted = [...t.entries].sort((a, b) => a.index - b.index);
    const entryCount = t.entryCount ?? (sorted.length === 0 ? 0 : (sorted[sorted.length - 1] as EntrySpec).index + 1);
    const bodies = new Map<number, Buffer>();
    for (const e of sorted) {
      const key = keyIndex(e.key);
      const type = e.string !== undefined ? T.STRING : (e.type ?? T.INT_DEC);
      const data = e.string !== undefined ? valueIndex(e.string) : (e.data ?? 0);
      if (e.compact) {
        bodies.set(e.index, Buffer.concat([u16(key), u16(0x0008 | (type << 8)), u32(data)]));
      } else if (e.complex !== undefined) {
        const maps = Array.from({ length: e.complex }, (_, i) => Buffer.concat([u32(0x01010000 + i), resValue(T.INT_DEC, i)]));
        bodies.set(e.index, Buffer.concat([u16(16), u16(0x0001), u32(key), u32(0), u32(e.complex), ...maps]));
      } else {
        bodies.set(e.index, Buffer.concat([u16(8), u16(0), u32(key), resValue(type, data)]));
      }
    }
    const offsets = new Map<number, number>();
    let at = 0;
    for (const [index, body] of bodies) {
      offsets.set(index, at);
      at += body.length;
    }
    let table: Buffer;
    let flags = 0;
    let count = entryCount;
    if (encoding === "sparse") {
      flags = 0x01;
      count = sorted.length;
      table = Buffer.concat(sorted.map((e) => Buffer.concat([u16(e.index), u16((offsets.get(e.index) as number) / 4)])));
    } else if (encoding === "offset16") {
      flags = 0x02;
      table = Buffer.concat(
        Array.from({ length: entryCount }, (_, i) => u16(offsets.has(i) ? (offsets.get(i) as number) / 4 : 0xffff)),
      );
      if (table.length % 4 !== 0) table = Buffer.concat([table, Buffer.alloc(2)]);
    } else {
      table = Buffer.concat(Array.from({ length: entryCount }, (_, i) => u32(offsets.get(i) ?? 0xffffffff)));
    }
    const config = configBytes(t.config);
    const headerSize = 20 + config.length;
    const headerExtra = Buffer.concat([
      Buffer.from([t.typeId, flags]),
      u16(0),
      u32(count),
      u32(headerSize + table.length),
      config,
    ]);
    return chunk(0x0201, headerExtra, Buffer.concat([table, ...bodies.values()]));
  });

  const typeNames = spec.typeNames ?? DEFAULT_TYPE_NAMES;
  const typeIds = [...new Set(spec.types.map((t) => t.typeId))];
  const specChunks = typeIds.map((id) => {
    const count = Math.max(...spec.types.filter((t) => t.typeId === id).map((t) => t.entryCount ?? t.entries.length));
    return chunk(0x0202, Buffer.concat([Buffer.from([id, 0]), u16(0), u32(count)]), Buffer.alloc(count * 4));
  });
  const typePool = stringPool(typeNames, { utf8: true });
  const keyPool = stringPool(keys, { utf8: true });
  const name = Buffer.alloc(256);
  name.write(spec.packageName ?? "com.example", 0, "utf16le");
  const pkgHeaderExtra = Buffer.concat([
    u32(spec.packageId ?? 0x7f),
    name,
    u32(288),
    u32(typeNames.length),
    u32(288 + typePool.length),
    u32(keys.length),
    u32(0),
  ]);
  const pkg = chunk(0x0200, pkgHeaderExtra, Buffer.concat([typePool, keyPool, ...specChunks, ...typeChunks]));
  const globalPool = stringPool(values, { utf8: spec.utf8 ?? true });
  return chunk(0x0002, u32(1), Buffer.concat([globalPool, pkg]));
}
