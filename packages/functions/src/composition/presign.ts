import type { PresignDeps } from "@hangar/core";
import { once } from "./once";
import { getRuntime } from "./root";

/** The presign function's ports: the shared runtime's, no S3 client (the signer needs none). */
export const presignDeps = once((): PresignDeps => {
  const { files, signer, clock, ids, upload } = getRuntime();
  return { files, signer, clock, ids, settings: upload };
});
