import { S3Client } from "@aws-sdk/client-s3";
import type { Settings } from "./settings.schema";

/**
 * The one way a function builds its S3 client (the purger of deletes; complete, multipart and the
 * reaper sign their calls themselves, s3-requester.ts). Checksums only WHEN_REQUIRED: SDK v3 otherwise adds CRC32 checksums to every call, which none of ours need
 * (presigned flows and multipart parts carry their own). Path-style on the local store.
 */
export function s3Client(settings: Pick<Settings, "AWS_REGION" | "HANGAR_S3_ENDPOINT">): S3Client {
  return new S3Client({
    region: settings.AWS_REGION,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT, forcePathStyle: true } : {}),
  });
}
