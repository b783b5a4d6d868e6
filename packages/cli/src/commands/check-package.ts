import { FileRangeReader, InspectError, inspectPackage } from "@hangar/inspect";

/**
 * `hangar upload`'s check before it sends anything: the file is read with the service's own
 * APK/IPA reader (@hangar/inspect, which complete runs on the stored object), reading only the
 * ZIP directory and the entries it needs, so a 1 GB build costs a few reads. A file complete
 * would refuse is refused here, with what complete would say: code `invalid_package`, the
 * reader's code as `reason`, the reader's message. Loaded only when the check runs (its own
 * chunk), so `--no-verify`, `--help` and usage errors never parse the reader.
 *
 * Not refusals: a file that cannot be opened or read (the upload reports it as it always did,
 * exit 2), and running out of time (a slow machine proves nothing about the package; the
 * service decides).
 */
export class PackageRefusedError extends Error {
  readonly code = "invalid_package";
  constructor(
    /** The reader's stable code (`not_a_zip`, `not_an_apk`, …), as complete's `reason`. */
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "PackageRefusedError";
  }
}

const NOT_A_VERDICT = new Set(["read_failed", "timeout"]);

export async function checkPackage(path: string, fileName: string): Promise<void> {
  let reader: FileRangeReader;
  try {
    reader = await FileRangeReader.open(path);
  } catch {
    return;
  }
  try {
    await inspectPackage(reader, { fileName });
  } catch (error) {
    if (error instanceof InspectError && !NOT_A_VERDICT.has(error.code)) throw new PackageRefusedError(error.code, error.message, { cause: error });
    if (!(error instanceof InspectError)) throw error;
  } finally {
    await reader.close();
  }
}
