export { inspectPackage, detectKind } from "./inspect-package";
export type { InspectOptions } from "./inspect-package";
export { InspectError, defaultLimits } from "./inspect-result";
export type {
  IconInfo,
  InspectErrorCode,
  InspectLimits,
  InspectResult,
  ProvisioningInfo,
  SigningInfo,
} from "./inspect-result";
export { createInspectContext } from "./inspect-context";
export type { InspectContext } from "./inspect-context";
export type { RandomAccessReader, ReadStats } from "./reader/random-access-reader";
export { BufferRangeReader } from "./reader/buffer-range-reader";
export { FileRangeReader } from "./reader/file-range-reader";
export { openZip } from "./zip/open-zip";
export type { ZipArchive, ZipEntryInfo } from "./zip/zip-archive";
export { pngSize } from "./png";
