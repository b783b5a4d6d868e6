import type { ObjectStore } from "@hangar/core";
import { S3ObjectStore } from "@hangar/core/s3";
import { configureMetrics } from "../observability/metrics";
import { loadSettings, type Settings } from "./settings.schema";
import { s3Client } from "./s3-client";

/**
 * The composition root of the reaper (the table stream's consumer). Apart from root.ts so the
 * reaper's bundle carries the S3 client only, not the DynamoDB clients and repositories the
 * HTTP functions need; same settings (loadSettings), same adapters.
 */
export interface Housekeeping {
  settings: Settings;
  storage: ObjectStore;
}

let housekeeping: Housekeeping | undefined;

export function getHousekeeping(): Housekeeping {
  if (housekeeping) return housekeeping;
  const settings = loadSettings();
  configureMetrics(settings);
  const s3 = s3Client(settings);
  housekeeping = { settings, storage: new S3ObjectStore(s3, settings.HANGAR_BUCKET_NAME) };
  return housekeeping;
}
