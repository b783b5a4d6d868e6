import type { MultipartDeps } from "@hangar/core";
import { S3MultipartStore } from "@hangar/core/s3";
import { once } from "./once";
import { getRuntime } from "./root";
import { s3Client } from "./s3-client";

/** The multipart function's ports: its own S3 client for create and abort (complete has its own, complete.ts). */
export const multipartDeps = once((): MultipartDeps => {
  const { settings, files, signer, clock, ids, upload } = getRuntime();
  return { files, multipart: new S3MultipartStore(s3Client(settings), settings.HANGAR_BUCKET_NAME), signer, clock, ids, settings: upload };
});
