import type { ObjectStore } from "@hangar/core";
import { S3ObjectStore } from "@hangar/core/s3";
import { configureMetrics } from "../observability/metrics";
import { once } from "./once";
import { loadSettings } from "./settings.schema";
import { s3Client } from "./s3-client";

/**
 * The composition root of the reaper (the table stream's consumer). Apart from root.ts so the
 * reaper's bundle carries the S3 client only, not the DynamoDB clients and repositories the
 * HTTP functions need; same settings (loadSettings), same adapters. Its one port is core's
 * `storage` (an ObjectStore, as in SealDeps): it deletes expired uploads' objects and seals completed ones.
 */
export const reaperDeps = once((): { storage: ObjectStore } => {
  const settings = loadSettings();
  configureMetrics(settings);
  return { storage: new S3ObjectStore(s3Client(settings), settings.HANGAR_BUCKET_NAME) };
});
