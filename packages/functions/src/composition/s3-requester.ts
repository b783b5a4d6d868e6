import { S3Requester } from "@hangar/core/s3-rest";
import type { Settings } from "./settings.schema";

/**
 * The one way a function makes S3's object and multipart calls as signed fetches instead of through
 * the S3 client (s3-client.ts): complete and multipart make a few such calls each, on every
 * upload's path, and so carry no S3 client (core's adapters/s3/s3-request.ts). Path-style on the
 * local store, as the client.
 */
export function s3Requester(settings: Pick<Settings, "AWS_REGION" | "HANGAR_S3_ENDPOINT" | "HANGAR_BUCKET_NAME">): S3Requester {
  return new S3Requester({
    bucket: settings.HANGAR_BUCKET_NAME,
    region: settings.AWS_REGION,
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT } : {}),
  });
}
