import { BinaryFormatError, fits } from "../binary/bytes";
import { CHUNK_HEADER_SIZE, ChunkType, walkChunks } from "../binary/chunk";
import type { Chunk } from "../binary/chunk";
import { StringPool } from "../binary/string-pool";
import type { ResValue } from "../binary/res-value";

/** ResStringPool_ref value meaning "no string". */
const NO_INDEX = 0xffffffff;
/** ResXMLTree_node: chunk header + lineNumber + comment. */
const NODE_HEADER_SIZE = 16;
/** ResXMLTree_attrExt: ns, name, attributeStart, attributeSize, attributeCount, id/class/style index. */
const ATTR_EXT_SIZE = 20;
/** ResXMLTree_attribute: ns, name, rawValue, Res_value. */
const ATTRIBUTE_SIZE = 20;

export interface AxmlAttribute {
  /** Namespace URI, undefined when the attribute has none. */
  namespace: string | undefined;
  /** Name from the string pool; may be empty or garbage in obfuscated files; match by resourceId. */
  name: string;
  /** Resource id from the resource map (e.g. 0x01010003 for android:name), 0 when none. */
  resourceId: number;
  /** Raw string as written in the source XML, when the compiler kept it. */
  rawValue: string | undefined;
  value: ResValue;
}

export interface AxmlElement {
  name: string;
  namespace: string | undefined;
  /** 1 for the root element. */
  depth: number;
  attributes: AxmlAttribute[];
}

export interface AxmlDocument {
  strings: StringPool;
  /** Start tags in document order. */
  elements: AxmlElement[];
  /** Tolerated defects (trailing bytes, clamped sizes, skipped chunks) for diagnostics. */
  anomalies: string[];
  /**
   * Set when part of the document may be missing: sizes overran the data or a chunk header was
   * impossible before the root element closed. Android would refuse such a file.
   */
  damage: string | undefined;
}

export interface AxmlParseOptions {
  /** Called every few hundred chunks so a huge document cannot outlive the time budget. */
  checkDeadline?: () => void;
  /** The first element at depth 1 must have this name; parsing stops after it closes. */
  stopAfterRoot?: boolean;
}

/**
 * Parses Android binary XML (AXML) as leniently as Android's ResXMLTree: the header's chunk type is
 * not checked (Android does not), sizes that overrun the data are clamped, unknown chunks are
 * skipped, bytes after the declared document are ignored, and attributes are located through the
 * element's own attributeStart/attributeSize. Throws BinaryFormatError only when nothing usable is
 * left (no string pool or no element).
 */
export function parseAxml(buf: Buffer, options: AxmlParseOptions = {}): AxmlDocument {
  const anomalies: string[] = [];
  let damage: string | undefined;
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

  let strings: StringPool | undefined;
  let resourceMap: Uint32Array = new Uint32Array(0);
  const elements: AxmlElement[] = [];
  let depth = 0;
  let steps = 0;
  let rootClosed = false;

  const onIssue = (issue: { offset: number; reason: string }): void => {
    const text = `at ${issue.offset}: ${issue.reason}`;
    anomalies.push(text);
    // Issues past the root's end tag cost nothing: Android stops reading there too.
    if (!rootClosed) damage ??= text;
  };
  for (const chunk of walkChunks(buf, headerSize, declaredSize, onIssue)) {
    if (++steps % 256 === 0) options.checkDeadline?.();
    switch (chunk.type) {
      case ChunkType.STRING_POOL:
        // The first pool is the document's (ResXMLTree keeps the first one it can read).
        if (strings === undefined) {
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
        if (strings === undefined) throw new BinaryFormatError("element before any string pool");
        const element = readStartElement(buf, chunk, strings, resourceMap, depth + 1, anomalies);
        if (element !== undefined) {
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
        // Namespace URIs are read per attribute from the pool; text content is not needed.
        break;
      default:
        anomalies.push(`skipped chunk 0x${chunk.type.toString(16)} at ${chunk.start}`);
    }
    if (rootClosed && options.stopAfterRoot) break;
  }

  if (strings === undefined) throw new BinaryFormatError("binary XML has no string pool");
  if (elements.length === 0) throw new BinaryFormatError("binary XML has no element");
  if (elements.length > 0 && !rootClosed) damage ??= "the root element is never closed";
  return { strings, elements, anomalies, damage };
}

function readResourceMap(buf: Buffer, chunk: Chunk): Uint32Array {
  const start = chunk.start + chunk.headerSize;
  const count = Math.max(0, Math.floor((chunk.end - start) / 4));
  const ids = new Uint32Array(count);
  for (let i = 0; i < count; i++) ids[i] = buf.readUInt32LE(start + i * 4);
  return ids;
}

function poolString(strings: StringPool, index: number): string | undefined {
  return index === NO_INDEX ? undefined : strings.get(index);
}

function readStartElement(
  buf: Buffer,
  chunk: Chunk,
  strings: StringPool,
  resourceMap: Uint32Array,
  depth: number,
  anomalies: string[],
): AxmlElement | undefined {
  // The extension starts at headerSize, whatever the node header claims to hold beyond 16 bytes.
  const ext = chunk.start + chunk.headerSize;
  if (chunk.headerSize < NODE_HEADER_SIZE || !fits(buf, ext, ATTR_EXT_SIZE, chunk.end)) {
    anomalies.push(`start element at ${chunk.start} is too small; skipped`);
    return undefined;
  }
  const nsIndex = buf.readUInt32LE(ext);
  const nameIndex = buf.readUInt32LE(ext + 4);
  const attributeStart = buf.readUInt16LE(ext + 8);
  const attributeSize = buf.readUInt16LE(ext + 10);
  const attributeCount = buf.readUInt16LE(ext + 12);

  const attributes: AxmlAttribute[] = [];
  for (let i = 0; i < attributeCount; i++) {
    const at = ext + attributeStart + i * attributeSize;
    if (!fits(buf, at, ATTRIBUTE_SIZE, chunk.end)) {
      anomalies.push(`element at ${chunk.start}: attribute ${i} lies outside the chunk; ignored`);
      // Later attributes are further out when attributeSize > 0; with 0 they all alias this one.
      break;
    }
    const attrNs = buf.readUInt32LE(at);
    const attrName = buf.readUInt32LE(at + 4);
    const raw = buf.readUInt32LE(at + 8);
    const type = buf[at + 15] as number;
    const data = buf.readUInt32LE(at + 16);
    attributes.push({
      namespace: poolString(strings, attrNs),
      name: poolString(strings, attrName) ?? "",
      resourceId: attrName < resourceMap.length ? (resourceMap[attrName] as number) : 0,
      rawValue: poolString(strings, raw),
      value: { type, data },
    });
  }
  return {
    name: poolString(strings, nameIndex) ?? "",
    namespace: poolString(strings, nsIndex),
    depth,
    attributes,
  };
}
