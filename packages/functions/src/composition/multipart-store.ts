import { S3Client } from "@aws-sdk/client-s3";
import { S3MultipartStore } from "@hangar/core/s3";
import { getRuntime } from "./root";

let store: S3MultipartStore | undefined;

/** The multipart function's S3 client (create, abort); complete uses the one in inspector.ts. */
export function getMultipartStore(): S3MultipartStore {
  if (store) return store;
  const { settings } = getRuntime();
  const s3 = new S3Client({
    region: settings.AWS_REGION,
    // As in inspector.ts: no request checksums the calls do not need.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT, forcePathStyle: true } : {}),
  });
  store = new S3MultipartStore(s3, settings.HANGAR_BUCKET_NAME);
  return store;
}
