import type { ObjectStore } from "@hangar/core";
import { S3RestObjectStore } from "@hangar/core/s3-rest";
import { configureMetrics } from "../observability/metrics";
import { once } from "./once";
import { loadSettings } from "./settings.schema";
import { s3Requester } from "./s3-requester";

/**
 * The composition root of the reaper (the table stream's consumer). Apart from root.ts so the
 * reaper's bundle carries its object store only, not the DynamoDB clients and repositories the
 * HTTP functions need; same settings (loadSettings), same adapters. Its one port is core's
 * `storage` (an ObjectStore, as in SealDeps): it deletes expired uploads' objects and seals completed
 * ones, with the signed fetches complete uses (s3-requester.ts), so it carries no S3 client either.
 */
export const reaperDeps = once((): { storage: ObjectStore } => {
  const settings = loadSettings();
  configureMetrics(settings);
  return { storage: new S3RestObjectStore(s3Requester(settings)) };
});
