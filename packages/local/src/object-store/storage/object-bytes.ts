import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { ObjectRecord } from "./object-record";

const READ_CHUNK_BYTES = 1024 * 1024;

/** The files holding an object's bytes, in order: one, or a completed multipart upload's parts. */
export function segmentsOf(record: Pick<ObjectRecord, "blob" | "size" | "segments">): { blob: string; size: number }[] {
  return record.segments ?? [{ blob: record.blob, size: record.size }];
}

/** An object's bytes, opened: readable to the end even if the object is overwritten or deleted meanwhile. */
export interface ObjectBytes {
  /** Bytes `start`..`end` inclusive; every file is closed when the stream ends or is destroyed. */
  stream(start: number, end: number): Readable;
  /** For a caller that will not stream after all. */
  close(): Promise<void>;
}

/** Opens every file of the object (all before any byte is read, so none can vanish midway); ENOENT when one is already gone. */
export async function openObjectBytes(dir: string, record: ObjectRecord): Promise<ObjectBytes> {
  const segments = segmentsOf(record);
  const handles: FileHandle[] = [];
  try {
    for (const segment of segments) handles.push(await open(join(dir, segment.blob), "r"));
  } catch (error) {
    await Promise.all(handles.map((h) => h.close()));
    throw error;
  }
  const close = async () => {
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
  };
  if (handles.length === 1) {
    const handle = handles[0]!;
    return { stream: (start, end) => handle.createReadStream({ start, end, highWaterMark: READ_CHUNK_BYTES }), close };
  }
  return {
    stream(start, end) {
      async function* bytes() {
        try {
          let offset = 0;
          for (const [index, segment] of segments.entries()) {
            const first = Math.max(start, offset);
            const last = Math.min(end, offset + segment.size - 1);
            if (first <= last) {
              const reader = handles[index]!.createReadStream({
                start: first - offset,
                end: last - offset,
                autoClose: false,
                highWaterMark: READ_CHUNK_BYTES,
              });
              for await (const chunk of reader) yield chunk as Buffer;
            }
            offset += segment.size;
          }
        } finally {
          await close();
        }
      }
      return Readable.from(bytes(), { objectMode: false, highWaterMark: READ_CHUNK_BYTES });
    },
    close,
  };
}
