import {
  crc32,
  zlib_compat_exports
} from "./chunk-AEPEW2SX.js";

// ../inspect/src/inspect-result.ts
var InspectError = class extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
    this.name = "InspectError";
  }
};
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}
var defaultLimits = {
  maxEntryBytes: 64 * 1024 * 1024,
  maxCompressionRatio: 1e3,
  timeBudgetMs: 2e4,
  maxDepth: 16
};

// ../inspect/src/apk/binary/bytes.ts
var BinaryFormatError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "BinaryFormatError";
  }
};
function fits(buf, pos, width, end = buf.length) {
  return Number.isInteger(pos) && pos >= 0 && width >= 0 && pos + width <= Math.min(end, buf.length);
}

// ../inspect/src/apk/binary/chunk.ts
var ChunkType = {
  NULL: 0,
  STRING_POOL: 1,
  TABLE: 2,
  XML: 3,
  XML_START_NAMESPACE: 256,
  XML_END_NAMESPACE: 257,
  XML_START_ELEMENT: 258,
  XML_END_ELEMENT: 259,
  XML_CDATA: 260,
  XML_RESOURCE_MAP: 384,
  TABLE_PACKAGE: 512,
  TABLE_TYPE: 513,
  TABLE_TYPE_SPEC: 514,
  TABLE_LIBRARY: 515
};
var CHUNK_HEADER_SIZE = 8;
function* walkChunks(buf, start, end, onIssue) {
  const limit = Math.min(end, buf.length);
  let pos = start;
  while (pos + CHUNK_HEADER_SIZE <= limit) {
    const type = buf.readUInt16LE(pos);
    const headerSize = buf.readUInt16LE(pos + 2);
    const declaredSize = buf.readUInt32LE(pos + 4);
    if (declaredSize < CHUNK_HEADER_SIZE || headerSize < CHUNK_HEADER_SIZE || headerSize > declaredSize) {
      onIssue?.({
        offset: pos,
        reason: `chunk 0x${type.toString(16)} declares header ${headerSize} / size ${declaredSize}`
      });
      return;
    }
    const clamped = pos + declaredSize > limit;
    const chunkEnd = clamped ? limit : pos + declaredSize;
    if (clamped) {
      onIssue?.({ offset: pos, reason: `chunk 0x${type.toString(16)} runs past its container; clamped` });
    }
    if (!fits(buf, pos, headerSize, chunkEnd)) {
      onIssue?.({ offset: pos, reason: `chunk 0x${type.toString(16)} header is cut off` });
      return;
    }
    yield { type, headerSize, start: pos, end: chunkEnd, declaredSize, clamped };
    pos += declaredSize;
  }
}

// ../inspect/src/apk/binary/res-value.ts
var ValueType = {
  NULL: 0,
  REFERENCE: 1,
  ATTRIBUTE: 2,
  STRING: 3,
  FLOAT: 4,
  DIMENSION: 5,
  FRACTION: 6,
  DYNAMIC_REFERENCE: 7,
  DYNAMIC_ATTRIBUTE: 8,
  INT_DEC: 16,
  INT_HEX: 17,
  INT_BOOLEAN: 18,
  INT_COLOR_ARGB8: 28,
  INT_COLOR_RGB8: 29,
  INT_COLOR_ARGB4: 30,
  INT_COLOR_RGB4: 31
};
var RES_VALUE_SIZE = 8;
function isReference(value) {
  return value.type === ValueType.REFERENCE || value.type === ValueType.DYNAMIC_REFERENCE;
}
function isIntType(type) {
  return type >= ValueType.INT_DEC && type <= ValueType.INT_COLOR_RGB4;
}
function formatResId(id) {
  return `0x${(id >>> 0).toString(16).padStart(8, "0")}`;
}
var DIMENSION_UNITS = ["px", "dip", "sp", "pt", "in", "mm"];
var FRACTION_UNITS = ["%", "%p"];
var RADIX_MULTS = [1 / (1 << 0), 1 / (1 << 7), 1 / (1 << 15), 1 / (1 << 23)];
function complexToFloat(complex) {
  const mantissa = complex & 4294967040 | 0;
  return mantissa * RADIX_MULTS[complex >> 4 & 3] / 256;
}
function javaFloatToString(f) {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "Infinity" : "-Infinity";
  if (Number.isInteger(f) && Math.abs(f) < 1e7) return `${f}.0`;
  for (let digits = 1; digits <= 9; digits++) {
    const text = f.toPrecision(digits);
    if (Math.fround(Number(text)) === f) return String(Number(text));
  }
  return String(f);
}
function coerceToString(value) {
  const data = value.data >>> 0;
  const signed = data | 0;
  switch (value.type) {
    case ValueType.NULL:
      return void 0;
    case ValueType.REFERENCE:
    case ValueType.DYNAMIC_REFERENCE:
      return `@${signed}`;
    case ValueType.ATTRIBUTE:
    case ValueType.DYNAMIC_ATTRIBUTE:
      return `?${signed}`;
    case ValueType.FLOAT: {
      const view = new DataView(new ArrayBuffer(4));
      view.setUint32(0, data);
      return javaFloatToString(view.getFloat32(0));
    }
    case ValueType.DIMENSION:
      return `${javaFloatToString(Math.fround(complexToFloat(data)))}${DIMENSION_UNITS[data & 15] ?? ""}`;
    case ValueType.FRACTION:
      return `${javaFloatToString(Math.fround(complexToFloat(data) * 100))}${FRACTION_UNITS[data & 15] ?? ""}`;
    case ValueType.INT_HEX:
      return `0x${data.toString(16)}`;
    case ValueType.INT_BOOLEAN:
      return data !== 0 ? "true" : "false";
    default:
      if (value.type >= ValueType.INT_COLOR_ARGB8 && value.type <= ValueType.INT_COLOR_RGB4) {
        return `#${data.toString(16)}`;
      }
      if (isIntType(value.type)) return String(signed);
      return void 0;
  }
}

// ../inspect/src/apk/binary/string-pool.ts
var UTF8_FLAG = 256;
var POOL_HEADER_SIZE = 28;
var fatalUtf8 = new TextDecoder("utf-8", { fatal: true });
var StringPool = class _StringPool {
  constructor(buf, size, utf82, offsetsStart, stringsStart, stringsEnd) {
    this.buf = buf;
    this.size = size;
    this.utf8 = utf82;
    this.offsetsStart = offsetsStart;
    this.stringsStart = stringsStart;
    this.stringsEnd = stringsEnd;
  }
  cache = /* @__PURE__ */ new Map();
  static empty = new _StringPool(Buffer.alloc(0), 0, false, 0, 0, 0);
  /** Parses the pool chunk; throws BinaryFormatError when its header cannot be read. */
  static parse(buf, chunk) {
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
    let stringsEnd = chunk.end;
    if (styleCount > 0 && stylesStartRel > stringsStartRel) {
      stringsEnd = Math.min(chunk.end, chunk.start + stylesStartRel);
    }
    const offsetsEnd = stringCount > 0 && stringsStartRel > 0 ? Math.min(stringsStart, chunk.end) : chunk.end;
    const fitting = Math.max(0, Math.floor((offsetsEnd - offsetsStart) / 4));
    const size = Math.min(stringCount, fitting);
    return new _StringPool(buf, size, (flags & UTF8_FLAG) !== 0, offsetsStart, stringsStart, stringsEnd);
  }
  /** The string at `index`, or undefined for "no string" (-1), out-of-range or malformed entries. */
  get(index) {
    if (!Number.isInteger(index) || index < 0 || index >= this.size) return void 0;
    if (this.cache.has(index)) return this.cache.get(index);
    let value;
    try {
      value = this.decode(index);
    } catch (error) {
      if (!(error instanceof BinaryFormatError)) throw error;
      value = void 0;
    }
    this.cache.set(index, value);
    return value;
  }
  decode(index) {
    const rel = this.buf.readUInt32LE(this.offsetsStart + index * 4);
    const pos = this.stringsStart + rel;
    if (rel >= this.stringsEnd - this.stringsStart || pos < this.stringsStart) return void 0;
    return this.utf8 ? this.decodeUtf8(pos) : this.decodeUtf16(pos);
  }
  decodeUtf8(pos) {
    const end = this.stringsEnd;
    const [, afterCharLen] = readLength8(this.buf, pos, end);
    const [byteLen, dataStart] = readLength8(this.buf, afterCharLen, end);
    if (!fits(this.buf, dataStart, byteLen, end)) return void 0;
    return decodeModifiedUtf8(this.buf.subarray(dataStart, dataStart + byteLen));
  }
  decodeUtf16(pos) {
    const end = this.stringsEnd;
    if (!fits(this.buf, pos, 2, end)) return void 0;
    let units = this.buf.readUInt16LE(pos);
    let dataStart = pos + 2;
    if ((units & 32768) !== 0) {
      if (!fits(this.buf, dataStart, 2, end)) return void 0;
      units = (units & 32767) << 16 | this.buf.readUInt16LE(dataStart);
      dataStart += 2;
    }
    if (!fits(this.buf, dataStart, units * 2, end)) return void 0;
    return this.buf.toString("utf16le", dataStart, dataStart + units * 2);
  }
};
function readLength8(buf, pos, end) {
  if (!fits(buf, pos, 1, end)) throw new BinaryFormatError(`string length at ${pos} is outside the pool`);
  const first = buf[pos];
  if ((first & 128) === 0) return [first, pos + 1];
  if (!fits(buf, pos + 1, 1, end)) throw new BinaryFormatError(`string length at ${pos} is cut off`);
  return [(first & 127) << 8 | buf[pos + 1], pos + 2];
}
function decodeModifiedUtf8(bytes) {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
  }
  const units = [];
  let out = "";
  let i = 0;
  const n = bytes.length;
  const cont = (k) => {
    const b = bytes[k];
    return b !== void 0 && (b & 192) === 128 ? b & 63 : -1;
  };
  while (i < n) {
    const b0 = bytes[i];
    if (b0 < 128) {
      units.push(b0);
      i += 1;
    } else if ((b0 & 224) === 192 && cont(i + 1) >= 0) {
      units.push((b0 & 31) << 6 | cont(i + 1));
      i += 2;
    } else if ((b0 & 240) === 224 && cont(i + 1) >= 0 && cont(i + 2) >= 0) {
      units.push((b0 & 15) << 12 | cont(i + 1) << 6 | cont(i + 2));
      i += 3;
    } else if ((b0 & 248) === 240 && cont(i + 1) >= 0 && cont(i + 2) >= 0 && cont(i + 3) >= 0) {
      const cp = (b0 & 7) << 18 | cont(i + 1) << 12 | cont(i + 2) << 6 | cont(i + 3);
      if (cp > 1114111) {
        units.push(65533);
      } else {
        const v = cp - 65536;
        units.push(55296 | v >> 10, 56320 | v & 1023);
      }
      i += 4;
    } else {
      units.push(65533);
      i += 1;
    }
    if (units.length >= 4096) {
      out += String.fromCharCode(...units);
      units.length = 0;
    }
  }
  return out + String.fromCharCode(...units);
}

// ../inspect/src/apk/arsc/res-config.ts
var DENSITY_DEFAULT = 0;
var DENSITY_ANY = 65534;
var DENSITY_NONE = 65535;
var LANGUAGE = 8;
var COUNTRY = 10;
var DENSITY = 14;
var SDK_VERSION = 24;
var SCRIPT = 36;
var VARIANT = 40;
var SCRIPT_WAS_COMPUTED = 52;
var NUMBERING_SYSTEM = 53;
function parseResConfig(buf, pos, available) {
  const declared = available >= 4 ? buf.readUInt32LE(pos) : 0;
  const size = Math.max(0, Math.min(declared, available, buf.length - pos));
  const byteAt = (offset) => offset < size ? buf[pos + offset] : 0;
  const u16At = (offset) => byteAt(offset) | byteAt(offset + 1) << 8;
  const charsAt = (offset, length) => {
    let out = "";
    for (let i = 0; i < length; i++) {
      const c = byteAt(offset + i);
      if (c === 0) break;
      out += String.fromCharCode(c);
    }
    return out;
  };
  const language = unpackLanguageOrRegion(
    byteAt(LANGUAGE),
    byteAt(LANGUAGE + 1),
    97
    /* 'a' */
  );
  const region = unpackLanguageOrRegion(
    byteAt(COUNTRY),
    byteAt(COUNTRY + 1),
    48
    /* '0' */
  );
  const script = byteAt(SCRIPT_WAS_COMPUTED) !== 0 ? "" : charsAt(SCRIPT, 4);
  const variant = charsAt(VARIANT, 8);
  const numbering = charsAt(NUMBERING_SYSTEM, 8);
  let plain = true;
  for (let offset = 4; offset < size; offset++) {
    const isLocale = offset >= LANGUAGE && offset < LANGUAGE + 4 || offset >= SCRIPT && offset < SCRIPT + 12 || offset >= SCRIPT_WAS_COMPUTED && offset < NUMBERING_SYSTEM + 8;
    const isDensity = offset >= DENSITY && offset < DENSITY + 2;
    const isSdk = offset >= SDK_VERSION && offset < SDK_VERSION + 2;
    if (!isLocale && !isDensity && !isSdk && buf[pos + offset] !== 0) {
      plain = false;
      break;
    }
  }
  return {
    locale: formatLocale(language, region, script, variant, numbering),
    language,
    region,
    script,
    variant,
    density: u16At(DENSITY),
    sdkVersion: u16At(SDK_VERSION),
    plain
  };
}
function unpackLanguageOrRegion(b0, b1, base) {
  if (b0 === 0) return "";
  if ((b0 & 128) !== 0) {
    const first = b1 & 31;
    const second = (b1 & 224) >> 5 | (b0 & 3) << 3;
    const third = (b0 & 124) >> 2;
    return String.fromCharCode(first + base, second + base, third + base);
  }
  return b1 === 0 ? String.fromCharCode(b0) : String.fromCharCode(b0, b1);
}
function formatLocale(language, region, script = "", variant = "", numbering = "") {
  if (language === "") return "";
  if (script === "" && variant === "" && numbering === "") return region === "" ? language : `${language}-${region}`;
  const parts = ["b", language];
  if (script !== "") parts.push(script);
  if (region !== "") parts.push(region);
  if (variant !== "") parts.push(variant);
  if (numbering !== "") parts.push("u", "nu", numbering);
  return parts.join("+");
}

// ../inspect/src/apk/arsc/resource-table.ts
var TYPE_FLAG_SPARSE = 1;
var TYPE_FLAG_OFFSET16 = 2;
var ENTRY_FLAG_COMPLEX = 1;
var ENTRY_FLAG_COMPACT = 8;
var NO_ENTRY_32 = 4294967295;
var NO_ENTRY_16 = 65535;
var TYPE_CONFIG_OFFSET = 20;
var PACKAGE_MIN_HEADER = 284;
var ENTRY_HEADER_SIZE = 8;
var ResourceTable = class _ResourceTable {
  constructor(buf, strings, packages, anomalies, checkDeadline) {
    this.buf = buf;
    this.strings = strings;
    this.packages = packages;
    this.anomalies = anomalies;
    this.checkDeadline = checkDeadline;
  }
  work = 0;
  /**
   * Lookups scan every type chunk of a type; a hostile table can hold millions, so lookups, not
   * only parsing, watch the deadline (synchronous work would also starve any timer).
   */
  step() {
    if (++this.work % 4096 === 0) this.checkDeadline?.();
  }
  static parse(buf, options = {}) {
    const anomalies = [];
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
    let strings;
    const packages = /* @__PURE__ */ new Map();
    const onIssue = (issue) => {
      anomalies.push(`at ${issue.offset}: ${issue.reason}`);
    };
    let steps = 0;
    for (const chunk of walkChunks(buf, headerSize, size, onIssue)) {
      options.checkDeadline?.();
      if (chunk.type === ChunkType.STRING_POOL) {
        if (strings === void 0) strings = StringPool.parse(buf, chunk);
      } else if (chunk.type === ChunkType.TABLE_PACKAGE) {
        const pkg = parsePackage(buf, chunk, anomalies, () => {
          if (++steps % 512 === 0) options.checkDeadline?.();
        }, onIssue);
        if (pkg === void 0) continue;
        const existing = packages.get(pkg.id);
        if (existing === void 0) {
          packages.set(pkg.id, pkg);
        } else {
          for (const [typeId, chunks] of pkg.types) {
            existing.types.set(typeId, [...existing.types.get(typeId) ?? [], ...chunks]);
          }
        }
      } else {
        anomalies.push(`skipped table chunk 0x${chunk.type.toString(16)} at ${chunk.start}`);
      }
    }
    if (strings === void 0) throw new BinaryFormatError("resources.arsc has no value string pool");
    return new _ResourceTable(buf, strings, packages, anomalies, options.checkDeadline);
  }
  /** Package ids present, in table order. */
  get packageIds() {
    return [...this.packages.keys()];
  }
  /** Every locale any resource is provided in, in the "fr" / "zh-CN" / "b+sr+Latn" form, sorted. */
  get locales() {
    return [...this.localeConfigs().keys()];
  }
  /** One config per locale (keyed and sorted by its name), to resolve values for that locale. */
  localeConfigs() {
    const found = /* @__PURE__ */ new Map();
    for (const pkg of this.packages.values()) {
      for (const chunks of pkg.types.values()) {
        for (const chunk of chunks) {
          this.step();
          if (chunk.config.locale !== "" && !found.has(chunk.config.locale)) found.set(chunk.config.locale, chunk.config);
        }
      }
    }
    return new Map([...found].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
  }
  /** Every configuration's value of resource `resId` (0xPPTTEEEE), in table order. */
  entries(resId) {
    const pkg = this.packageOf(resId);
    if (pkg === void 0) return [];
    const typeId = resId >>> 16 & 255;
    const entryIndex = resId & 65535;
    const out = [];
    for (const chunk of pkg.types.get(typeId) ?? []) {
      this.step();
      const entry = this.readEntry(chunk, entryIndex);
      if (entry !== void 0) out.push(entry);
    }
    return out;
  }
  /** "string/app_name" for diagnostics, or undefined when the id is unknown. */
  resourceName(resId) {
    const pkg = this.packageOf(resId);
    if (pkg === void 0) return void 0;
    const typeId = resId >>> 16 & 255;
    const typeName = pkg.typeNames.get(typeId - 1 - pkg.typeIdOffset);
    const entry = this.entries(resId)[0];
    const keyName = entry === void 0 ? void 0 : pkg.keyNames.get(entry.keyIndex);
    if (typeName === void 0 || keyName === void 0) return void 0;
    return `${typeName}/${keyName}`;
  }
  packageOf(resId) {
    const pkgId = resId >>> 24;
    const pkg = this.packages.get(pkgId);
    if (pkg !== void 0) return pkg;
    if (pkgId === 0 && this.packages.size === 1) return this.packages.values().next().value;
    return void 0;
  }
  entryOffset(chunk, index) {
    const { buf } = this;
    if ((chunk.flags & TYPE_FLAG_SPARSE) !== 0) {
      let lo = 0;
      let hi = chunk.entryCount - 1;
      while (lo <= hi) {
        const mid = lo + hi >>> 1;
        const at2 = chunk.offsetsStart + mid * 4;
        if (!fits(buf, at2, 4, chunk.end)) return void 0;
        const idx = buf.readUInt16LE(at2);
        if (idx === index) return buf.readUInt16LE(at2 + 2) * 4;
        if (idx < index) lo = mid + 1;
        else hi = mid - 1;
      }
      return void 0;
    }
    if (index >= chunk.entryCount) return void 0;
    if ((chunk.flags & TYPE_FLAG_OFFSET16) !== 0) {
      const at2 = chunk.offsetsStart + index * 2;
      if (!fits(buf, at2, 2, chunk.end)) return void 0;
      const v2 = buf.readUInt16LE(at2);
      return v2 === NO_ENTRY_16 ? void 0 : v2 * 4;
    }
    const at = chunk.offsetsStart + index * 4;
    if (!fits(buf, at, 4, chunk.end)) return void 0;
    const v = buf.readUInt32LE(at);
    return v === NO_ENTRY_32 ? void 0 : v;
  }
  readEntry(chunk, index) {
    const { buf } = this;
    const offset = this.entryOffset(chunk, index);
    if (offset === void 0) return void 0;
    const at = chunk.entriesStart + offset;
    if (!fits(buf, at, ENTRY_HEADER_SIZE, chunk.end)) return void 0;
    const first = buf.readUInt16LE(at);
    const flags = buf.readUInt16LE(at + 2);
    const third = buf.readUInt32LE(at + 4);
    if ((flags & ENTRY_FLAG_COMPACT) !== 0) {
      return { config: chunk.config, keyIndex: first, value: { type: flags >>> 8, data: third } };
    }
    if ((flags & ENTRY_FLAG_COMPLEX) !== 0) return { config: chunk.config, keyIndex: third, value: void 0 };
    const size = first;
    if (size < ENTRY_HEADER_SIZE || !fits(buf, at + size, RES_VALUE_SIZE, chunk.end)) return void 0;
    const valueAt = at + size;
    return {
      config: chunk.config,
      keyIndex: third,
      value: { type: buf[valueAt + 3], data: buf.readUInt32LE(valueAt + 4) }
    };
  }
};
function parsePackage(buf, chunk, anomalies, tick, onIssue) {
  if (chunk.headerSize < PACKAGE_MIN_HEADER || !fits(buf, chunk.start, PACKAGE_MIN_HEADER, chunk.end)) {
    anomalies.push(`package chunk at ${chunk.start} has a ${chunk.headerSize}-byte header; skipped`);
    return void 0;
  }
  const id = buf.readUInt32LE(chunk.start + 8);
  const nameBytes = buf.subarray(chunk.start + 12, chunk.start + 12 + 256);
  const nul = findUtf16Nul(nameBytes);
  const name = nameBytes.toString("utf16le", 0, nul);
  const typeStringsRel = buf.readUInt32LE(chunk.start + 268);
  const keyStringsRel = buf.readUInt32LE(chunk.start + 276);
  const typeIdOffset = chunk.headerSize >= 288 && fits(buf, chunk.start + 284, 4, chunk.end) ? buf.readUInt32LE(chunk.start + 284) : 0;
  const poolAt = (rel) => {
    if (rel < CHUNK_HEADER_SIZE || chunk.start + rel >= chunk.end) return void 0;
    const first = walkChunks(buf, chunk.start + rel, chunk.end).next();
    if (first.done || first.value.type !== ChunkType.STRING_POOL) return void 0;
    try {
      return StringPool.parse(buf, first.value);
    } catch (error) {
      if (error instanceof BinaryFormatError) return void 0;
      throw error;
    }
  };
  const types = /* @__PURE__ */ new Map();
  const pools = [];
  for (const child of walkChunks(buf, chunk.start + chunk.headerSize, chunk.end, onIssue)) {
    tick();
    if (child.type === ChunkType.TABLE_TYPE) {
      const type = parseTypeChunk(buf, child);
      if (type === void 0) {
        anomalies.push(`unreadable type chunk at ${child.start}`);
        continue;
      }
      const list = types.get(type.typeId);
      if (list === void 0) types.set(type.typeId, [type]);
      else list.push(type);
    } else if (child.type === ChunkType.STRING_POOL && pools.length < 2) {
      try {
        pools.push(StringPool.parse(buf, child));
      } catch (error) {
        if (!(error instanceof BinaryFormatError)) throw error;
      }
    }
  }
  return {
    id,
    name,
    // When the header's offsets are wrong, the first two pools in the package are, by
    // construction, the type and key names.
    typeNames: poolAt(typeStringsRel) ?? pools[0] ?? StringPool.empty,
    keyNames: poolAt(keyStringsRel) ?? pools[1] ?? StringPool.empty,
    typeIdOffset,
    types
  };
}
function parseTypeChunk(buf, chunk) {
  if (chunk.headerSize < TYPE_CONFIG_OFFSET + 4 || !fits(buf, chunk.start, TYPE_CONFIG_OFFSET, chunk.end)) {
    return void 0;
  }
  const typeId = buf[chunk.start + 8];
  const flags = buf[chunk.start + 9];
  const entryCount = buf.readUInt32LE(chunk.start + 12);
  const entriesStartRel = buf.readUInt32LE(chunk.start + 16);
  if (typeId === 0) return void 0;
  const config = parseResConfig(buf, chunk.start + TYPE_CONFIG_OFFSET, chunk.headerSize - TYPE_CONFIG_OFFSET);
  const offsetsStart = chunk.start + chunk.headerSize;
  const entriesStart = chunk.start + entriesStartRel;
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
    config
  };
}
function findUtf16Nul(bytes) {
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    if (bytes[i] === 0 && bytes[i + 1] === 0) return i;
  }
  return bytes.length - bytes.length % 2;
}

// ../inspect/src/apk/arsc/resolver.ts
var Resolver = class {
  constructor(table, maxDepth) {
    this.table = table;
    this.maxDepth = maxDepth;
  }
  /** `pool` is the string pool the starting value's STRING index points into (the XML's). */
  resolve(start, pool, locale) {
    let value = start;
    let strings = pool;
    let localized = false;
    const seen = /* @__PURE__ */ new Set();
    for (; ; ) {
      if (value.type === ValueType.STRING) {
        const text = strings.get(value.data);
        return text === void 0 ? { kind: "unresolved", reason: `string #${value.data} is missing from its pool` } : { kind: "string", value: text, localized };
      }
      if (value.type === ValueType.ATTRIBUTE || value.type === ValueType.DYNAMIC_ATTRIBUTE) {
        return { kind: "unresolved", reason: `theme attribute ?${formatResId(value.data)} needs a theme to resolve` };
      }
      if (!isReference(value)) {
        return value.type === ValueType.NULL ? { kind: "unresolved", reason: "value is empty" } : { kind: "value", value, localized };
      }
      const id = value.data >>> 0;
      if (id === 0) return { kind: "unresolved", reason: "reference is @null" };
      if (seen.has(id)) {
        return { kind: "unresolved", reason: `reference loop through ${this.describe(id)}` };
      }
      if (seen.size >= this.maxDepth) {
        return { kind: "unresolved", reason: `reference chain longer than ${this.maxDepth} at ${this.describe(id)}` };
      }
      seen.add(id);
      if (this.table === void 0) {
        return { kind: "unresolved", reason: `${this.describe(id)} cannot be resolved without resources.arsc` };
      }
      const entry = this.select(id, locale);
      if (entry === void 0) {
        const where = id >>> 24 === 1 ? " (an Android framework resource)" : "";
        return { kind: "unresolved", reason: `${this.describe(id)} is not in resources.arsc${where}` };
      }
      if (entry.value === void 0) {
        return { kind: "unresolved", reason: `${this.describe(id)} is a complex resource, not a value` };
      }
      if (entry.config.locale !== "") localized = true;
      value = entry.value;
      strings = this.table.strings;
    }
  }
  /**
   * The entry Android would pick for `locale` among the resource's configurations: the most
   * specific matching locale, else the default; among equals, a config with no other qualifier.
   */
  select(resId, locale) {
    if (this.table === void 0) return void 0;
    let best;
    let bestScore = -1;
    for (const entry of this.table.entries(resId)) {
      const match = localeScore(entry.config, locale);
      if (match < 0) continue;
      const score = match * 2 + (entry.config.plain ? 1 : 0);
      if (score > bestScore) {
        best = entry;
        bestScore = score;
      }
    }
    return best;
  }
  describe(resId) {
    const name = this.table?.resourceName(resId);
    return name === void 0 ? `@${formatResId(resId)}` : `@${name} (${formatResId(resId)})`;
  }
};
function localeScore(config, locale) {
  if (config.language === "") return 0;
  if (locale === void 0 || config.language !== locale.language) return -1;
  if (config.region !== "" && config.region !== locale.region) return -1;
  if (config.script !== "" && config.script !== locale.script) return -1;
  if (config.variant !== "" && config.variant !== locale.variant) return -1;
  return 1 + (config.region !== "" ? 4 : 0) + (config.script !== "" ? 2 : 0) + (config.variant !== "" ? 1 : 0);
}

// ../inspect/src/apk/axml/axml.ts
var NO_INDEX = 4294967295;
var NODE_HEADER_SIZE = 16;
var ATTR_EXT_SIZE = 20;
var ATTRIBUTE_SIZE = 20;
function parseAxml(buf, options = {}) {
  const anomalies = [];
  let damage;
  if (buf.length < CHUNK_HEADER_SIZE) throw new BinaryFormatError("binary XML is shorter than a chunk header");
  const headerType = buf.readUInt16LE(0);
  let headerSize = buf.readUInt16LE(2);
  let declaredSize = buf.readUInt32LE(4);
  if (headerType !== ChunkType.XML) anomalies.push(`XML header type is 0x${headerType.toString(16)}, not 0x3`);
  if (headerSize < CHUNK_HEADER_SIZE || headerSize >= buf.length) {
    anomalies.push(`XML header size ${headerSize} is impossible; assuming 8`);
    headerSize = CHUNK_HEADER_SIZE;
  }
  if (declaredSize > buf.length || declaredSize < headerSize) {
    damage = `it declares ${declaredSize} bytes but has ${buf.length}`;
    anomalies.push(damage);
    declaredSize = buf.length;
  } else if (declaredSize < buf.length) {
    anomalies.push(`${buf.length - declaredSize} trailing bytes after the XML document`);
  }
  let strings;
  let resourceMap = new Uint32Array(0);
  const elements = [];
  let depth = 0;
  let steps = 0;
  let rootClosed = false;
  const onIssue = (issue) => {
    const text = `at ${issue.offset}: ${issue.reason}`;
    anomalies.push(text);
    if (!rootClosed) damage ??= text;
  };
  for (const chunk of walkChunks(buf, headerSize, declaredSize, onIssue)) {
    if (++steps % 256 === 0) options.checkDeadline?.();
    switch (chunk.type) {
      case ChunkType.STRING_POOL:
        if (strings === void 0) {
          try {
            strings = StringPool.parse(buf, chunk);
          } catch (error) {
            if (!(error instanceof BinaryFormatError)) throw error;
            anomalies.push(`unreadable string pool at ${chunk.start}: ${error.message}`);
          }
        }
        break;
      case ChunkType.XML_RESOURCE_MAP:
        if (elements.length === 0) resourceMap = readResourceMap(buf, chunk);
        break;
      case ChunkType.XML_START_ELEMENT: {
        if (strings === void 0) throw new BinaryFormatError("element before any string pool");
        const element = readStartElement(buf, chunk, strings, resourceMap, depth + 1, anomalies);
        if (element !== void 0) {
          depth += 1;
          elements.push(element);
        }
        break;
      }
      case ChunkType.XML_END_ELEMENT:
        if (depth > 0) depth -= 1;
        if (depth === 0 && elements.length > 0) rootClosed = true;
        break;
      case ChunkType.XML_START_NAMESPACE:
      case ChunkType.XML_END_NAMESPACE:
      case ChunkType.XML_CDATA:
        break;
      default:
        anomalies.push(`skipped chunk 0x${chunk.type.toString(16)} at ${chunk.start}`);
    }
    if (rootClosed && options.stopAfterRoot) break;
  }
  if (strings === void 0) throw new BinaryFormatError("binary XML has no string pool");
  if (elements.length === 0) throw new BinaryFormatError("binary XML has no element");
  if (elements.length > 0 && !rootClosed) damage ??= "the root element is never closed";
  return { strings, elements, anomalies, damage };
}
function readResourceMap(buf, chunk) {
  const start = chunk.start + chunk.headerSize;
  const count = Math.max(0, Math.floor((chunk.end - start) / 4));
  const ids = new Uint32Array(count);
  for (let i = 0; i < count; i++) ids[i] = buf.readUInt32LE(start + i * 4);
  return ids;
}
function poolString(strings, index) {
  return index === NO_INDEX ? void 0 : strings.get(index);
}
function readStartElement(buf, chunk, strings, resourceMap, depth, anomalies) {
  const ext = chunk.start + chunk.headerSize;
  if (chunk.headerSize < NODE_HEADER_SIZE || !fits(buf, ext, ATTR_EXT_SIZE, chunk.end)) {
    anomalies.push(`start element at ${chunk.start} is too small; skipped`);
    return void 0;
  }
  const nsIndex = buf.readUInt32LE(ext);
  const nameIndex = buf.readUInt32LE(ext + 4);
  const attributeStart = buf.readUInt16LE(ext + 8);
  const attributeSize = buf.readUInt16LE(ext + 10);
  const attributeCount = buf.readUInt16LE(ext + 12);
  const attributes = [];
  for (let i = 0; i < attributeCount; i++) {
    const at = ext + attributeStart + i * attributeSize;
    if (!fits(buf, at, ATTRIBUTE_SIZE, chunk.end)) {
      anomalies.push(`element at ${chunk.start}: attribute ${i} lies outside the chunk; ignored`);
      break;
    }
    const attrNs = buf.readUInt32LE(at);
    const attrName = buf.readUInt32LE(at + 4);
    const raw = buf.readUInt32LE(at + 8);
    const type = buf[at + 15];
    const data = buf.readUInt32LE(at + 16);
    attributes.push({
      namespace: poolString(strings, attrNs),
      name: poolString(strings, attrName) ?? "",
      resourceId: attrName < resourceMap.length ? resourceMap[attrName] : 0,
      rawValue: poolString(strings, raw),
      value: { type, data }
    });
  }
  return {
    name: poolString(strings, nameIndex) ?? "",
    namespace: poolString(strings, nsIndex),
    depth,
    attributes
  };
}

// ../inspect/src/apk/manifest/manifest.ts
var AndroidAttr = {
  label: 16842753,
  icon: 16842754,
  name: 16842755,
  minSdkVersion: 16843276,
  versionCode: 16843291,
  versionName: 16843292,
  targetSdkVersion: 16843376,
  drawable: 16843161,
  isSplitRequired: 16844177
};
var PERMISSION_TAGS = /* @__PURE__ */ new Set(["uses-permission", "uses-permission-sdk-23", "uses-permission-sdk-m"]);
function readManifest(doc) {
  const root = doc.elements[0];
  const byId = (element, id) => element?.attributes.find((attr) => attr.resourceId === id)?.value;
  let usesSdk;
  let application;
  const permissions = [];
  for (const element of doc.elements) {
    if (element.depth !== 2 || element.namespace !== void 0) continue;
    if (element.name === "uses-sdk") {
      usesSdk = element;
    } else if (element.name === "application") {
      application ??= element;
    } else if (PERMISSION_TAGS.has(element.name)) {
      const value = byId(element, AndroidAttr.name);
      const name = value?.type === ValueType.STRING ? doc.strings.get(value.data) : void 0;
      if (name !== void 0 && name !== "" && !permissions.includes(name)) permissions.push(name);
    }
  }
  return {
    rootName: root.name,
    packageName: plainAttribute(root, "package", doc.strings),
    split: plainAttribute(root, "split", doc.strings),
    versionCode: byId(root, AndroidAttr.versionCode),
    versionName: byId(root, AndroidAttr.versionName),
    minSdkVersion: byId(usesSdk, AndroidAttr.minSdkVersion),
    targetSdkVersion: byId(usesSdk, AndroidAttr.targetSdkVersion),
    label: byId(application, AndroidAttr.label),
    icon: byId(application, AndroidAttr.icon),
    splitRequired: isTrue(byId(application, AndroidAttr.isSplitRequired)),
    permissions,
    strings: doc.strings
  };
}
function isTrue(value) {
  return value !== void 0 && value.type === ValueType.INT_BOOLEAN && value.data !== 0;
}
function plainAttribute(element, name, strings) {
  const attr = element.attributes.find(
    (a) => a.namespace === void 0 && a.name === name
  );
  if (attr === void 0) return void 0;
  if (attr.rawValue !== void 0) return attr.rawValue;
  if (attr.value.type === ValueType.STRING) return strings.get(attr.value.data);
  return coerceToString(attr.value);
}

// ../inspect/src/png/png.ts
var PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
function pngSize(buf) {
  const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return void 0;
  let p = 8;
  for (let i = 0; i < 2 && p + 8 <= bytes.length; i++) {
    const length = bytes.readUInt32BE(p);
    const type = bytes.toString("latin1", p + 4, p + 8);
    if (type === "IHDR") {
      if (length < 13 || p + 8 + 8 > bytes.length) return void 0;
      const width = bytes.readUInt32BE(p + 8);
      const height = bytes.readUInt32BE(p + 12);
      return width > 0 && height > 0 ? { width, height } : void 0;
    }
    if (type !== "CgBI") return void 0;
    p += 12 + length;
  }
  return void 0;
}
function isCgbi(buf) {
  return buf.length >= 16 && buf.subarray(0, 8).equals(PNG_SIGNATURE) && buf.toString("latin1", 12, 16) === "CgBI";
}
var PngError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "PngError";
  }
};
function readChunks(buf) {
  if (buf.length < 8 || !buf.subarray(0, 8).equals(PNG_SIGNATURE)) throw new PngError("Not a PNG");
  const chunks = [];
  let p = 8;
  while (p + 12 <= buf.length) {
    const length = buf.readUInt32BE(p);
    const end = p + 12 + length;
    if (end > buf.length) throw new PngError("PNG chunk runs past the end of the file");
    const type = buf.toString("latin1", p + 4, p + 8);
    chunks.push({ type, data: buf.subarray(p + 8, p + 8 + length) });
    p = end;
    if (type === "IEND") break;
  }
  return chunks;
}
function parseHeader(chunks) {
  const ihdr = chunks.find((c) => c.type === "IHDR");
  if (!ihdr || ihdr.data.length < 13) throw new PngError("PNG has no IHDR");
  const header = {
    width: ihdr.data.readUInt32BE(0),
    height: ihdr.data.readUInt32BE(4),
    bitDepth: ihdr.data[8],
    colorType: ihdr.data[9],
    interlace: ihdr.data[12]
  };
  if (header.width === 0 || header.height === 0) throw new PngError("PNG has an empty image");
  return header;
}
function writeChunks(chunks) {
  const parts = [PNG_SIGNATURE];
  for (const chunk of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(chunk.data.length, 0);
    head.write(chunk.type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(chunk.data, crc32(head.subarray(4, 8))), 0);
    parts.push(head, chunk.data, crc);
  }
  return Buffer.concat(parts);
}
function bytesPerPixel(header) {
  if (header.bitDepth !== 8 || header.interlace !== 0) {
    throw new PngError("Only 8-bit, non-interlaced PNGs are converted");
  }
  if (header.colorType === 6) return 4;
  if (header.colorType === 2) return 3;
  throw new PngError(`PNG colour type ${header.colorType} is not converted`);
}
function unfilter(data, header, bpp) {
  const stride = header.width * bpp;
  const out = Buffer.alloc(stride * header.height);
  if (data.length < (stride + 1) * header.height) throw new PngError("PNG image data is truncated");
  for (let y = 0; y < header.height; y++) {
    const filter = data[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const raw = data[src + x];
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[prev + x] : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
      let predictor;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = a + b >> 1;
          break;
        case 4: {
          const pa = Math.abs(b - c);
          const pb = Math.abs(a - c);
          const pc = Math.abs(a + b - 2 * c);
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new PngError(`Unknown PNG filter ${filter}`);
      }
      out[row + x] = raw + predictor & 255;
    }
  }
  return out;
}
function filterNone(pixels, header, bpp) {
  const stride = header.width * bpp;
  const out = Buffer.alloc((stride + 1) * header.height);
  for (let y = 0; y < header.height; y++) {
    pixels.copy(out, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  return out;
}
function cgbiToPng(buf, maxPixels = 2048 * 2048) {
  const chunks = readChunks(buf);
  const header = parseHeader(chunks);
  const bpp = bytesPerPixel(header);
  if (header.width * header.height > maxPixels) throw new PngError("PNG is too large to convert");
  const expected = (header.width * bpp + 1) * header.height;
  const idat = Buffer.concat(chunks.filter((c) => c.type === "IDAT").map((c) => c.data));
  let inflated;
  try {
    inflated = (0, zlib_compat_exports.inflateRawSync)(idat, { maxOutputLength: expected });
  } catch (error) {
    throw new PngError(`CgBI image data does not inflate: ${error.message}`);
  }
  const pixels = unfilter(inflated, header, bpp);
  for (let p = 0; p < pixels.length; p += bpp) {
    const blue = pixels[p];
    pixels[p] = pixels[p + 2];
    pixels[p + 2] = blue;
    if (bpp === 4) {
      const alpha = pixels[p + 3];
      if (alpha !== 0 && alpha !== 255) {
        for (let k = 0; k < 3; k++) pixels[p + k] = Math.min(255, Math.round(pixels[p + k] * 255 / alpha));
      }
    }
  }
  const out = [];
  let wroteData = false;
  for (const chunk of chunks) {
    if (chunk.type === "CgBI" || chunk.type === "iDOT") continue;
    if (chunk.type === "IDAT") {
      if (!wroteData) out.push({ type: "IDAT", data: (0, zlib_compat_exports.deflateSync)(filterNone(pixels, header, bpp)) });
      wroteData = true;
      continue;
    }
    out.push(chunk);
  }
  if (!out.some((c) => c.type === "IEND")) out.push({ type: "IEND", data: Buffer.alloc(0) });
  return writeChunks(out);
}

// ../inspect/src/apk/icon/app-icon.ts
var MAX_ICON_BYTES = 8 * 1024 * 1024;
var MAX_ADAPTIVE_XML_BYTES = 1024 * 1024;
var QUALIFIER_DENSITY = {
  ldpi: 120,
  mdpi: 160,
  tvdpi: 213,
  hdpi: 240,
  xhdpi: 320,
  xxhdpi: 480,
  xxxhdpi: 640,
  nodpi: 1,
  anydpi: 0
};
async function resolveAppIcon(iconValue, table, zip, ctx) {
  if (iconValue === void 0) return void 0;
  if (!isReference(iconValue) || table === void 0) {
    ctx.warnings.push("The application icon could not be resolved: it is not a resource reference in resources.arsc");
    return void 0;
  }
  const files = collectFiles(iconValue.data >>> 0, table, ctx);
  const xmlPaths = files.filter((f) => f.path.toLowerCase().endsWith(".xml")).map((f) => f.path);
  const attempts = [
    () => readBest(pngs(files, zip), zip, ctx),
    () => readBest(sameNamePngs(xmlPaths, zip), zip, ctx),
    () => foregroundIcon(xmlPaths, table, zip, ctx)
  ];
  for (const attempt of attempts) {
    const icon = await attempt();
    if (icon !== void 0) return icon;
  }
  ctx.warnings.push(
    xmlPaths.length > 0 ? `The application icon is an XML drawable (${xmlPaths[0]}) with no PNG variant; no icon extracted` : "The application icon has no PNG file in the package; no icon extracted"
  );
  return void 0;
}
function collectFiles(resId, table, ctx) {
  const out = [];
  const seen = /* @__PURE__ */ new Set();
  const visit = (id, depth) => {
    if (seen.has(id) || depth > ctx.limits.maxDepth) return;
    seen.add(id);
    for (const entry of table.entries(id)) {
      const value = entry.value;
      if (value === void 0) continue;
      if (value.type === ValueType.STRING) {
        const path = table.strings.get(value.data);
        if (path !== void 0) out.push(candidate(path, entry.config));
      } else if (isReference(value) && value.data !== 0) {
        visit(value.data >>> 0, depth + 1);
      }
    }
  };
  visit(resId, 0);
  return out;
}
function candidate(path, config) {
  return { path, rank: densityRank(config.density), plain: config.plain, localized: config.locale !== "" };
}
function densityRank(density) {
  if (density === DENSITY_DEFAULT) return 160;
  if (density === DENSITY_NONE) return 1;
  if (density === DENSITY_ANY) return 0;
  return density;
}
function pngs(files, zip) {
  return files.filter((f) => f.path.toLowerCase().endsWith(".png") && zip.entries.has(f.path));
}
function sameNamePngs(xmlPaths, zip) {
  const names = new Set(xmlPaths.map((p) => p.slice(p.lastIndexOf("/") + 1).replace(/\.xml$/i, "")));
  if (names.size === 0) return [];
  const out = [];
  for (const path of zip.entries.keys()) {
    const match = /^res\/((?:mipmap|drawable)(?:-[^/]*)?)\/([^/]+)\.png$/i.exec(path);
    if (match === null || !names.has(match[2])) continue;
    const qualifiers = match[1].split("-").slice(1);
    const density = qualifiers.map((q) => QUALIFIER_DENSITY[q]).find((d) => d !== void 0) ?? 160;
    const plain = qualifiers.every((q) => q in QUALIFIER_DENSITY || /^v\d+$/.test(q));
    out.push({ path, rank: density, plain, localized: false });
  }
  return out;
}
async function foregroundIcon(xmlPaths, table, zip, ctx) {
  for (const xmlPath of new Set(xmlPaths)) {
    if (!zip.entries.has(xmlPath)) continue;
    const bytes = await readOptional(zip, xmlPath, MAX_ADAPTIVE_XML_BYTES, ctx);
    if (bytes === void 0) continue;
    let foreground;
    try {
      const doc = parseAxml(bytes, { checkDeadline: () => ctx.checkDeadline() });
      foreground = doc.elements.find((e) => e.name === "foreground")?.attributes.find((a) => a.resourceId === AndroidAttr.drawable)?.value;
    } catch (error) {
      if (!(error instanceof BinaryFormatError)) throw error;
      continue;
    }
    if (foreground === void 0 || !isReference(foreground)) continue;
    const icon = await readBest(pngs(collectFiles(foreground.data >>> 0, table, ctx), zip), zip, ctx);
    if (icon !== void 0) {
      ctx.warnings.push(`The application icon is adaptive (${xmlPath}); using its foreground layer ${icon.path}`);
      return icon;
    }
  }
  return void 0;
}
async function readBest(candidates, zip, ctx) {
  const ordered = [...candidates].sort(
    (a, b) => Number(a.localized) - Number(b.localized) || b.rank - a.rank || Number(b.plain) - Number(a.plain)
  );
  const tried = /* @__PURE__ */ new Set();
  for (const c of ordered) {
    if (tried.has(c.path)) continue;
    tried.add(c.path);
    const data = await readOptional(zip, c.path, MAX_ICON_BYTES, ctx);
    if (data === void 0) continue;
    const size = pngSize(data);
    if (size === void 0) {
      ctx.warnings.push(`Icon candidate ${c.path} is not a PNG; skipped`);
      continue;
    }
    return { path: c.path, data, width: size.width, height: size.height };
  }
  return void 0;
}
async function readOptional(zip, path, maxBytes, ctx) {
  try {
    return await zip.read(path, { maxBytes: Math.min(maxBytes, ctx.limits.maxEntryBytes) });
  } catch (error) {
    if (error instanceof InspectError && (error.code === "too_large" || error.code === "zip_corrupt")) {
      ctx.warnings.push(`Icon file ${path} was skipped: ${error.message}`);
      return void 0;
    }
    throw error;
  }
}

// ../inspect/src/checksum/sha256.ts
var K = new Uint32Array([
  1116352408,
  1899447441,
  3049323471,
  3921009573,
  961987163,
  1508970993,
  2453635748,
  2870763221,
  3624381080,
  310598401,
  607225278,
  1426881987,
  1925078388,
  2162078206,
  2614888103,
  3248222580,
  3835390401,
  4022224774,
  264347078,
  604807628,
  770255983,
  1249150122,
  1555081692,
  1996064986,
  2554220882,
  2821834349,
  2952996808,
  3210313671,
  3336571891,
  3584528711,
  113926993,
  338241895,
  666307205,
  773529912,
  1294757372,
  1396182291,
  1695183700,
  1986661051,
  2177026350,
  2456956037,
  2730485921,
  2820302411,
  3259730800,
  3345764771,
  3516065817,
  3600352804,
  4094571909,
  275423344,
  430227734,
  506948616,
  659060556,
  883997877,
  958139571,
  1322822218,
  1537002063,
  1747873779,
  1955562222,
  2024104815,
  2227730452,
  2361852424,
  2428436474,
  2756734187,
  3204031479,
  3329325298
]);
var rotr = (x, n) => x >>> n | x << 32 - n;
function sha256Hex(data) {
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 128;
  const view = new DataView(padded.buffer);
  const bits = data.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 4294967296));
  view.setUint32(padded.length - 4, bits >>> 0);
  const h = new Uint32Array([1779033703, 3144134277, 1013904242, 2773480762, 1359893119, 2600822924, 528734635, 1541459225]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const a2 = w[t - 15];
      const b2 = w[t - 2];
      const s0 = rotr(a2, 7) ^ rotr(a2, 18) ^ a2 >>> 3;
      const s1 = rotr(b2, 17) ^ rotr(b2, 19) ^ b2 >>> 10;
      w[t] = w[t - 16] + s0 + w[t - 7] + s1 >>> 0;
    }
    let a = h[0];
    let b = h[1];
    let c = h[2];
    let d = h[3];
    let e = h[4];
    let f = h[5];
    let g = h[6];
    let hh = h[7];
    for (let t = 0; t < 64; t++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + (e & f ^ ~e & g) + K[t] + w[t] >>> 0;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + (a & b ^ a & c ^ b & c) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = d + t1 >>> 0;
      d = c;
      c = b;
      b = a;
      a = t1 + t2 >>> 0;
    }
    h[0] = h[0] + a >>> 0;
    h[1] = h[1] + b >>> 0;
    h[2] = h[2] + c >>> 0;
    h[3] = h[3] + d >>> 0;
    h[4] = h[4] + e >>> 0;
    h[5] = h[5] + f >>> 0;
    h[6] = h[6] + g >>> 0;
    h[7] = h[7] + hh >>> 0;
  }
  return Array.from(h, (word) => word.toString(16).padStart(8, "0")).join("");
}

// ../inspect/src/apk/signing/der.ts
var SigningFormatError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "SigningFormatError";
  }
};
var TAG = {
  INTEGER: 2,
  OID: 6,
  SEQUENCE: 48,
  SET: 49,
  /** [0] constructed: SignedData's `content` and `certificates`, a certificate's `version`. */
  CONTEXT_0: 160,
  /** [1] constructed: SignedData's `crls`. */
  CONTEXT_1: 161
};
var MAX_DEPTH = 32;
var CONSTRUCTED = 32;
function readTlv(buf, pos, limit, depth = 0) {
  const end = Math.min(limit, buf.length);
  if (pos + 2 > end) throw new SigningFormatError(`ASN.1 element at ${pos} is truncated`);
  const tag = buf[pos];
  if ((tag & 31) === 31) throw new SigningFormatError(`ASN.1 element at ${pos} has a multi-byte tag`);
  let p = pos + 1;
  const first = buf[p++];
  if (first === 128) {
    if ((tag & CONSTRUCTED) === 0) throw new SigningFormatError(`Primitive ASN.1 element at ${pos} has an indefinite length`);
    if (depth >= MAX_DEPTH) throw new SigningFormatError("ASN.1 nesting is too deep");
    const contentStart = p;
    for (; ; ) {
      if (p + 2 > end) throw new SigningFormatError(`Indefinite-length element at ${pos} has no end-of-contents`);
      if (buf[p] === 0 && buf[p + 1] === 0) return { tag, start: pos, contentStart, contentEnd: p, end: p + 2 };
      p = readTlv(buf, p, end, depth + 1).end;
    }
  }
  let length;
  if (first < 128) {
    length = first;
  } else {
    const octets = first & 127;
    if (octets > 4 || p + octets > end) throw new SigningFormatError(`ASN.1 length at ${pos} is invalid`);
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + buf[p++];
  }
  if (p + length > end) throw new SigningFormatError(`ASN.1 element at ${pos} runs past its container`);
  return { tag, start: pos, contentStart: p, contentEnd: p + length, end: p + length };
}
function children(buf, parent, max) {
  const out = [];
  let p = parent.contentStart;
  while (p < parent.contentEnd) {
    if (out.length >= max) break;
    const child = readTlv(buf, p, parent.contentEnd);
    out.push(child);
    p = child.end;
  }
  return out;
}
function expectTlv(buf, pos, limit, tag, what) {
  const tlv = readTlv(buf, pos, limit);
  if (tlv.tag !== tag) {
    throw new SigningFormatError(`${what}: expected ASN.1 tag 0x${tag.toString(16)}, found 0x${tlv.tag.toString(16)}`);
  }
  return tlv;
}
function encoded(buf, tlv) {
  return buf.subarray(tlv.start, tlv.end);
}

// ../inspect/src/apk/signing/jar-signature.ts
var SIGNED_DATA_OID = Buffer.from([42, 134, 72, 134, 247, 13, 1, 7, 2]);
var MAX_CERTIFICATES = 64;
var MAX_SIGNER_INFOS = 16;
function isJarSignatureBlock(name) {
  return /^META-INF\/[^/]+\.(RSA|DSA|EC)$/i.test(name);
}
function jarSignerCertificate(block) {
  const contentInfo = expectTlv(block, 0, block.length, TAG.SEQUENCE, "ContentInfo");
  const oid = expectTlv(block, contentInfo.contentStart, contentInfo.contentEnd, TAG.OID, "ContentInfo.contentType");
  if (!block.subarray(oid.contentStart, oid.contentEnd).equals(SIGNED_DATA_OID)) {
    throw new SigningFormatError("The signature block is not a PKCS#7 SignedData");
  }
  const wrapper = expectTlv(block, oid.end, contentInfo.contentEnd, TAG.CONTEXT_0, "ContentInfo.content");
  const signedData = expectTlv(block, wrapper.contentStart, wrapper.contentEnd, TAG.SEQUENCE, "SignedData");
  const fields = children(block, signedData, 8);
  const certificateSet = fields.find((f, i) => i >= 3 && f.tag === TAG.CONTEXT_0);
  if (certificateSet === void 0) throw new SigningFormatError("The SignedData holds no certificates");
  const certificates = children(block, certificateSet, MAX_CERTIFICATES).filter((c) => c.tag === TAG.SEQUENCE);
  const first = certificates[0];
  if (first === void 0) throw new SigningFormatError("The SignedData's certificate set is empty");
  const signerInfos = fields.at(-1);
  const signer = signerInfos?.tag === TAG.SET ? signerId(block, signerInfos) : void 0;
  const match = signer === void 0 ? void 0 : certificates.find((c) => issuedAs(block, c, signer));
  return encoded(block, match ?? first);
}
function signerId(buf, signerInfos) {
  const info = children(buf, signerInfos, MAX_SIGNER_INFOS)[0];
  if (info === void 0 || info.tag !== TAG.SEQUENCE) return void 0;
  const [, sid] = children(buf, info, 2);
  if (sid === void 0 || sid.tag !== TAG.SEQUENCE) return void 0;
  const [issuer, serial] = children(buf, sid, 2);
  if (issuer?.tag !== TAG.SEQUENCE || serial?.tag !== TAG.INTEGER) return void 0;
  return { issuer: encoded(buf, issuer), serial: buf.subarray(serial.contentStart, serial.contentEnd) };
}
function issuedAs(buf, certificate, id) {
  const tbs = readTlv(buf, certificate.contentStart, certificate.contentEnd);
  if (tbs.tag !== TAG.SEQUENCE) return false;
  const fields = children(buf, tbs, 4);
  const at = fields[0]?.tag === TAG.CONTEXT_0 ? 1 : 0;
  const serial = fields[at];
  const issuer = fields[at + 2];
  if (serial?.tag !== TAG.INTEGER || issuer === void 0) return false;
  return buf.subarray(serial.contentStart, serial.contentEnd).equals(id.serial) && encoded(buf, issuer).equals(id.issuer);
}

// ../inspect/src/apk/signing/signature-schemes.ts
var MAX_SIGNERS = 16;
var Fields = class {
  constructor(buf, what) {
    this.buf = buf;
    this.what = what;
  }
  p = 0;
  get done() {
    return this.p >= this.buf.length;
  }
  u32() {
    if (this.p + 4 > this.buf.length) throw new SigningFormatError(`${this.what} is truncated`);
    const value = this.buf.readUInt32LE(this.p);
    this.p += 4;
    return value;
  }
  lengthPrefixed() {
    const length = this.u32();
    if (length > this.buf.length - this.p) {
      throw new SigningFormatError(`${this.what} declares ${length} bytes where ${this.buf.length - this.p} remain`);
    }
    const value = this.buf.subarray(this.p, this.p + length);
    this.p += length;
    return value;
  }
};
function schemeSigners(value, scheme) {
  const signers = new Fields(new Fields(value, `${scheme} block`).lengthPrefixed(), `${scheme} signer list`);
  const out = [];
  while (!signers.done) {
    if (out.length >= MAX_SIGNERS) throw new SigningFormatError(`The ${scheme} block holds more than ${MAX_SIGNERS} signers`);
    const signer = new Fields(signers.lengthPrefixed(), `${scheme} signer`);
    const signedData = new Fields(signer.lengthPrefixed(), `${scheme} signed data`);
    const minSdk = scheme === "v3" ? signer.u32() : 0;
    signedData.lengthPrefixed();
    const certificates = new Fields(signedData.lengthPrefixed(), `${scheme} certificates`);
    if (certificates.done) throw new SigningFormatError(`A ${scheme} signer has no certificate`);
    out.push({ certificate: certificates.lengthPrefixed(), minSdk });
  }
  if (out.length === 0) throw new SigningFormatError(`The ${scheme} block has no signers`);
  return out;
}

// ../inspect/src/apk/signing/signing-block.ts
var SIGNING_BLOCK_MAGIC = Buffer.from([..."APK Sig Block 42"].map((c) => c.charCodeAt(0)));
var SIGNING_BLOCK_FOOTER_BYTES = 24;
var SCHEME_BLOCK_ID = { v2: 1896449818, v3: 4031998144, v31: 462663009 };
var MAX_PAIRS = 256;
function signingBlockLength(footer) {
  if (footer.length < SIGNING_BLOCK_FOOTER_BYTES) return void 0;
  const at = footer.length - SIGNING_BLOCK_FOOTER_BYTES;
  if (!footer.subarray(at + 8).equals(SIGNING_BLOCK_MAGIC)) return void 0;
  const size = footer.readBigUInt64LE(at);
  if (size < BigInt(SIGNING_BLOCK_FOOTER_BYTES)) throw new SigningFormatError(`APK Signing Block declares a size of ${size} bytes`);
  if (size > BigInt(Number.MAX_SAFE_INTEGER - 8)) throw new SigningFormatError("APK Signing Block size is out of range");
  return Number(size) + 8;
}
function signingBlockPairs(block) {
  const size = block.readBigUInt64LE(0);
  if (size !== BigInt(block.length - 8)) {
    throw new SigningFormatError("The APK Signing Block's two size fields disagree");
  }
  const pairs = /* @__PURE__ */ new Map();
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

// ../inspect/src/apk/signing/apk-signing.ts
var SIGNING_BLOCK_GUESS_BYTES = 16 * 1024;
var MAX_SIGNING_BLOCK_BYTES = 1024 * 1024;
var MAX_JAR_SIGNATURE_BYTES = 256 * 1024;
var MAX_JAR_SIGNERS = 10;
async function readApkSigning(zip, ctx) {
  const fromBlock = await fromSigningBlock(zip, ctx);
  if (fromBlock !== void 0) return fromBlock;
  return fromJarSignatures(zip, ctx);
}
async function fromSigningBlock(zip, ctx) {
  if (zip.readBeforeCentralDirectory === void 0) return void 0;
  try {
    const before = await zip.readBeforeCentralDirectory(SIGNING_BLOCK_FOOTER_BYTES, SIGNING_BLOCK_GUESS_BYTES);
    const length = signingBlockLength(before);
    if (length === void 0) return void 0;
    if (length > MAX_SIGNING_BLOCK_BYTES) {
      ctx.warnings.push(`The APK Signing Block is ${length} bytes, over the ${MAX_SIGNING_BLOCK_BYTES} read; its signers are not reported`);
      return { scheme: null, certificateSha256: [] };
    }
    const bytes = before.length >= length ? before : await zip.readBeforeCentralDirectory(length);
    if (bytes.length < length) throw new SigningFormatError("The APK Signing Block starts before the file does");
    ctx.checkDeadline();
    const pairs = signingBlockPairs(bytes.subarray(bytes.length - length));
    const v31 = pairs.get(SCHEME_BLOCK_ID.v31);
    if (v31 !== void 0) return { scheme: "v3.1", certificateSha256: [fingerprint(newest(schemeSigners(v31, "v3")))] };
    const v3 = pairs.get(SCHEME_BLOCK_ID.v3);
    if (v3 !== void 0) return { scheme: "v3", certificateSha256: [fingerprint(newest(schemeSigners(v3, "v3")))] };
    const v2 = pairs.get(SCHEME_BLOCK_ID.v2);
    if (v2 !== void 0) return { scheme: "v2", certificateSha256: schemeSigners(v2, "v2").map(fingerprint) };
    return void 0;
  } catch (error) {
    if (!(error instanceof SigningFormatError)) throw error;
    ctx.warnings.push(`The APK Signing Block is unreadable (${error.message}); its signers are not reported`);
    return { scheme: null, certificateSha256: [] };
  }
}
async function fromJarSignatures(zip, ctx) {
  const names = [...zip.entries.keys()].filter(isJarSignatureBlock).sort();
  if (names.length === 0) return { scheme: null, certificateSha256: [] };
  if (names.length > MAX_JAR_SIGNERS) {
    ctx.warnings.push(`The APK has ${names.length} v1 signature files; read the first ${MAX_JAR_SIGNERS}`);
  }
  const chosen = names.slice(0, MAX_JAR_SIGNERS);
  zip.prefetch?.(chosen);
  const certificateSha256 = [];
  for (const name of chosen) {
    try {
      const block = await zip.read(name, { maxBytes: MAX_JAR_SIGNATURE_BYTES });
      certificateSha256.push(fingerprint({ certificate: jarSignerCertificate(block) }));
    } catch (error) {
      const unreadable = error instanceof SigningFormatError || error instanceof InspectError && error.code !== "timeout" && error.code !== "read_failed";
      if (!unreadable) throw error;
      ctx.warnings.push(`The v1 signature file ${name} is unreadable (${messageOf(error)}); its signer is not reported`);
    }
  }
  return certificateSha256.length > 0 ? { scheme: "v1", certificateSha256 } : { scheme: null, certificateSha256: [] };
}
function newest(signers) {
  return signers.reduce((best, signer) => signer.minSdk >= best.minSdk ? signer : best);
}
function fingerprint(signer) {
  const { certificate } = signer;
  const tlv = readTlv(certificate, 0, certificate.length);
  if (tlv.tag !== TAG.SEQUENCE || tlv.end !== certificate.length) {
    throw new SigningFormatError("A signer's certificate is not one DER-encoded X.509 certificate");
  }
  return sha256Hex(certificate);
}

// ../inspect/src/apk/index.ts
var MANIFEST = "AndroidManifest.xml";
var RESOURCES = "resources.arsc";
var BUNDLE_MANIFEST = "base/manifest/AndroidManifest.xml";
var DEFAULT_MIN_SDK = "1";
async function inspectApk(zip, ctx) {
  rejectOtherShapes(zip);
  const signingRead = readApkSigning(zip, ctx);
  signingRead.catch(() => void 0);
  const manifestBytes = await zip.read(MANIFEST, { maxBytes: ctx.limits.maxEntryBytes });
  const doc = parseManifest(manifestBytes, ctx);
  if (doc.damage !== void 0) {
    ctx.warnings.push(
      `AndroidManifest.xml is damaged (${doc.damage}); Android would refuse it; values come from its readable part`
    );
  }
  const manifest = readManifest(doc);
  if (manifest.rootName !== "manifest") {
    throw new InspectError("manifest_unreadable", `AndroidManifest.xml's root element is <${manifest.rootName}>, not <manifest>`);
  }
  if (manifest.split !== void 0 && manifest.split !== "") {
    throw new InspectError(
      "unsupported_bundle",
      `This is a split APK (split="${manifest.split}"), one piece of an app; upload the base APK or a universal APK`
    );
  }
  if (manifest.splitRequired) {
    ctx.warnings.push(
      "The APK declares android:isSplitRequired: Android installs it only together with its split APKs (a Play base APK)"
    );
  }
  const bundleId = manifest.packageName ?? "";
  if (bundleId === "") {
    throw new InspectError("manifest_unreadable", "AndroidManifest.xml has no package name");
  }
  const table = await loadResources(zip, ctx);
  const resolver = new Resolver(table, ctx.limits.maxDepth);
  const { appName, labels } = resolveLabels(manifest, resolver, table, bundleId, ctx);
  const declaredMin = sdkVersion(manifest.minSdkVersion, manifest, resolver);
  const targetSdk = sdkVersion(manifest.targetSdkVersion, manifest, resolver) ?? declaredMin;
  const result = {
    platform: "android",
    appName,
    bundleId,
    version: versionName(manifest, resolver, ctx),
    buildNumber: versionCode(manifest, resolver, ctx),
    minOs: declaredMin ?? DEFAULT_MIN_SDK,
    permissions: manifest.permissions,
    labels,
    locales: table?.locales ?? [],
    warnings: ctx.warnings
  };
  if (targetSdk !== void 0) result.targetSdk = targetSdk;
  const icon = await resolveAppIcon(manifest.icon, table, zip, ctx);
  if (icon !== void 0) result.icon = icon;
  result.signing = await signingRead;
  return result;
}
function rejectOtherShapes(zip) {
  if (zip.entries.has(MANIFEST)) return;
  if (zip.entries.has(BUNDLE_MANIFEST)) {
    throw new InspectError(
      "unsupported_bundle",
      "This is an Android App Bundle (.aab); upload an APK built from it (e.g. a universal APK from bundletool)"
    );
  }
  const names = [...zip.entries.keys()];
  if (zip.entries.has("toc.pb") || names.length > 0 && names.every((n) => n.toLowerCase().endsWith(".apk"))) {
    throw new InspectError("unsupported_bundle", "This is a set of split APKs (.apks); upload a single universal APK");
  }
  throw new InspectError("not_an_apk", "The archive has no AndroidManifest.xml, so it is not an APK");
}
function parseManifest(bytes, ctx) {
  try {
    return parseAxml(bytes, { checkDeadline: () => ctx.checkDeadline(), stopAfterRoot: true });
  } catch (error) {
    if (error instanceof BinaryFormatError) {
      throw new InspectError(
        "manifest_unreadable",
        otherFormat(bytes) ?? `AndroidManifest.xml is not readable binary XML: ${error.message}`,
        { cause: error }
      );
    }
    throw error;
  }
}
function otherFormat(bytes) {
  const head = bytes.subarray(0, 64).toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (head.startsWith("<")) {
    return "AndroidManifest.xml is plain-text XML; an installable APK carries it compiled to binary XML";
  }
  if (bytes[0] === 10) {
    return "AndroidManifest.xml is in protobuf format (App Bundle module or aapt2 --proto-format), not an installable APK's binary XML";
  }
  return void 0;
}
async function loadResources(zip, ctx) {
  if (!zip.entries.has(RESOURCES)) return void 0;
  try {
    const bytes = await zip.read(RESOURCES, { maxBytes: ctx.limits.maxEntryBytes });
    return ResourceTable.parse(bytes, { checkDeadline: () => ctx.checkDeadline() });
  } catch (error) {
    if (error instanceof BinaryFormatError) {
      ctx.warnings.push(`resources.arsc is unreadable (${error.message}); resource references are not resolved`);
      return void 0;
    }
    if (error instanceof InspectError && error.code === "too_large") {
      ctx.warnings.push(`resources.arsc was not read: ${error.message}`);
      return void 0;
    }
    throw error;
  }
}
function resolveLabels(manifest, resolver, table, bundleId, ctx) {
  const labels = {};
  if (manifest.label === void 0) {
    ctx.warnings.push(`The manifest declares no application label; appName is the package name ${bundleId}`);
    return { appName: bundleId, labels };
  }
  const label = manifest.label;
  const base = asText(resolver.resolve(label, manifest.strings));
  if (base.text !== void 0 && base.text !== "") labels[""] = base.text;
  for (const [name, config] of table?.localeConfigs() ?? []) {
    ctx.checkDeadline();
    const localized = resolver.resolve(label, manifest.strings, config);
    if (localized.kind === "unresolved" || !localized.localized) continue;
    const text = asText(localized).text;
    if (text !== void 0 && text !== "") labels[name] = text;
  }
  const defaultLabel = labels[""];
  if (defaultLabel !== void 0) return { appName: defaultLabel, labels };
  const localeNames = Object.keys(labels).sort();
  const english = localeNames.find((l) => l === "en") ?? localeNames.find((l) => l.startsWith("en-") || l.startsWith("b+en+"));
  const chosen = english ?? localeNames[0];
  if (chosen !== void 0) {
    ctx.warnings.push(
      `The application label has no default (unlocalized) value; appName uses the "${chosen}" label`
    );
    return { appName: labels[chosen], labels };
  }
  ctx.warnings.push(
    `The application label could not be read (${base.reason ?? "it is empty"}); appName is the package name ${bundleId}`
  );
  return { appName: bundleId, labels };
}
function asText(resolution) {
  if (resolution.kind === "string") return { text: resolution.value };
  if (resolution.kind === "value") return { text: coerceToString(resolution.value) ?? "" };
  return { reason: resolution.reason };
}
function versionName(manifest, resolver, ctx) {
  if (manifest.versionName === void 0) {
    ctx.warnings.push("The manifest declares no versionName; version is empty");
    return "";
  }
  const text = asText(resolver.resolve(manifest.versionName, manifest.strings));
  if (text.text === void 0) {
    ctx.warnings.push(`versionName could not be read (${text.reason}); version is empty`);
    return "";
  }
  return text.text;
}
function versionCode(manifest, resolver, ctx) {
  if (manifest.versionCode === void 0) {
    ctx.warnings.push("The manifest declares no versionCode; Android treats it as 0");
    return "0";
  }
  const resolved = resolver.resolve(manifest.versionCode, manifest.strings);
  const value = integerOf(resolved);
  if (value === void 0) {
    ctx.warnings.push(
      `versionCode is not an integer (${resolved.kind === "unresolved" ? resolved.reason : describe(resolved)}); Android treats it as 0`
    );
    return "0";
  }
  return String(value);
}
function integerOf(resolution) {
  if (resolution.kind === "value") {
    return isIntType(resolution.value.type) ? resolution.value.data | 0 : void 0;
  }
  if (resolution.kind === "string") return parseJavaInt(resolution.value);
  return void 0;
}
function parseJavaInt(text) {
  const match = /^\s*(-?)(0x[0-9a-f]+|#[0-9a-f]+|0[0-7]*|[1-9][0-9]*)\s*$/i.exec(text);
  if (match === null) return void 0;
  const digits = match[2];
  let value;
  if (/^0x/i.test(digits)) value = parseInt(digits.slice(2), 16);
  else if (digits.startsWith("#")) value = parseInt(digits.slice(1), 16);
  else if (digits.length > 1 && digits.startsWith("0")) value = parseInt(digits, 8);
  else value = parseInt(digits, 10);
  return (match[1] === "-" ? -value : value) | 0;
}
function describe(resolution) {
  if (resolution.kind === "string") return `"${resolution.value}"`;
  if (resolution.kind === "value") return coerceToString(resolution.value) ?? `type 0x${resolution.value.type.toString(16)}`;
  return resolution.reason;
}
function sdkVersion(value, manifest, resolver) {
  if (value === void 0) return void 0;
  const resolved = resolver.resolve(value, manifest.strings);
  if (resolved.kind === "string") return resolved.value;
  if (resolved.kind === "value") {
    return isIntType(resolved.value.type) ? String(resolved.value.data | 0) : coerceToString(resolved.value);
  }
  return void 0;
}

// ../inspect/src/bound-metadata.ts
var metadataBounds = {
  /** appName and each localized label. */
  nameLength: 256,
  /** Java package names and CFBundleIdentifier; Apple's own limit is 255. */
  bundleIdLength: 255,
  /** version, buildNumber, minOs, targetSdk. */
  versionLength: 256,
  /** Android defines ~400 platform permissions; system apps declare ~300. */
  permissions: 500,
  permissionLength: 256,
  /** Entries of labels and of locales. */
  locales: 200,
  localeLength: 64,
  supportedPlatforms: 16,
  platformLength: 64,
  /** Provisioning profile name, team name, team id and UUID. */
  provisioningLength: 256,
  /** A profile's entitlement keys (Apple defines ~80). */
  entitlements: 200,
  entitlementLength: 256,
  /** Certificate fingerprints: APK signers (Android accepts 10) and a profile's developer certificates. */
  certificates: 100,
  iconPathLength: 512,
  warnings: 50,
  warningLength: 512,
  /**
   * The whole metadata as JSON (UTF-8). The per-field bounds alone allow far more when every
   * character takes 4–6 bytes (emoji, JSON-escaped controls); past this, lists are shortened.
   * The service stores metadata twice (upload and share records), each item under 400 KB.
   */
  totalJsonBytes: 64 * 1024
};
var WARNING_RESERVE_BYTES = 4 * 1024;
var LONE_SURROGATES = /[\ud800-\udfff]/gu;
function wellFormed(s) {
  return s.replace(LONE_SURROGATES, "\uFFFD");
}
function cut(s, max) {
  if (s.length <= max) return s;
  const codePoints = Array.from(s);
  return codePoints.length <= max ? s : codePoints.slice(0, max).join("");
}
var Bounder = class {
  notes = [];
  text(field, value, max) {
    const clean = wellFormed(value);
    const bounded = cut(clean, max);
    if (bounded !== clean) this.notes.push(`${field} was cut to ${max} characters (it had ${Array.from(clean).length})`);
    return bounded;
  }
  list(field, values, maxEntries, maxLength) {
    const kept = values.slice(0, maxEntries);
    if (values.length > maxEntries) this.notes.push(`${field}: kept the first ${maxEntries} of ${values.length}`);
    let cutCount = 0;
    const bounded = kept.map((v) => {
      const clean = wellFormed(v);
      const b = cut(clean, maxLength);
      if (b !== clean) cutCount++;
      return b;
    });
    if (cutCount > 0) this.notes.push(`${field}: ${cutCount} longer than ${maxLength} characters cut`);
    return bounded;
  }
  labels(labels) {
    const entries = Object.entries(labels);
    entries.sort(([a], [b]) => a === "" ? -1 : b === "" ? 1 : 0);
    if (entries.length > metadataBounds.locales) {
      this.notes.push(`labels: kept ${metadataBounds.locales} of ${entries.length} locales`);
    }
    let cutCount = 0;
    const out = /* @__PURE__ */ new Map();
    for (const [locale, label] of entries.slice(0, metadataBounds.locales)) {
      const key = cut(wellFormed(locale), metadataBounds.localeLength);
      const clean = wellFormed(label);
      const value = cut(clean, metadataBounds.nameLength);
      if (value !== clean || key !== locale) cutCount++;
      if (!out.has(key)) out.set(key, value);
    }
    if (cutCount > 0) {
      this.notes.push(
        `labels: ${cutCount} cut (labels to ${metadataBounds.nameLength} characters, locales to ${metadataBounds.localeLength})`
      );
    }
    return Object.fromEntries(out);
  }
  provisioning(p) {
    const max = metadataBounds.provisioningLength;
    const out = {
      name: this.text("provisioning.name", p.name, max),
      provisionedDevices: p.provisionedDevices,
      kind: p.kind,
      developerCertificateSha256: this.fingerprints("provisioning.developerCertificateSha256", p.developerCertificateSha256)
    };
    if (p.teamId !== void 0) out.teamId = this.text("provisioning.teamId", p.teamId, max);
    if (p.teamName !== void 0) out.teamName = this.text("provisioning.teamName", p.teamName, max);
    if (p.expiresAt !== void 0) out.expiresAt = this.text("provisioning.expiresAt", p.expiresAt, metadataBounds.versionLength);
    if (p.uuid !== void 0) out.uuid = this.text("provisioning.uuid", p.uuid, max);
    if (p.entitlements !== void 0) {
      out.entitlements = this.list("provisioning.entitlements", p.entitlements, metadataBounds.entitlements, metadataBounds.entitlementLength);
    }
    return out;
  }
  signing(s) {
    return { scheme: s.scheme, certificateSha256: this.fingerprints("signing.certificateSha256", s.certificateSha256) };
  }
  /** Hex digests the extractor computed: only their number needs a bound. */
  fingerprints(field, values) {
    if (values.length > metadataBounds.certificates) {
      this.notes.push(`${field}: kept the first ${metadataBounds.certificates} of ${values.length}`);
    }
    return values.slice(0, metadataBounds.certificates);
  }
};
function jsonBytes(result) {
  const { icon, ...rest } = result;
  return Buffer.byteLength(JSON.stringify(icon ? { ...rest, icon: { path: icon.path, width: icon.width, height: icon.height } } : rest));
}
function listLength(result, field) {
  const value = result[field];
  if (value === void 0) return 0;
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}
function shorten(result, field, keep) {
  if (field === "labels") {
    result.labels = Object.fromEntries(Object.entries(result.labels ?? {}).slice(0, keep));
  } else {
    result[field] = (result[field] ?? []).slice(0, keep);
  }
}
function fitBudget(result, notes) {
  const budget = metadataBounds.totalJsonBytes - WARNING_RESERVE_BYTES;
  const before = {};
  const fields = ["permissions", "labels", "locales", "supportedPlatforms"];
  while (jsonBytes(result) > budget) {
    const largest = fields.filter((f) => listLength(result, f) > 1).sort((a, b) => JSON.stringify(result[b]).length - JSON.stringify(result[a]).length)[0];
    if (largest !== void 0) {
      before[largest] ??= listLength(result, largest);
      shorten(result, largest, Math.floor(listLength(result, largest) / 2));
    } else if (result.warnings.length > 1) {
      before.warnings ??= result.warnings.length;
      result.warnings = result.warnings.slice(0, Math.floor(result.warnings.length / 2));
    } else {
      break;
    }
  }
  for (const [field, count] of Object.entries(before)) {
    const kept = field === "warnings" ? result.warnings.length : listLength(result, field);
    notes.push(`${field}: kept ${kept} of ${count} to keep the metadata under ${metadataBounds.totalJsonBytes / 1024} KiB`);
  }
}
function boundMetadata(result) {
  const b = new Bounder();
  const out = {
    platform: result.platform,
    appName: b.text("appName", result.appName, metadataBounds.nameLength),
    bundleId: b.text("bundleId", result.bundleId, metadataBounds.bundleIdLength),
    version: b.text("version", result.version, metadataBounds.versionLength),
    buildNumber: b.text("buildNumber", result.buildNumber, metadataBounds.versionLength),
    minOs: b.text("minOs", result.minOs, metadataBounds.versionLength),
    warnings: []
  };
  if (result.targetSdk !== void 0) out.targetSdk = b.text("targetSdk", result.targetSdk, metadataBounds.versionLength);
  if (result.permissions !== void 0) {
    out.permissions = b.list("permissions", result.permissions, metadataBounds.permissions, metadataBounds.permissionLength);
  }
  if (result.labels !== void 0) out.labels = b.labels(result.labels);
  if (result.locales !== void 0) {
    out.locales = b.list("locales", result.locales, metadataBounds.locales, metadataBounds.localeLength);
  }
  if (result.supportedPlatforms !== void 0) {
    out.supportedPlatforms = b.list(
      "supportedPlatforms",
      result.supportedPlatforms,
      metadataBounds.supportedPlatforms,
      metadataBounds.platformLength
    );
  }
  if (result.provisioning !== void 0) out.provisioning = b.provisioning(result.provisioning);
  if (result.signing !== void 0) out.signing = b.signing(result.signing);
  if (result.icon !== void 0) {
    out.icon = { ...result.icon, path: b.text("icon.path", result.icon.path, metadataBounds.iconPathLength) };
  }
  const room = metadataBounds.warnings - b.notes.length;
  out.warnings = result.warnings.slice(0, Math.max(0, room)).map((w) => cut(wellFormed(w), metadataBounds.warningLength));
  if (result.warnings.length > room) b.notes.push(`warnings: kept the first ${Math.max(0, room)} of ${result.warnings.length}`);
  const notes = b.notes;
  fitBudget(out, notes);
  if (result.provisionedUdids !== void 0) out.provisionedUdids = result.provisionedUdids;
  out.warnings.push(...notes.slice(0, metadataBounds.warnings).map((n) => cut(n, metadataBounds.warningLength)));
  return out;
}

// ../inspect/src/inspect-context.ts
function createInspectContext(limits, now = Date.now) {
  const merged = { ...defaultLimits, ...stripUndefined(limits ?? {}) };
  const deadline = now() + merged.timeBudgetMs;
  return {
    limits: merged,
    deadline,
    warnings: [],
    checkDeadline() {
      if (now() > deadline) throw timeoutError(merged);
    }
  };
}
function timeoutError(limits) {
  return new InspectError("timeout", `Package inspection exceeded its time budget of ${limits.timeBudgetMs} ms`);
}
function stripUndefined(limits) {
  return Object.fromEntries(
    Object.entries(limits).filter(([, value]) => value !== void 0)
  );
}

// ../inspect/src/ipa/ipa-bundle.ts
var APP_INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;
function findAppInfoPlists(names) {
  const found = [];
  for (const name of names) if (APP_INFO_PLIST.test(name)) found.push(name);
  return found;
}
function bundlePrefix(infoPlistPath) {
  return infoPlistPath.slice(0, infoPlistPath.length - "Info.plist".length);
}
function bundleRootFiles(names, prefix) {
  const files = [];
  for (const name of names) {
    if (name.startsWith(prefix) && name.length > prefix.length && !name.includes("/", prefix.length)) {
      files.push(name);
    }
  }
  return files;
}
var LEGACY_LPROJ = {
  English: "en",
  French: "fr",
  German: "de",
  Japanese: "ja",
  Spanish: "es",
  Italian: "it",
  Dutch: "nl"
};
function lprojLocale(folder) {
  if (folder === "Base" || folder === "") return void 0;
  return LEGACY_LPROJ[folder] ?? folder.replace(/_/g, "-");
}
function lprojFolders(names, prefix) {
  const folders = /* @__PURE__ */ new Set();
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const slash = name.indexOf("/", prefix.length);
    if (slash < 0) continue;
    const folder = name.slice(prefix.length, slash);
    if (folder.endsWith(".lproj")) folders.add(folder.slice(0, -".lproj".length));
  }
  return folders;
}

// ../inspect/src/ipa/map-limit.ts
async function mapLimit(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ../inspect/src/ipa/optional.ts
async function optional(ctx, what, step) {
  try {
    return await step();
  } catch (error) {
    if (error instanceof InspectError && (error.code === "timeout" || error.code === "read_failed")) throw error;
    ctx.warnings.push(`Skipped ${what}: ${messageOf(error)}`);
    return void 0;
  }
}

// ../inspect/src/ipa/plist-value.ts
function isDict(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date) && !Buffer.isBuffer(value);
}
function plistString(value) {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return void 0;
}
function plistStrings(value) {
  return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
}

// ../inspect/src/ipa/ipa-icon.ts
var MAX_ICON_BYTES2 = 4 * 1024 * 1024;
var MAX_CANDIDATES = 16;
function declaredIconNames(info) {
  const names = [];
  for (const key of ["CFBundleIcons", "CFBundleIcons~ipad"]) {
    const icons = info[key];
    const primary = isDict(icons) ? icons.CFBundlePrimaryIcon : void 0;
    if (isDict(primary)) names.push(...plistStrings(primary.CFBundleIconFiles));
  }
  names.push(...plistStrings(info.CFBundleIconFiles));
  const single = plistString(info.CFBundleIconFile);
  if (single) names.push(single);
  return [...new Set(names)];
}
function iconCandidates(declared, rootFiles, prefix) {
  const patterns = declared.map((name) => {
    const base = name.replace(/\.png$/i, "");
    return new RegExp(`^${escapeRegExp(base)}(@[123]x)?(~ipad|~iphone)?\\.png$`, "i");
  });
  if (patterns.length === 0) patterns.push(/^(AppIcon|Icon)[^/]*\.png$/i);
  return rootFiles.filter((path) => {
    const file = path.slice(prefix.length);
    return patterns.some((pattern) => pattern.test(file));
  });
}
function likelyIconFiles(zip, prefix) {
  return bundleRootFiles(zip.entries.keys(), prefix).filter((path) => /^AppIcon[^/]*\.png$/i.test(path.slice(prefix.length))).filter((path) => (zip.entries.get(path)?.uncompressedSize ?? Infinity) <= MAX_ICON_BYTES2).slice(0, MAX_CANDIDATES);
}
async function findIpaIcon(zip, ctx, info, prefix) {
  const rootFiles = bundleRootFiles(zip.entries.keys(), prefix);
  const candidates = iconCandidates(declaredIconNames(info), rootFiles, prefix).filter((path) => (zip.entries.get(path)?.uncompressedSize ?? Infinity) <= MAX_ICON_BYTES2).slice(0, MAX_CANDIDATES);
  const read = await mapLimit(
    candidates,
    4,
    (path) => optional(ctx, `icon ${path}`, async () => {
      const data = await zip.read(path, { maxBytes: MAX_ICON_BYTES2 });
      const size = pngSize(data);
      return size ? { path, data, ...size } : void 0;
    })
  );
  const icons = read.filter((icon) => icon !== void 0);
  icons.sort((a, b) => b.width * b.height - a.width * a.height);
  for (const icon of icons) {
    ctx.checkDeadline();
    if (!isCgbi(icon.data)) return icon;
    try {
      const data = cgbiToPng(icon.data);
      return { ...icon, data };
    } catch (error) {
      ctx.warnings.push(`Icon ${icon.path} could not be converted from Apple's CgBI PNG: ${error.message}`);
    }
  }
  return void 0;
}
function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ../inspect/src/ipa/binary-plist.ts
function int64At(buf, offset) {
  return new DataView(buf.buffer, buf.byteOffset, buf.byteLength).getBigInt64(offset);
}
var BinaryPlistError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "BinaryPlistError";
  }
};
var MAGIC = "bplist00";
var TRAILER_SIZE = 32;
var CF_EPOCH_SECONDS = 978307200;
function isBinaryPlist(buf) {
  return buf.length >= 8 && buf.toString("latin1", 0, 8) === MAGIC;
}
function parseBinaryPlist(buf, options = {}) {
  const maxDepth = options.maxDepth ?? 32;
  const maxObjects = options.maxObjects ?? 2e5;
  if (!isBinaryPlist(buf)) throw new BinaryPlistError("Not a binary plist");
  if (buf.length < MAGIC.length + TRAILER_SIZE + 1) throw new BinaryPlistError("Binary plist is truncated");
  const trailer = buf.length - TRAILER_SIZE;
  const offsetSize = buf[trailer + 6];
  const refSize = buf[trailer + 7];
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
  const offsetOf = (ref) => {
    if (ref >= objectCount) throw new BinaryPlistError(`Object reference ${ref} out of range`);
    const offset = readBig(buf, tableOffset + ref * offsetSize, offsetSize);
    if (offset < MAGIC.length || offset >= tableOffset) throw new BinaryPlistError("Object offset out of bounds");
    return offset;
  };
  const lengthAt = (offset) => {
    const info = buf[offset] & 15;
    if (info !== 15) return { length: info, start: offset + 1 };
    const marker = buf[offset + 1];
    if (marker === void 0 || marker >> 4 !== 1) throw new BinaryPlistError("Bad length marker");
    const size = 1 << (marker & 15);
    if (size > 8) throw new BinaryPlistError("Length does not fit");
    return { length: readBig(buf, offset + 2, size), start: offset + 2 + size };
  };
  const within = (start, byteLength) => {
    if (byteLength < 0 || start + byteLength > tableOffset) {
      throw new BinaryPlistError("Object runs past the object area");
    }
  };
  const refsAt = (start, count) => {
    within(start, count * refSize);
    const refs = [];
    for (let i = 0; i < count; i++) refs.push(readBig(buf, start + i * refSize, refSize));
    return refs;
  };
  const decode = (ref, depth) => {
    decoded += 1;
    if (decoded > maxObjects) throw new BinaryPlistError(`Binary plist expands past ${maxObjects} objects`);
    const offset = offsetOf(ref);
    const marker = buf[offset];
    const type = marker >> 4;
    const info = marker & 15;
    switch (type) {
      case 0:
        if (info === 8) return false;
        if (info === 9) return true;
        return null;
      case 1: {
        const size = 1 << info;
        within(offset + 1, size);
        if (size === 16) return int64At(buf, offset + 9);
        if (size === 8) {
          const value = int64At(buf, offset + 1);
          return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
        }
        if (size > 8) throw new BinaryPlistError("Integer too wide");
        return readBig(buf, offset + 1, size);
      }
      case 2: {
        const size = 1 << info;
        within(offset + 1, size);
        if (size === 4) return buf.readFloatBE(offset + 1);
        if (size === 8) return buf.readDoubleBE(offset + 1);
        throw new BinaryPlistError("Unsupported real size");
      }
      case 3:
        within(offset + 1, 8);
        return new Date((buf.readDoubleBE(offset + 1) + CF_EPOCH_SECONDS) * 1e3);
      case 4: {
        const { length, start } = lengthAt(offset);
        within(start, length);
        return Buffer.from(buf.subarray(start, start + length));
      }
      case 5: {
        const { length, start } = lengthAt(offset);
        within(start, length);
        return buf.toString("latin1", start, start + length);
      }
      case 6: {
        const { length, start } = lengthAt(offset);
        within(start, length * 2);
        return Buffer.from(buf.subarray(start, start + length * 2)).swap16().toString("utf16le");
      }
      case 7: {
        const { length, start } = lengthAt(offset);
        within(start, length);
        return buf.toString("utf8", start, start + length);
      }
      case 8:
        within(offset + 1, info + 1);
        return info + 1 <= 6 ? buf.readUIntBE(offset + 1, info + 1) : null;
      case 10:
      case 11:
      case 12: {
        const { length, start } = lengthAt(offset);
        const refs = refsAt(start, length);
        if (depth >= maxDepth) return null;
        return refs.map((child) => decode(child, depth + 1));
      }
      case 13: {
        const { length, start } = lengthAt(offset);
        const keys = refsAt(start, length);
        const values = refsAt(start + length * refSize, length);
        if (depth >= maxDepth) return null;
        const dict = /* @__PURE__ */ Object.create(null);
        for (let i = 0; i < length; i++) {
          const key = decode(keys[i], depth + 1);
          if (typeof key !== "string") throw new BinaryPlistError("Dictionary key is not a string");
          dict[key] = decode(values[i], depth + 1);
        }
        return dict;
      }
      default:
        throw new BinaryPlistError(`Unknown object type 0x${type.toString(16)}`);
    }
  };
  return decode(topObject, 0);
}
function readBig(buf, at, size) {
  if (at < 0 || at + size > buf.length) throw new BinaryPlistError("Read past the end of the plist");
  let value = 0;
  for (let i = 0; i < size; i++) {
    value = value * 256 + buf[at + i];
    if (value > Number.MAX_SAFE_INTEGER) throw new BinaryPlistError("Integer out of range");
  }
  return value;
}

// ../inspect/src/ipa/xml-plist.ts
var PlistParseError = class extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "PlistParseError";
  }
};
var DEFAULT_MAX_DEPTH = 64;
var MAX_REFERENCE_LENGTH = 12;
var LT = 60;
var GT = 62;
var SLASH = 47;
var AMP = 38;
var SEMI = 59;
var CR = 13;
var LF = 10;
var EQUALS = 61;
var QUOTE = 34;
var APOS = 39;
var OPEN_BRACKET = 91;
var CLOSE_BRACKET = 93;
var PREDEFINED = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
var SCALARS = /* @__PURE__ */ new Set(["string", "key", "integer", "real", "date", "data", "true", "false", "null"]);
function parseXmlPlist(text, options = {}) {
  return new XmlPlistScanner(text, options.maxDepth ?? DEFAULT_MAX_DEPTH).document();
}
function isSpace(c) {
  return c === 32 || c === LF || c === 9 || c === CR;
}
function isNameChar(c) {
  return c > 32 && c !== LT && c !== GT && c !== SLASH && c !== EQUALS && c !== QUOTE && c !== APOS && c !== AMP && c !== 33 && // !
  c !== 63 && // ?
  c !== 127;
}
function isAllSpace(s) {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}
function normalizeLineEnds(s) {
  return s.includes("\r") ? s.replace(/\r\n?/g, "\n") : s;
}
var XmlPlistScanner = class {
  constructor(s, maxDepth) {
    this.s = s;
    this.maxDepth = maxDepth;
  }
  pos = 0;
  document() {
    const { s } = this;
    if (s.charCodeAt(0) === 65279) this.pos = 1;
    let doctype = false;
    for (; ; ) {
      this.skipSpace();
      if (this.pos >= s.length) this.fail("no <plist> element");
      if (this.at("<?")) this.skipProcessingInstruction();
      else if (this.at("<!--")) this.skipComment();
      else if (this.at("<!DOCTYPE") && !doctype) {
        doctype = true;
        this.skipDoctype();
      } else if (s.charCodeAt(this.pos) === LT) break;
      else this.fail("text before the root element");
    }
    const rootStart = this.pos;
    const root = this.startTag();
    if (root.name !== "plist") this.fail(`root element is <${root.name}>, not <plist>`, rootStart);
    const value = root.selfClosing ? [] : this.content();
    for (; ; ) {
      this.skipSpace();
      if (this.pos >= s.length) return value;
      if (this.at("<?")) this.skipProcessingInstruction();
      else if (this.at("<!--")) this.skipComment();
      else this.fail("content after </plist>");
    }
  }
  /** Everything inside <plist>, up to and including </plist>. */
  content() {
    const stack = [{ name: "plist", items: [] }];
    for (; ; ) {
      const frame = stack[stack.length - 1];
      this.skipBetweenValues(frame.name);
      if (this.at("</")) {
        this.endTag(frame.name);
        stack.pop();
        const value = close(frame);
        const parent = stack[stack.length - 1];
        if (!parent) return value;
        add(parent, value);
        continue;
      }
      const tagStart = this.pos;
      const tag = this.startTag();
      if (frame.name === "dict") {
        if (frame.key === void 0) {
          if (tag.name !== "key") this.fail(`<${tag.name}> where <dict> expects a <key>`, tagStart);
          frame.key = tag.selfClosing ? "" : this.characterData("key");
          continue;
        }
        if (tag.name === "key") this.fail(`<key> where <dict> expects the value of "${frame.key}"`, tagStart);
      }
      if (tag.name === "dict" || tag.name === "array") {
        if (stack.length > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth}`, tagStart);
        const container = tag.name === "dict" ? { name: "dict", dict: newDict(), key: void 0 } : { name: "array", items: [] };
        if (tag.selfClosing) add(frame, close(container));
        else stack.push(container);
      } else if (SCALARS.has(tag.name)) {
        add(frame, this.scalar(tag.name, tag.selfClosing ? "" : this.characterData(tag.name), tagStart));
      } else {
        this.fail(`unknown element <${tag.name}>`, tagStart);
      }
    }
  }
  scalar(name, text, at) {
    switch (name) {
      case "true":
        return true;
      case "false":
        return false;
      case "null":
        return null;
      case "data":
        return Buffer.from(text.replace(/\s+/g, ""), "base64");
      case "integer":
      case "real":
      case "date":
        if (text === "") this.fail(`empty <${name}>`, at);
        if (name === "integer") return parseInt(text, 10);
        if (name === "real") return parseFloat(text);
        return new Date(text);
      default:
        return text;
    }
  }
  /** Whitespace, comments and processing instructions between the children of a container. */
  skipBetweenValues(container) {
    const { s } = this;
    for (; ; ) {
      if (this.pos >= s.length) this.fail(`unterminated <${container}>`);
      const c = s.charCodeAt(this.pos);
      if (isSpace(c)) this.pos++;
      else if (c !== LT) this.fail(`text inside <${container}>`);
      else if (this.at("<!--")) this.skipComment();
      else if (this.at("<?")) this.skipProcessingInstruction();
      else if (this.at("<![CDATA[")) {
        const start = this.pos;
        if (!isAllSpace(this.cdata())) this.fail(`text inside <${container}>`, start);
      } else return;
    }
  }
  /** Text and CDATA of a scalar element, entities decoded, up to and including its end tag. */
  characterData(name) {
    const { s } = this;
    let out = "";
    for (; ; ) {
      const lt = s.indexOf("<", this.pos);
      if (lt < 0) this.fail(`unterminated <${name}>`);
      if (lt > this.pos) out += this.decodeText(this.pos, lt);
      this.pos = lt;
      if (this.at("</")) {
        this.endTag(name);
        return out;
      }
      if (this.at("<![CDATA[")) out += normalizeLineEnds(this.cdata());
      else if (this.at("<!--")) this.skipComment();
      else if (this.at("<?")) this.skipProcessingInstruction();
      else this.fail(`element or "<" inside <${name}>`);
    }
  }
  /** s[start, end) with references replaced and line ends normalized. */
  decodeText(start, end) {
    const { s } = this;
    let out = "";
    let run = start;
    let i = start;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c === AMP) {
        out += s.slice(run, i);
        let semi = i + 1;
        while (semi < end && semi - i <= MAX_REFERENCE_LENGTH && s.charCodeAt(semi) !== SEMI) semi++;
        if (s.charCodeAt(semi) !== SEMI || semi >= end) this.fail('"&" that starts no reference', i);
        out += this.reference(s.slice(i + 1, semi), i);
        i = semi + 1;
        run = i;
      } else if (c === CR) {
        out += s.slice(run, i) + "\n";
        i += i + 1 < end && s.charCodeAt(i + 1) === LF ? 2 : 1;
        run = i;
      } else {
        i++;
      }
    }
    return out + s.slice(run, end);
  }
  reference(name, at) {
    const predefined = PREDEFINED[name];
    if (predefined !== void 0) return predefined;
    let code = NaN;
    if (/^#x[0-9a-fA-F]+$/.test(name)) code = parseInt(name.slice(2), 16);
    else if (/^#[0-9]+$/.test(name)) code = parseInt(name.slice(1), 10);
    else this.fail(`unknown entity &${name};`, at);
    if (code === 0 || code >= 55296 && code <= 57343 || code > 1114111) {
      this.fail(`invalid character reference &${name};`, at);
    }
    return String.fromCodePoint(code);
  }
  /** `<name attr="…" …>` or `<name …/>`; attributes are checked for syntax and ignored. */
  startTag() {
    const { s } = this;
    const start = this.pos;
    this.pos++;
    const name = this.name();
    for (; ; ) {
      const spaced = this.skipSpace();
      if (this.pos >= s.length) this.fail(`unterminated <${name}> tag`, start);
      const c = s.charCodeAt(this.pos);
      if (c === GT) {
        this.pos++;
        return { name, selfClosing: false };
      }
      if (c === SLASH) {
        if (s.charCodeAt(this.pos + 1) !== GT) this.fail(`malformed <${name}> tag`, start);
        this.pos += 2;
        return { name, selfClosing: true };
      }
      if (!spaced) this.fail(`malformed <${name}> tag`, start);
      this.name();
      this.skipSpace();
      if (s.charCodeAt(this.pos) !== EQUALS) this.fail(`malformed attribute in <${name}>`, start);
      this.pos++;
      this.skipSpace();
      const quote = s.charCodeAt(this.pos);
      if (quote !== QUOTE && quote !== APOS) this.fail(`unquoted attribute in <${name}>`, start);
      const close2 = s.indexOf(quote === QUOTE ? '"' : "'", this.pos + 1);
      if (close2 < 0) this.fail(`unterminated <${name}> tag`, start);
      if (s.slice(this.pos + 1, close2).includes("<")) this.fail(`"<" in an attribute of <${name}>`, start);
      this.pos = close2 + 1;
    }
  }
  endTag(expected) {
    const start = this.pos;
    this.pos += 2;
    const name = this.name();
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) !== GT) this.fail(`unterminated </${name}> tag`, start);
    if (name !== expected) this.fail(`</${name}> closes <${expected}>`, start);
    this.pos++;
  }
  name() {
    const { s } = this;
    const start = this.pos;
    while (this.pos < s.length && isNameChar(s.charCodeAt(this.pos))) this.pos++;
    if (this.pos === start) this.fail("malformed tag", start - 1);
    return s.slice(start, this.pos);
  }
  /** At "<![CDATA["; returns the raw content and moves past "]]>". */
  cdata() {
    const start = this.pos + "<![CDATA[".length;
    const end = this.s.indexOf("]]>", start);
    if (end < 0) this.fail("unterminated CDATA section");
    this.pos = end + 3;
    return this.s.slice(start, end);
  }
  skipComment() {
    const end = this.s.indexOf("-->", this.pos + 4);
    if (end < 0) this.fail("unterminated comment");
    this.pos = end + 3;
  }
  skipProcessingInstruction() {
    const end = this.s.indexOf("?>", this.pos + 2);
    if (end < 0) this.fail("unterminated processing instruction");
    this.pos = end + 2;
  }
  /** `<!DOCTYPE …>` with quoted ids and an optional [internal subset], all ignored. */
  skipDoctype() {
    const { s } = this;
    const start = this.pos;
    this.pos += "<!DOCTYPE".length;
    let subset = false;
    for (; ; ) {
      if (this.pos >= s.length) this.fail("unterminated DOCTYPE", start);
      const c = s.charCodeAt(this.pos);
      if (c === QUOTE || c === APOS) this.skipQuoted(start);
      else if (subset && this.at("<!--")) this.skipComment();
      else if (subset && this.at("<?")) this.skipProcessingInstruction();
      else if (c === OPEN_BRACKET && !subset) {
        subset = true;
        this.pos++;
      } else if (c === CLOSE_BRACKET && subset) {
        subset = false;
        this.pos++;
      } else if (c === GT && !subset) {
        this.pos++;
        return;
      } else this.pos++;
    }
  }
  skipQuoted(start) {
    const quote = this.s[this.pos];
    const end = this.s.indexOf(quote, this.pos + 1);
    if (end < 0) this.fail("unterminated DOCTYPE", start);
    this.pos = end + 1;
  }
  /** Returns whether any whitespace was skipped. */
  skipSpace() {
    const start = this.pos;
    while (this.pos < this.s.length && isSpace(this.s.charCodeAt(this.pos))) this.pos++;
    return this.pos > start;
  }
  at(token) {
    return this.s.startsWith(token, this.pos);
  }
  fail(message, at = this.pos) {
    throw new PlistParseError(`XML plist: ${message} at offset ${at}`);
  }
};
function newDict() {
  return /* @__PURE__ */ Object.create(null);
}
function add(frame, value) {
  if (frame.name === "dict") {
    frame.dict[frame.key] = value;
    frame.key = void 0;
  } else if (frame.name === "plist" || value !== null) {
    frame.items.push(value);
  }
}
function close(frame) {
  if (frame.name === "dict") {
    if (frame.key !== void 0) frame.dict[frame.key] = "";
    return frame.dict;
  }
  if (frame.name === "plist" && frame.items.length === 1) return frame.items[0];
  return frame.items;
}

// ../inspect/src/ipa/plist.ts
function parsePlist(buf, options = {}) {
  if (isBinaryPlist(buf)) {
    try {
      return parseBinaryPlist(buf, options);
    } catch (error) {
      if (error instanceof BinaryPlistError) throw new PlistParseError(error.message, { cause: error });
      throw error;
    }
  }
  return parseXmlPlist(decodeText(buf), options);
}
function decodeText(buf) {
  if (buf.length >= 2 && buf[0] === 255 && buf[1] === 254) return buf.toString("utf16le", 2);
  if (buf.length >= 2 && buf[0] === 254 && buf[1] === 255) {
    return Buffer.from(buf.subarray(2, 2 + (buf.length - 2 & ~1))).swap16().toString("utf16le");
  }
  if (buf.length >= 3 && buf[0] === 239 && buf[1] === 187 && buf[2] === 191) return buf.toString("utf8", 3);
  if (buf.length >= 4 && buf.length % 2 === 0) {
    if (buf[1] === 0 && buf[3] === 0 && buf[0] !== 0) return buf.toString("utf16le");
    if (buf[0] === 0 && buf[2] === 0 && buf[1] !== 0) return Buffer.from(buf).swap16().toString("utf16le");
  }
  return buf.toString("utf8");
}

// ../inspect/src/ipa/mobileprovision.ts
var ProvisioningError = class extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "ProvisioningError";
  }
};
function extractProvisioningPlist(buf) {
  const start = buf.indexOf("<?xml", 0, "latin1");
  const endTag = "</plist>";
  const end = start < 0 ? -1 : buf.indexOf(endTag, start, "latin1");
  if (start < 0 || end < 0) throw new ProvisioningError("No property list inside the provisioning profile");
  return buf.subarray(start, end + endTag.length);
}
var MAX_PROVISIONED_UDIDS = 1e3;
var UDID_SHAPE = /^(?:[0-9A-F]{8}-[0-9A-F]{16}|[0-9A-F]{40}|[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12})$/;
function readProfile(buf) {
  const profile = parsePlist(extractProvisioningPlist(buf));
  if (!isDict(profile)) throw new ProvisioningError("Provisioning profile plist is not a dictionary");
  const devices = profile.ProvisionedDevices;
  const deviceCount = Array.isArray(devices) ? devices.length : 0;
  const entitlements = profile.Entitlements;
  const getTaskAllow = isDict(entitlements) && entitlements["get-task-allow"] === true;
  let kind;
  if (profile.ProvisionsAllDevices === true) kind = "enterprise";
  else if (Array.isArray(devices) && getTaskAllow) kind = "development";
  else if (Array.isArray(devices)) kind = "ad-hoc";
  else kind = "app-store";
  const info = {
    name: plistString(profile.Name) ?? "",
    provisionedDevices: deviceCount,
    kind,
    developerCertificateSha256: developerCertificates(profile.DeveloperCertificates)
  };
  if (isDict(entitlements)) info.entitlements = Object.keys(entitlements).sort();
  const uuid = plistString(profile.UUID);
  if (uuid !== void 0) info.uuid = uuid;
  const teamIds = profile.TeamIdentifier;
  const teamId = Array.isArray(teamIds) ? plistString(teamIds[0]) : void 0;
  if (teamId !== void 0) info.teamId = teamId;
  const teamName = plistString(profile.TeamName);
  if (teamName !== void 0) info.teamName = teamName;
  const expires = toIso(profile.ExpirationDate);
  if (expires !== void 0) info.expiresAt = expires;
  if (kind !== "development" && kind !== "ad-hoc" || !Array.isArray(devices)) return { info };
  const udids = /* @__PURE__ */ new Set();
  for (const device of devices) {
    if (udids.size >= MAX_PROVISIONED_UDIDS) break;
    const udid = typeof device === "string" ? device.trim().toUpperCase() : "";
    if (UDID_SHAPE.test(udid)) udids.add(udid);
  }
  return { info, udids: [...udids] };
}
var MAX_DEVELOPER_CERTIFICATES = 100;
function developerCertificates(value) {
  if (!Array.isArray(value)) return [];
  return value.filter((item) => Buffer.isBuffer(item)).slice(0, MAX_DEVELOPER_CERTIFICATES).map((der) => sha256Hex(der));
}
function toIso(value) {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
  return void 0;
}

// ../inspect/src/ipa/strings-file.ts
var StringsFileError = class extends Error {
  constructor(message) {
    super(message);
    this.name = "StringsFileError";
  }
};
function parseStringsFile(buf) {
  const text = buf.toString("latin1", 0, Math.min(buf.length, 64));
  const isPlist = text.startsWith("bplist00") || /^\s*<\?xml|^\s*<plist/.test(decodeText(buf.subarray(0, 256)));
  if (isPlist) {
    const value = parsePlist(buf);
    const result = /* @__PURE__ */ new Map();
    if (isDict(value)) {
      for (const [key, entry] of Object.entries(value)) {
        const s = plistString(entry);
        if (s !== void 0) result.set(key, s);
      }
    }
    return result;
  }
  return parseOldStyleStrings(decodeText(buf));
}
function parseOldStyleStrings(source) {
  const result = /* @__PURE__ */ new Map();
  let p = 0;
  const n = source.length;
  const skipSpace = () => {
    while (p < n) {
      const c = source[p];
      if (c === " " || c === "	" || c === "\n" || c === "\r" || c === "\uFEFF") {
        p++;
      } else if (source.startsWith("/*", p)) {
        const end = source.indexOf("*/", p + 2);
        if (end < 0) throw new StringsFileError("Unterminated comment");
        p = end + 2;
      } else if (source.startsWith("//", p)) {
        const end = source.indexOf("\n", p + 2);
        p = end < 0 ? n : end + 1;
      } else {
        return;
      }
    }
  };
  const readString = () => {
    if (source[p] === '"') return readQuoted();
    const start = p;
    while (p < n && /[A-Za-z0-9_$+/:.-]/.test(source[p])) p++;
    if (p === start) throw new StringsFileError(`Expected a string at ${p}`);
    return source.slice(start, p);
  };
  const readQuoted = () => {
    p++;
    let out = "";
    while (p < n) {
      const c = source[p++];
      if (c === '"') return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = source[p++];
      switch (e) {
        case "n":
          out += "\n";
          break;
        case "t":
          out += "	";
          break;
        case "r":
          out += "\r";
          break;
        case "a":
          out += "\x07";
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "v":
          out += "\v";
          break;
        case "U":
        case "u": {
          const hex = /^[0-9a-fA-F]{1,4}/.exec(source.slice(p, p + 4))?.[0] ?? "";
          if (!hex) throw new StringsFileError("Bad \\U escape");
          out += String.fromCharCode(parseInt(hex, 16));
          p += hex.length;
          break;
        }
        case void 0:
          throw new StringsFileError("Unterminated escape");
        default:
          if (e >= "0" && e <= "7") {
            const oct = /^[0-7]{1,3}/.exec(source.slice(p - 1, p + 2))[0];
            out += String.fromCharCode(parseInt(oct, 8));
            p += oct.length - 1;
          } else {
            out += e;
          }
      }
    }
    throw new StringsFileError("Unterminated string");
  };
  skipSpace();
  const braced = source[p] === "{";
  if (braced) p++;
  for (; ; ) {
    skipSpace();
    if (p >= n) break;
    if (braced && source[p] === "}") break;
    const key = readString();
    skipSpace();
    if (source[p] === ";") {
      result.set(key, key);
      p++;
      continue;
    }
    if (source[p] !== "=") throw new StringsFileError(`Expected "=" after "${key}"`);
    p++;
    skipSpace();
    const value = readString();
    skipSpace();
    if (source[p] !== ";") throw new StringsFileError(`Expected ";" after the value of "${key}"`);
    p++;
    result.set(key, value);
  }
  return result;
}

// ../inspect/src/ipa/inspect-ipa.ts
var MAX_INFO_PLIST_BYTES = 8 * 1024 * 1024;
var MAX_PROVISION_BYTES = 2 * 1024 * 1024;
var MAX_STRINGS_BYTES = 256 * 1024;
var MAX_LOCALIZATIONS = 200;
async function inspectIpa(zip, ctx) {
  const plists = findAppInfoPlists(zip.entries.keys());
  const infoPath = plists[0];
  if (infoPath === void 0) {
    throw new InspectError("not_an_ipa", "No Payload/<name>.app/Info.plist: not an iOS app archive");
  }
  if (plists.length > 1) {
    ctx.warnings.push(`Payload holds ${plists.length} apps; read ${infoPath}`);
  }
  const prefix = bundlePrefix(infoPath);
  zip.prefetch?.([infoPath, ...likelyIconFiles(zip, prefix)]);
  const localizedRead = readLocalizations(zip, ctx, prefix);
  const provisioningRead = readProvisioning(zip, ctx, prefix);
  localizedRead.catch(() => void 0);
  provisioningRead.catch(() => void 0);
  const info = await readInfoPlist(zip, ctx, infoPath);
  ctx.checkDeadline();
  const bundleId = plistString(info.CFBundleIdentifier);
  if (!bundleId) throw new InspectError("plist_unreadable", `${infoPath} has no CFBundleIdentifier`);
  const displayName = plistString(info.CFBundleDisplayName) || plistString(info.CFBundleName);
  let appName = displayName;
  if (!appName) {
    appName = plistString(info.CFBundleExecutable) || prefix.slice("Payload/".length, -".app/".length);
    ctx.warnings.push(`No CFBundleDisplayName or CFBundleName; appName is the executable name "${appName}"`);
  }
  const buildNumber = plistString(info.CFBundleVersion) ?? "";
  let version = plistString(info.CFBundleShortVersionString);
  if (!version) {
    version = buildNumber;
    ctx.warnings.push(
      buildNumber ? "No CFBundleShortVersionString; version is CFBundleVersion" : "Neither CFBundleShortVersionString nor CFBundleVersion is set; version is empty"
    );
  }
  const result = {
    platform: "ios",
    appName,
    bundleId,
    version,
    buildNumber,
    minOs: plistString(info.MinimumOSVersion) ?? plistString(info.LSMinimumSystemVersion) ?? "",
    warnings: ctx.warnings
  };
  const platforms = plistStrings(info.CFBundleSupportedPlatforms);
  if (platforms.length > 0) result.supportedPlatforms = platforms;
  const [localized, provisioning, icon] = await Promise.all([
    localizedRead,
    provisioningRead,
    findIpaIcon(zip, ctx, info, prefix)
  ]);
  if (localized.locales.length > 0) result.locales = localized.locales;
  const labels = { ...displayName ? { "": displayName } : {}, ...localized.labels };
  if (Object.keys(labels).length > 0) result.labels = labels;
  if (provisioning) {
    result.provisioning = provisioning.info;
    if (provisioning.udids) result.provisionedUdids = provisioning.udids;
  }
  if (icon) result.icon = icon;
  ctx.checkDeadline();
  return result;
}
async function readInfoPlist(zip, ctx, path) {
  const bytes = await zip.read(path, { maxBytes: MAX_INFO_PLIST_BYTES });
  let value;
  try {
    value = parsePlist(bytes, { maxDepth: Math.max(ctx.limits.maxDepth, 8) });
  } catch (error) {
    if (error instanceof PlistParseError) {
      throw new InspectError("plist_unreadable", `${path}: ${error.message}`, { cause: error });
    }
    throw error;
  }
  if (!isDict(value)) throw new InspectError("plist_unreadable", `${path} is not a dictionary`);
  return value;
}
async function readLocalizations(zip, ctx, prefix) {
  const folders = [...lprojFolders(zip.entries.keys(), prefix)];
  const locales = [...new Set(folders.map(lprojLocale).filter((l) => l !== void 0))].sort();
  const files = folders.map((folder) => ({ folder, path: `${prefix}${folder}.lproj/InfoPlist.strings` })).filter(({ path }) => zip.entries.has(path));
  if (files.length > MAX_LOCALIZATIONS) {
    ctx.warnings.push(`Read the first ${MAX_LOCALIZATIONS} of ${files.length} InfoPlist.strings files`);
  }
  const chosen = files.slice(0, MAX_LOCALIZATIONS);
  zip.prefetch?.(
    chosen.map(({ path }) => path).filter((path) => (zip.entries.get(path)?.uncompressedSize ?? 0) <= MAX_STRINGS_BYTES).slice(0, 64)
  );
  const names = await mapLimit(
    chosen,
    4,
    ({ folder, path }) => optional(ctx, path, async () => {
      if ((zip.entries.get(path)?.uncompressedSize ?? 0) > MAX_STRINGS_BYTES) {
        throw new Error(`larger than ${MAX_STRINGS_BYTES} bytes`);
      }
      const strings = parseStringsFile(await zip.read(path, { maxBytes: MAX_STRINGS_BYTES }));
      const name = strings.get("CFBundleDisplayName") || strings.get("CFBundleName");
      const locale = lprojLocale(folder);
      return name && locale ? [locale, name] : void 0;
    })
  );
  const labels = Object.fromEntries(names.filter((entry) => entry !== void 0));
  return { locales, labels };
}
async function readProvisioning(zip, ctx, prefix) {
  const path = `${prefix}embedded.mobileprovision`;
  if (!zip.entries.has(path)) return void 0;
  return optional(
    ctx,
    path,
    async () => readProfile(await zip.read(path, { maxBytes: MAX_PROVISION_BYTES }))
  );
}

// ../inspect/src/zip/cp437.ts
var HIGH = "\xC7\xFC\xE9\xE2\xE4\xE0\xE5\xE7\xEA\xEB\xE8\xEF\xEE\xEC\xC4\xC5\xC9\xE6\xC6\xF4\xF6\xF2\xFB\xF9\xFF\xD6\xDC\xA2\xA3\xA5\u20A7\u0192\xE1\xED\xF3\xFA\xF1\xD1\xAA\xBA\xBF\u2310\xAC\xBD\xBC\xA1\xAB\xBB\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255D\u255C\u255B\u2510\u2514\u2534\u252C\u251C\u2500\u253C\u255E\u255F\u255A\u2554\u2569\u2566\u2560\u2550\u256C\u2567\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256B\u256A\u2518\u250C\u2588\u2584\u258C\u2590\u2580\u03B1\xDF\u0393\u03C0\u03A3\u03C3\xB5\u03C4\u03A6\u0398\u03A9\u03B4\u221E\u03C6\u03B5\u2229\u2261\xB1\u2265\u2264\u2320\u2321\xF7\u2248\xB0\u2219\xB7\u221A\u207F\xB2\u25A0\xA0";
function decodeCp437(bytes) {
  let out = "";
  for (const byte of bytes) out += byte < 128 ? String.fromCharCode(byte) : HIGH[byte - 128];
  return out;
}

// ../inspect/src/zip/zip-structure.ts
var LOCAL_HEADER_SIGNATURE = 67324752;
var LOCAL_HEADER_SIZE = 30;
var CENTRAL_HEADER_SIGNATURE = 33639248;
var CENTRAL_HEADER_SIZE = 46;
var EOCD_SIGNATURE = 101010256;
var EOCD_SIZE = 22;
var ZIP64_LOCATOR_SIGNATURE = 117853008;
var ZIP64_LOCATOR_SIZE = 20;
var ZIP64_EOCD_SIGNATURE = 101075792;
var ZIP64_EOCD_SIZE = 56;
var MAX_COMMENT_LENGTH = 65535;
var TAIL_READ_BYTES = MAX_COMMENT_LENGTH + EOCD_SIZE + ZIP64_LOCATOR_SIZE + ZIP64_EOCD_SIZE;
var ZIP64_EXTRA_ID = 1;
var FLAG_UTF8 = 1 << 11;
function corrupt(message) {
  return new InspectError("zip_corrupt", message);
}
function u64(buf, at, what) {
  const low = buf.readUInt32LE(at);
  const high = buf.readUInt32LE(at + 4);
  if (high >= 2 ** 21) throw corrupt(`${what} is out of range`);
  return high * 2 ** 32 + low;
}
function parseTail(tail, fileSize) {
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
  let zip64RecordOffset;
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
    throw corrupt("Multi-disk ZIP archives are not supported");
  }
  const result = {
    eocdOffset,
    centralDirectoryBound: bound,
    entryCount,
    centralDirectoryOffset: cdOffset,
    centralDirectorySize: cdSize,
    comment,
    zip64
  };
  if (zip64RecordOffset !== void 0) result.zip64RecordOffset = zip64RecordOffset;
  else checkCentralDirectoryBounds(result);
  return result;
}
function parseZip64Record(record) {
  if (record.length < ZIP64_EOCD_SIZE || record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) {
    throw corrupt("ZIP64 end-of-central-directory record is missing");
  }
  return {
    entryCount: u64(record, 32, "ZIP64 entry count"),
    cdSize: u64(record, 40, "ZIP64 central directory size"),
    cdOffset: u64(record, 48, "ZIP64 central directory offset")
  };
}
function checkCentralDirectoryBounds(eocd) {
  const { centralDirectoryOffset: offset, centralDirectorySize: size, centralDirectoryBound } = eocd;
  if (offset + size > centralDirectoryBound) {
    throw corrupt(
      `Central directory (${size} bytes at ${offset}) overlaps the end records at ${centralDirectoryBound}`
    );
  }
  if (eocd.entryCount * CENTRAL_HEADER_SIZE > size && eocd.entryCount !== 65535) {
    throw corrupt(`Central directory of ${size} bytes cannot hold ${eocd.entryCount} entries`);
  }
}
function parseCentralDirectory(cd, centralDirectoryOffset, onProgress) {
  const entries = [];
  let p = 0;
  while (p + 4 <= cd.length) {
    if (cd.readUInt32LE(p) !== CENTRAL_HEADER_SIGNATURE) {
      if (entries.length > 0) break;
      throw corrupt(`No central directory record at offset ${centralDirectoryOffset + p}`);
    }
    if (p + CENTRAL_HEADER_SIZE > cd.length) throw corrupt("Truncated central directory record");
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const crc322 = cd.readUInt32LE(p + 16);
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
    if (compressedSize === 4294967295 || uncompressedSize === 4294967295 || localHeaderOffset === 4294967295) {
      const zip64 = findExtra(cd.subarray(extraStart, extraStart + extraLength), ZIP64_EXTRA_ID);
      if (!zip64) throw corrupt(`Entry ${name} needs a ZIP64 extra field and has none`);
      let q = 0;
      const take = (what) => {
        if (q + 8 > zip64.length) throw corrupt(`ZIP64 extra field of ${name} lacks ${what}`);
        const value = u64(zip64, q, `${what} of ${name}`);
        q += 8;
        return value;
      };
      if (uncompressedSize === 4294967295) uncompressedSize = take("uncompressed size");
      if (compressedSize === 4294967295) compressedSize = take("compressed size");
      if (localHeaderOffset === 4294967295) localHeaderOffset = take("local header offset");
    }
    if (localHeaderOffset >= centralDirectoryOffset) {
      throw corrupt(`Entry ${name} starts inside or after the central directory`);
    }
    entries.push({
      name,
      method,
      flags,
      crc32: crc322,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
      nameLength,
      extraLength
    });
    p = next;
    if ((entries.length & 16383) === 0) onProgress(entries.length);
  }
  return entries;
}
function findExtra(extra, id) {
  let p = 0;
  while (p + 4 <= extra.length) {
    const fieldId = extra.readUInt16LE(p);
    const size = extra.readUInt16LE(p + 2);
    const end = p + 4 + size;
    if (end > extra.length) return void 0;
    if (fieldId === id) return extra.subarray(p + 4, end);
    p = end;
  }
  return void 0;
}
var utf8 = new TextDecoder("utf-8", { fatal: true });
function decodeName(bytes) {
  let ascii = true;
  for (const byte of bytes) {
    if (byte >= 128) {
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

// ../inspect/src/zip/inflate-entry.ts
var SYNC_INFLATE_MAX_BYTES = 64 * 1024;
var DEFLATE_OVERHEAD_BYTES = 64;
var SYNC_INFLATE_UNAVAILABLE = "ERR_ZLIB_SYNC_UNAVAILABLE";
function inflateBounded(compressed, declaredSize, name) {
  const options = { maxOutputLength: Math.max(declaredSize, 1) };
  if (declaredSize <= SYNC_INFLATE_MAX_BYTES && compressed.length <= declaredSize + DEFLATE_OVERHEAD_BYTES) {
    try {
      return Promise.resolve((0, zlib_compat_exports.inflateRawSync)(compressed, options));
    } catch (error) {
      if (error.code !== SYNC_INFLATE_UNAVAILABLE) return Promise.reject(inflateError(error, declaredSize, name));
    }
  }
  return new Promise((resolve, reject) => {
    (0, zlib_compat_exports.inflateRaw)(compressed, options, (error, result) => error ? reject(inflateError(error, declaredSize, name)) : resolve(result));
  });
}
function inflateError(error, declaredSize, name) {
  if (error.code === "ERR_BUFFER_TOO_LARGE") {
    return corrupt(`Entry ${name} inflates past its declared size of ${declaredSize} bytes`);
  }
  return new InspectError("zip_corrupt", `Entry ${name} is not valid deflate data: ${error.message}`, { cause: error });
}
function checkCrc(data, expected, name) {
  const actual = crc32(data);
  if (actual !== expected) {
    throw corrupt(
      `Entry ${name} fails its CRC check (expected ${expected.toString(16)}, got ${actual.toString(16)})`
    );
  }
}

// ../inspect/src/zip/open-zip.ts
var LOCAL_HEADER_SLACK = 64;
var STORED = 0;
var DEFLATED = 8;
var RangeZipArchive = class {
  constructor(reader, ctx, central, endRecord, regions) {
    this.reader = reader;
    this.ctx = ctx;
    this.central = central;
    this.endRecord = endRecord;
    this.regions = regions;
    this.entries = central;
  }
  entries;
  /** Raw (still compressed) bytes of prefetched entries, by name, until read. */
  inFlight = /* @__PURE__ */ new Map();
  /** What readBeforeCentralDirectory fetched, kept for its next call. */
  beforeDirectory;
  get comment() {
    return this.endRecord.comment;
  }
  prefetch(names) {
    const { maxEntryBytes } = this.ctx.limits;
    for (const name of names) {
      const entry = this.central.get(name);
      if (!entry || this.inFlight.has(name)) continue;
      if (entry.compressedSize > maxEntryBytes || entry.uncompressedSize > maxEntryBytes) continue;
      const raw = this.readEntryData(entry);
      raw.catch(() => void 0);
      this.inFlight.set(name, raw);
    }
  }
  async read(name, options) {
    const entry = this.central.get(name);
    if (!entry) throw corrupt(`No entry named ${name}`);
    this.ctx.checkDeadline();
    const { limits } = this.ctx;
    const maxBytes = Math.min(options?.maxBytes ?? limits.maxEntryBytes, limits.maxEntryBytes);
    if (entry.uncompressedSize > maxBytes) {
      throw new InspectError(
        "too_large",
        `Entry ${name} is ${entry.uncompressedSize} bytes uncompressed; the limit is ${maxBytes}`
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
          `Entry ${name} claims a compression ratio above ${limits.maxCompressionRatio}:1 (zip bomb?)`
        );
      }
    } else {
      throw corrupt(`Entry ${name} uses compression method ${entry.method}; only stored and deflate are supported`);
    }
    const prefetched = this.inFlight.get(name);
    this.inFlight.delete(name);
    const raw = await (prefetched ?? this.readEntryData(entry));
    this.ctx.checkDeadline();
    const data = entry.method === STORED ? raw : await inflateBounded(raw, entry.uncompressedSize, name);
    if (data.length !== entry.uncompressedSize) {
      throw corrupt(
        `Entry ${name} inflates to ${data.length} bytes; the central directory says ${entry.uncompressedSize}`
      );
    }
    checkCrc(data, entry.crc32, name);
    this.ctx.checkDeadline();
    return data;
  }
  async readBeforeCentralDirectory(length, speculative = length) {
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
  knownBefore(end) {
    let best;
    for (const region of [...this.regions, ...this.beforeDirectory ? [this.beforeDirectory] : []]) {
      if (region.start >= end || region.start + region.bytes.length < end) continue;
      if (best === void 0 || region.start < best.start) {
        best = { start: region.start, bytes: region.bytes.subarray(0, end - region.start) };
      }
    }
    return best;
  }
  /** The entry's compressed bytes, in one read unless its local header is unusually long. */
  async readEntryData(entry) {
    const limit = this.endRecord.centralDirectoryOffset;
    const start = entry.localHeaderOffset;
    if (start + LOCAL_HEADER_SIZE > limit) throw corrupt(`Local header of ${entry.name} is out of bounds`);
    const guess = LOCAL_HEADER_SIZE + entry.nameLength + entry.extraLength + entry.compressedSize + LOCAL_HEADER_SLACK;
    const first = await this.fetch(start, Math.min(start + guess, limit));
    if (first.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) {
      throw corrupt(`Entry ${entry.name} has no local header at offset ${start}`);
    }
    const dataStart = start + LOCAL_HEADER_SIZE + first.readUInt16LE(26) + first.readUInt16LE(28);
    const dataEnd = dataStart + entry.compressedSize;
    if (dataEnd > limit) throw corrupt(`Data of ${entry.name} runs into the central directory`);
    const fetchedEnd = start + first.length;
    if (dataEnd <= fetchedEnd) return first.subarray(dataStart - start, dataEnd - start);
    const rest = await this.fetch(Math.max(fetchedEnd, dataStart), dataEnd);
    if (dataStart >= fetchedEnd) return rest;
    return Buffer.concat([first.subarray(dataStart - start), rest]);
  }
  async fetch(start, end) {
    for (const region of this.regions) {
      if (start >= region.start && end <= region.start + region.bytes.length) {
        return region.bytes.subarray(start - region.start, end - region.start);
      }
    }
    return this.reader.read(start, end - start);
  }
};
async function openZip(reader, ctx) {
  ctx.checkDeadline();
  const size = reader.size;
  if (size < 22) throw new InspectError("not_a_zip", `File of ${size} bytes is too small to be a ZIP archive`);
  const tailLength = Math.min(size, TAIL_READ_BYTES);
  const tailStart = size - tailLength;
  const tail = await reader.read(tailStart, tailLength);
  const end = parseTail(tail, size);
  if (end.zip64RecordOffset !== void 0) {
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
  let cd;
  if (cdOffset >= tailStart) {
    cd = tail.subarray(cdOffset - tailStart, cdOffset - tailStart + cdSize);
  } else {
    const before = await reader.read(cdOffset, Math.min(cdOffset + cdSize, tailStart) - cdOffset);
    cd = cdOffset + cdSize <= tailStart ? before : Buffer.concat([before, tail.subarray(0, cdOffset + cdSize - tailStart)]);
  }
  const list = parseCentralDirectory(cd, cdOffset, () => ctx.checkDeadline());
  const central = /* @__PURE__ */ new Map();
  for (const entry of list) central.set(entry.name, entry);
  const regions = [{ start: tailStart, bytes: tail }];
  if (cdOffset < tailStart) regions.push({ start: cdOffset, bytes: cd });
  return new RangeZipArchive(reader, ctx, central, end, regions);
}

// ../inspect/src/inspect-package.ts
var STAGE_CODE = {
  zip: "zip_corrupt",
  apk: "manifest_unreadable",
  ipa: "plist_unreadable"
};
async function inspectPackage(reader, options = {}) {
  const ctx = createInspectContext(options.limits);
  const stage = { current: "zip" };
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(timeoutError(ctx.limits)),
      Math.max(0, ctx.deadline - Date.now())
    );
  });
  try {
    return boundMetadata(await Promise.race([dispatch(reader, ctx, options.fileName, stage), deadline]));
  } catch (error) {
    throw toInspectError(error, STAGE_CODE[stage.current]);
  } finally {
    clearTimeout(timer);
  }
}
async function dispatch(reader, ctx, fileName, stage) {
  const zip = await openZip(reader, ctx);
  const kind = detectKind(zip);
  const hint = extensionOf(fileName);
  if (kind === "apk") {
    if (hint === "ipa") ctx.warnings.push("The file is named .ipa but is an Android APK");
    stage.current = "apk";
    zip.prefetch?.(["AndroidManifest.xml", "resources.arsc"]);
    return inspectApk(zip, ctx);
  }
  if (kind === "ipa") {
    if (hint === "apk") ctx.warnings.push("The file is named .apk but is an iOS IPA");
    stage.current = "ipa";
    return inspectIpa(zip, ctx);
  }
  if (kind === "aab") {
    throw new InspectError(
      "unsupported_bundle",
      "This is an Android App Bundle (.aab); upload an APK built from it (bundletool build-apks --mode=universal)"
    );
  }
  if (kind === "split-apks") {
    throw new InspectError(
      "unsupported_bundle",
      "This is a set of split APKs (.apks/.xapk); upload a single universal APK"
    );
  }
  if (kind === "ipa-without-app") {
    throw new InspectError("not_an_ipa", "Payload/ holds no <name>.app/Info.plist: not an installable iOS app");
  }
  if (hint === "ipa") throw new InspectError("not_an_ipa", "The archive has no Payload/<name>.app/Info.plist: not an IPA");
  if (hint === "apk") throw new InspectError("not_an_apk", "The archive has no AndroidManifest.xml at its root: not an APK");
  throw new InspectError(
    "not_an_apk",
    "The archive is neither an APK (no AndroidManifest.xml) nor an IPA (no Payload/<name>.app/Info.plist)"
  );
}
function detectKind(zip) {
  const { entries } = zip;
  if (entries.has("AndroidManifest.xml")) return "apk";
  if (findAppInfoPlists(entries.keys()).length > 0) return "ipa";
  if (entries.has("base/manifest/AndroidManifest.xml")) return "aab";
  let apks = 0;
  let payload = false;
  for (const name of entries.keys()) {
    if (/\.apk$/i.test(name)) apks++;
    if (name.startsWith("Payload/")) payload = true;
  }
  if (apks > 0 && (entries.has("manifest.json") || entries.has("toc.pb") || apks === entries.size || apks > 1)) {
    return "split-apks";
  }
  if (payload) return "ipa-without-app";
  return "unknown";
}
function extensionOf(fileName) {
  const ext = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return ext === "apk" || ext === "ipa" ? ext : void 0;
}
function toInspectError(error, code) {
  if (error instanceof InspectError) return error;
  return new InspectError(code, `Unreadable package: ${messageOf(error)}`, { cause: error });
}

// ../inspect/src/reader/file-range-reader.ts
import { open } from "node:fs/promises";

// ../inspect/src/reader/check-range.ts
function checkRange(offset, length, size) {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
    throw new InspectError(
      "read_failed",
      `Read of ${length} bytes at ${offset} is outside the package (${size} bytes)`
    );
  }
}

// ../inspect/src/reader/file-range-reader.ts
var FileRangeReader = class _FileRangeReader {
  constructor(handle, size, path) {
    this.handle = handle;
    this.size = size;
    this.path = path;
  }
  stats = { bytesRead: 0, reads: 0 };
  static async open(path) {
    let handle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      throw new InspectError("read_failed", `Cannot open ${path}: ${messageOf(error)}`, {
        cause: error
      });
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error("not a regular file");
      return new _FileRangeReader(handle, info.size, path);
    } catch (error) {
      await handle.close().catch(() => void 0);
      throw new InspectError("read_failed", `Cannot read ${path}: ${messageOf(error)}`, {
        cause: error
      });
    }
  }
  async read(offset, length) {
    checkRange(offset, length, this.size);
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    try {
      while (filled < length) {
        const { bytesRead } = await this.handle.read(buffer, filled, length - filled, offset + filled);
        if (bytesRead === 0) throw new Error("unexpected end of file (was it truncated meanwhile?)");
        filled += bytesRead;
      }
    } catch (error) {
      throw new InspectError("read_failed", `Cannot read ${this.path}: ${messageOf(error)}`, {
        cause: error
      });
    }
    this.stats.reads += 1;
    this.stats.bytesRead += length;
    return buffer;
  }
  async close() {
    await this.handle.close();
  }
};

export {
  InspectError,
  inspectPackage,
  FileRangeReader
};
