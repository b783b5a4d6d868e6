import { checkRange } from "./check-range";
import type { RandomAccessReader, ReadStats } from "./random-access-reader";

/** A package already in memory (tests, fuzzing, small uploads). Reads are counted like real I/O. */
export class BufferRangeReader implements RandomAccessReader {
  readonly stats: ReadStats = { bytesRead: 0, reads: 0 };
  readonly size: number;

  constructor(private readonly buffer: Buffer) {
    this.size = buffer.length;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length, this.size);
    this.stats.reads += 1;
    this.stats.bytesRead += length;
    // A copy, not a view: callers may keep slices, and the source may be mutated (fuzzing).
    return Buffer.from(this.buffer.subarray(offset, offset + length));
  }

  async close(): Promise<void> {}
}
