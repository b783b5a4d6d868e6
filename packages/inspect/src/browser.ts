/**
 * The extractor in a browser, on a File the user dropped: the dashboard reads a package's name,
 * version, bundle id and platform before uploading it. Only the ranges the ZIP layer asks for
 * are read (Blob.slice), so a multi-GB IPA costs a few hundred kilobytes, as on the server.
 *
 * What Node provides the parsers is provided here: Buffer by the `buffer` package (set as the
 * global first), `node:zlib` by browser/zlib-browser.ts and `node:fs/promises` by browser/no-fs.ts,
 * both through the bundler's aliases (packages/web/vite.config.ts). The service's own extraction
 * at complete stays the authority; this is a preview.
 */
import "./browser/buffer-global";
import { inspectPackage } from "./inspect-package";
import { InspectError, type InspectResult } from "./inspect-result";
import { checkRange } from "./reader/check-range";
import type { RandomAccessReader, ReadStats } from "./reader/random-access-reader";

export class BlobRangeReader implements RandomAccessReader {
  readonly stats: ReadStats = { bytesRead: 0, reads: 0 };
  readonly size: number;

  constructor(private readonly blob: Blob) {
    this.size = blob.size;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    checkRange(offset, length, this.size);
    this.stats.reads += 1;
    this.stats.bytesRead += length;
    try {
      return Buffer.from(await this.blob.slice(offset, offset + length).arrayBuffer());
    } catch (error) {
      throw new InspectError("read_failed", `Cannot read the file: ${(error as Error).message}`, { cause: error });
    }
  }

  async close(): Promise<void> {}
}

/** What the dashboard shows before an upload. */
export interface PackagePreview {
  platform: "android" | "ios";
  appName: string;
  bundleId: string;
  version: string;
  buildNumber: string;
}

/** The package's metadata, or InspectError (its message says why) when it is no APK or IPA. */
export async function inspectBlob(blob: Blob, fileName: string): Promise<PackagePreview> {
  const result: InspectResult = await inspectPackage(new BlobRangeReader(blob), { fileName });
  return { platform: result.platform, appName: result.appName, bundleId: result.bundleId, version: result.version, buildNumber: result.buildNumber };
}
