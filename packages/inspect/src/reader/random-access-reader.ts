/** Counters every reader keeps, so callers (bench, CLI, tests) can see what a parse cost. */
export interface ReadStats {
  bytesRead: number;
  reads: number;
}

/**
 * Byte-range access to one package wherever it lies (local file, S3 object, memory). The ZIP
 * layer asks only for the ranges it needs, so a 1 GB package costs a few hundred KB of reads.
 * Implementations throw InspectError("read_failed") for I/O failures and for ranges past `size`.
 */
export interface RandomAccessReader {
  readonly size: number;
  /** Exactly `length` bytes starting at `offset`. */
  read(offset: number, length: number): Promise<Buffer>;
  readonly stats: ReadStats;
  close(): Promise<void>;
}
