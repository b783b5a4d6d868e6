import { S3Requester } from "@hangar/core/s3-rest";
import type { Settings } from "./settings.schema";

/**
 * The one way a function calls S3 (presigned URLs aside, S3UrlSigner): signed fetches, not the
 * S3 client (core's adapters/s3/s3-request.ts says why). Complete and multipart (objects, ranges,
 * multipart calls), the reaper (deletes and seals) and the purger of deletes use it, so no function
 * carries @aws-sdk/client-s3. Path-style on the local store.
 */
export function s3Requester(settings: Pick<Settings, "AWS_REGION" | "HANGAR_S3_ENDPOINT" | "HANGAR_BUCKET_NAME">): S3Requester {
  return new S3Requester({
    bucket: settings.HANGAR_BUCKET_NAME,
    region: settings.AWS_REGION,
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT } : {}),
  });
}
