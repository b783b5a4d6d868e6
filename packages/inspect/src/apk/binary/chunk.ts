import { fits } from "./bytes";

/** Chunk types of Android's ResourceTypes.h that the APK parsers look at. */
export const ChunkType = {
  NULL: 0x0000,
  STRING_POOL: 0x0001,
  TABLE: 0x0002,
  XML: 0x0003,
  XML_START_NAMESPACE: 0x0100,
  XML_END_NAMESPACE: 0x0101,
  XML_START_ELEMENT: 0x0102,
  XML_END_ELEMENT: 0x0103,
  XML_CDATA: 0x0104,
  XML_RESOURCE_MAP: 0x0180,
  TABLE_PACKAGE: 0x0200,
  TABLE_TYPE: 0x0201,
  TABLE_TYPE_SPEC: 0x0202,
  TABLE_LIBRARY: 0x0203,
} as const;

export const CHUNK_HEADER_SIZE = 8;

/** One ResChunk_header, with `end` already clamped to the bytes that really exist. */
export interface Chunk {
  type: number;
  headerSize: number;
  /** Offset of the chunk's first byte. */
  start: number;
  /** Offset just past the chunk: start + declared size, clamped to the enclosing end. */
  end: number;
  declaredSize: number;
  /** True when the declared size ran past the enclosing end and was cut down. */
  clamped: boolean;
}

export interface ChunkWalkIssue {
  offset: number;
  reason: string;
}

/**
 * Walks sibling chunks in [start, end). Each step advances by the chunk's declared size, which is
 * at least 8, so the walk always terminates. A chunk whose header is impossible (size < 8, header
 * bigger than the chunk) ends the walk: what follows it cannot be located, and Android itself
 * stops there. Fewer than 8 bytes left over are trailing bytes, ignored like Android does.
 */
export function* walkChunks(
  buf: Buffer,
  start: number,
  end: number,
  onIssue?: (issue: ChunkWalkIssue) => void,
): Generator<Chunk> {
  const limit = Math.min(end, buf.length);
  let pos = start;
  while (pos + CHUNK_HEADER_SIZE <= limit) {
    const type = buf.readUInt16LE(pos);
    const headerSize = buf.readUInt16LE(pos + 2);
    const declaredSize = buf.readUInt32LE(pos + 4);
    if (declaredSize < CHUNK_HEADER_SIZE || headerSize < CHUNK_HEADER_SIZE || headerSize > declaredSize) {
      onIssue?.({
        offset: pos,
        reason: `chunk 0x${type.toString(16)} declares header ${headerSize} / size ${declaredSize}`,
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
