import { S3ObjectPurger } from "@hangar/core/s3-purger";
import type { Settings } from "./settings.schema";
import { s3Client } from "./s3-client";

/**
 * The S3 client and purger of deletes. Its own module, imported dynamically by the dashboard's
 * composition: esbuild still tree-shakes it to the two commands used (a dynamic import of the
 * SDK package itself would keep every command), and nothing of it is evaluated before a delete.
 */
export function s3ObjectPurger(settings: Settings): S3ObjectPurger {
  const s3 = s3Client(settings);
  return new S3ObjectPurger(s3, settings.HANGAR_BUCKET_NAME);
}
