// zod/mini, as in core: a fifth of zod's bundle weight in every function's cold start.
import * as z from "zod/mini";

const GiB = 1024 ** 3;
/** One S3 PUT takes at most 5 GiB; a presigned single PUT cannot go beyond. */
export const MAX_SINGLE_PUT_BYTES = 5 * GiB;

const optionalUrl = z.optional(
  z.pipe(
    // Links are opened by browsers and CI logs: http(s) only.
    z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }),
    z.transform((u) => u.replace(/\/+$/, "")),
  ),
);

const intFromEnv = (def: number, min: number, max: number) =>
  z._default(
    z.coerce.number().check(z.int(`must be an integer from ${min} to ${max}`), z.minimum(min, `must be at least ${min}`), z.maximum(max, `must be at most ${max}`)),
    def,
  );

/**
 * Every setting the handlers read, by environment variable. Parsed once per runtime in the
 * composition root; nothing else reads process.env. The README's settings table mirrors this.
 */
export const Settings = z.object({
  HANGAR_TABLE_NAME: z.string().check(z.minLength(1)),
  HANGAR_BUCKET_NAME: z.string().check(z.minLength(1)),
  /** Base of download links; when unset, taken from the request's host (API Gateway domain). */
  HANGAR_PUBLIC_URL: optionalUrl,
  /** Base of share links: `{share_base_url}/share/<userKey>`; defaults to HANGAR_PUBLIC_URL. */
  HANGAR_SHARE_BASE_URL: optionalUrl,
  HANGAR_MAX_FILE_SIZE: intFromEnv(4 * GiB, 1, MAX_SINGLE_PUT_BYTES),
  HANGAR_RATE_LIMIT: intFromEnv(100, 1, 1_000_000),
  HANGAR_RATE_WINDOW_SECONDS: intFromEnv(60, 1, 3600),
  HANGAR_PENDING_TTL_SECONDS: intFromEnv(24 * 3600, 900, 30 * 24 * 3600),
  /** Local stack only: DynamoDB Local and the local object store. Unset on AWS. */
  HANGAR_DYNAMODB_ENDPOINT: optionalUrl,
  HANGAR_S3_ENDPOINT: optionalUrl,
  AWS_REGION: z._default(z.string().check(z.minLength(1)), "us-east-1"),
});
export type Settings = z.infer<typeof Settings>;
