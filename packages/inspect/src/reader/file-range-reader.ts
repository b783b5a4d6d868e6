import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { InspectError, messageOf } from "../inspect-result";
import { checkRange } from "./check-range";
import type { RandomAccessReader, ReadStats } from "./random-access-reader";

/** A package on local disk (CLI, local stack, tests). */
export class FileRangeReader implements RandomAccessReader {
  readonly stats: ReadStats = { bytesRead: 0, reads: 0 };

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
    readonly path: string,
  ) {}

  static async open(path: string): Promise<FileRangeReader> {
    let handle: FileHandle;
    try {
      handle = await open(path, "r");
    } catch (error) {
      throw new InspectError("read_failed", `Cannot open ${path}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error("not a regular file");
      return new FileRangeReader(handle, info.size, path);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw new InspectError("read_failed", `Cannot read ${path}: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  async read(offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length, this.size);
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    try {
      // read() may return fewer bytes than asked (large ranges, pipes); loop until full.
      while (filled < length) {
        const { bytesRead } = await this.handle.read(buffer, filled, length - filled, offset + filled);
        if (bytesRead === 0) throw new Error("unexpected end of file (was it truncated meanwhile?)");
        filled += bytesRead;
      }
    } catch (error) {
      throw new InspectError("read_failed", `Cannot read ${this.path}: ${messageOf(error)}`, {
        cause: error,
      });
    }
    this.stats.reads += 1;
    this.stats.bytesRead += length;
    return buffer;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
