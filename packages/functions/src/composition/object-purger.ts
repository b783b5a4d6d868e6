import { S3ObjectPurger } from "@hangar/core/s3-purger";
import type { Settings } from "./settings.schema";
import { s3Requester } from "./s3-requester";

/**
 * The purger of deletes, on signed fetches (s3-requester.ts). Its own module, imported dynamically
 * by the dashboard's composition (lazy-purger.ts): nothing of it is evaluated before a delete.
 */
export function s3ObjectPurger(settings: Settings): S3ObjectPurger {
  return new S3ObjectPurger(s3Requester(settings));
}
