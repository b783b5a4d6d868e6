import type { MultipartDeps } from "@hangar/core";
import { S3RestMultipartStore } from "@hangar/core/s3-rest";
import { once } from "./once";
import { getRuntime } from "./root";
import { s3Requester } from "./s3-requester";

/** The multipart function's ports: S3's create and abort as signed fetches (complete lists and completes, complete.ts). */
export const multipartDeps = once((): MultipartDeps => {
  const { settings, files, signer, clock, ids, upload } = getRuntime();
  return { files, multipart: new S3RestMultipartStore(s3Requester(settings)), signer, clock, ids, settings: upload };
});
