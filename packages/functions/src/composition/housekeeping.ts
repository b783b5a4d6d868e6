import { S3Client } from "@aws-sdk/client-s3";
import type { ObjectStore } from "@hangar/core";
import { S3ObjectStore } from "@hangar/core/s3";
import { configureMetrics } from "../observability/metrics";
import { loadSettings, type Settings } from "./settings.schema";

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
  const s3 = new S3Client({
    region: settings.AWS_REGION,
    // As in inspector.ts: no CRC32 checksums, which a DELETE does not need.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT, forcePathStyle: true } : {}),
  });
  housekeeping = { settings, storage: new S3ObjectStore(s3, settings.HANGAR_BUCKET_NAME) };
  return housekeeping;
}
