/**
 * `@hangar/inspect/s3`: the readers that need the AWS SDK. Kept out of the main entry point so the
 * extractor, the CLI and anything else importing `@hangar/inspect` never load `@aws-sdk/client-s3`.
 */
export { S3RangeReader } from "./reader/s3-range-reader.s3";
export type { S3RangeReaderOptions } from "./reader/s3-range-reader.s3";
