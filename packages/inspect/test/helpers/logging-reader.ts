import type { RandomAccessReader, ReadStats } from "../../src/reader/random-access-reader";

/** Wraps a reader and records every range asked for, to assert on exact I/O. */
export class LoggingReader implements RandomAccessReader {
  readonly log: { offset: number; length: number }[] = [];
  constructor(private readonly inner: RandomAccessReader) {}
  get size(): number {
    return this.inner.size;
  }
  get stats(): ReadStats {
    return this.inner.stats;
  }
  read(offset: number, length: number): Promise<Buffer> {
    this.log.push({ offset, length });
    return this.inner.read(offset, length);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
