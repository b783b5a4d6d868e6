import { S3MultipartStore } from "@hangar/core/s3";
import { getRuntime } from "./root";
import { s3Client } from "./s3-client";

let store: S3MultipartStore | undefined;

/** The multipart function's S3 client (create, abort); complete uses the one in inspector.ts. */
export function getMultipartStore(): S3MultipartStore {
  if (store) return store;
  const { settings } = getRuntime();
  const s3 = s3Client(settings);
  store = new S3MultipartStore(s3, settings.HANGAR_BUCKET_NAME);
  return store;
}
