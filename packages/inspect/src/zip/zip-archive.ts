/**
 * What package parsers (apk/, ipa/) see of a ZIP: the central directory and a way to read one
 * entry. Implemented over a RandomAccessReader so only the bytes asked for are fetched.
 */
export interface ZipEntryInfo {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** 0 = stored, 8 = deflated; anything else is refused on read. */
  method: number;
}

export interface ZipArchive {
  /** Every entry of the central directory by name (the last one wins on duplicates). */
  readonly entries: ReadonlyMap<string, ZipEntryInfo>;
  /**
   * Whole uncompressed bytes of one entry. Throws InspectError("too_large") past
   * `maxBytes` (default: limits.maxEntryBytes) or past the compression-ratio cap.
   */
  read(name: string, options?: { maxBytes?: number }): Promise<Buffer>;
  /**
   * Optional hint: start fetching these entries now, in parallel, so later `read` calls find
   * them in flight. From S3 this turns one round trip per entry into one for all of them.
   * Unknown names are ignored; limits are still enforced by `read`.
   */
  prefetch?(names: Iterable<string>): void;
  /**
   * Bytes that end where the central directory starts: where an APK keeps its APK Signing
   * Block, which no entry claims. At least the last `length` of them (fewer only when the
   * directory starts earlier in the file), and more when more are already at hand. Bytes
   * fetched before (the tail read covers them in small archives) are not fetched again; when a
   * fetch is needed it takes `speculative` bytes, so a guess can save a second round trip.
   */
  readBeforeCentralDirectory?(length: number, speculative?: number): Promise<Buffer>;
}
