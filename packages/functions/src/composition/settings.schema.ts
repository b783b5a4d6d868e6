// zod/mini, as in core: a fifth of zod's bundle weight in every function's cold start.
import * as z from "zod/mini";
import { parseMailFrom } from "@hangar/core/mail-from";
import { parseRateRuleOverrides } from "@hangar/core/rate-rules";
import { parseRetrySchedule } from "@hangar/core/webhook-schedule";

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
 * Every setting the functions read, by environment variable. Parsed once per runtime by
 * loadSettings() for the composition roots; nothing else reads process.env. The README's settings table mirrors this.
 */
export const Settings = z.object({
  HANGAR_TABLE_NAME: z.string().check(z.minLength(1)),
  HANGAR_BUCKET_NAME: z.string().check(z.minLength(1)),
  /** Base of download links; when unset, taken from the request's host (API Gateway domain). */
  HANGAR_PUBLIC_URL: optionalUrl,
  /** Base of share links: `{share_base_url}/share/<userKey>`; defaults to HANGAR_PUBLIC_URL. */
  HANGAR_SHARE_BASE_URL: optionalUrl,
  HANGAR_MAX_FILE_SIZE: intFromEnv(4 * GiB, 1, MAX_SINGLE_PUT_BYTES),
  /** Largest multipart upload; S3's largest object is 5 TiB. */
  HANGAR_MAX_MULTIPART_FILE_SIZE: intFromEnv(30 * GiB, 1, 5 * 1024 * GiB),
  /** Life of a presigned part URL (SigV4 allows at most 7 days); clients ask for fresh ones to resume. */
  HANGAR_PART_URL_EXPIRES_SECONDS: intFromEnv(900, 1, 7 * 24 * 3600),
  HANGAR_RATE_LIMIT: intFromEnv(100, 1, 1_000_000),
  HANGAR_RATE_WINDOW_SECONDS: intFromEnv(60, 1, 3600),
  /**
   * Changes to the per-client limits (packages/core/src/limits/rate-rules.ts, docs/accounts.md,
   * docs/share-links.md): `name=limit/windowSeconds`, comma-separated, e.g. `sharePage=300/60`.
   */
  HANGAR_RATE_RULES: z.optional(
    z.string().check(
      z.maxLength(2000),
      z.refine((text) => !("problem" in parseRateRuleOverrides(text)), {
        error: (issue) => {
          const parsed = parseRateRuleOverrides(String(issue.input));
          return "problem" in parsed ? parsed.problem : "is invalid";
        },
      }),
    ),
  ),
  HANGAR_PENDING_TTL_SECONDS: intFromEnv(24 * 3600, 900, 30 * 24 * 3600),
  /**
   * Per-key daily usage counting on presign/complete (the dashboard's usage page). `off` exists
   * for the bench's baseline, which measures presign without it in the same run.
   */
  HANGAR_USAGE_COUNTING: z._default(z.enum(["on", "off"]), "on"),
  /** How long a project or account DELETE purges before handing the rest to the background. */
  HANGAR_DELETE_INLINE_MS: intFromEnv(5000, 0, 20_000),
  /**
   * SMTP relay for account mails (`smtp://host:port`, `smtps://user:pass@host`): the local stack
   * sets it to its MailDev. Unset: mail goes through Amazon SES from HANGAR_MAIL_FROM. Local only:
   * the stacks never set it, and the deployed bundles carry no SMTP client (stacks/bundling.ts).
   */
  HANGAR_SMTP_URL: z.optional(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" })),
  /**
   * Header in which a trusted proxy in front of the API names the client's address (e.g.
   * `cloudfront-viewer-address`), for the per-client limits of sign-in and mail. Unset: the
   * address API Gateway saw. Set it only when the API is reachable through that proxy alone.
   */
  HANGAR_CLIENT_IP_HEADER: z.optional(z.string().check(z.regex(/^[A-Za-z0-9-]{1,64}$/, "must be a header name"))),
  /**
   * Webhooks (docs/webhooks.md). The SQS queue of deliveries (set by the stack); unset: the local
   * stack's in-process worker over the table.
   */
  HANGAR_WEBHOOK_QUEUE_URL: z.optional(z.url({ protocol: /^https$/, error: "must be an https:// SQS queue URL" })),
  /**
   * Local stack only (the deploy refuses it, stacks/settings.ts): `1` lets webhooks call http://
   * receivers on 127.0.0.1 and ::1, for trying webhooks out and for the tests. Private,
   * link-local and metadata addresses stay refused even then.
   */
  HANGAR_WEBHOOK_ALLOW_LOOPBACK: z.optional(z.enum(["0", "1"], { error: "must be 1 (or 0)" })),
  /**
   * Local stack only (the deploy refuses it): the waits between delivery attempts, comma-separated
   * seconds (`1,1`: two retries a second apart, as the tests use). Unset: about 24 hours in 15 attempts.
   */
  HANGAR_WEBHOOK_RETRY_SCHEDULE: z.optional(
    z.string().check(
      z.refine((text) => Array.isArray(parseRetrySchedule(text)), {
        error: (issue) => {
          const parsed = parseRetrySchedule(String(issue.input));
          return typeof parsed === "string" ? parsed : "is invalid";
        },
      }),
    ),
  ),
  /** Failed delivery attempts in a row (over at least half the retry schedule) that turn an endpoint off. */
  HANGAR_WEBHOOK_DISABLE_AFTER: intFromEnv(15, 1, 1000),
  /**
   * iOS devices (docs/devices.md): the identity that signs the enroll profile, so iOS shows it as
   * verified instead of "Not Verified". One PEM text with the certificate chain (signer first) and
   * its unencrypted private key (RSA or EC): in Secrets Manager on AWS (the ARN; only the devices
   * function may read it), or a file on the local stack. Neither: the profile goes out unsigned.
   */
  HANGAR_ENROLL_SIGNING_SECRET_ARN: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:secretsmanager:/, "must be a Secrets Manager secret ARN"))),
  HANGAR_ENROLL_SIGNING_PEM_FILE: z.optional(z.string().check(z.minLength(1))),
  /**
   * Register with Apple (docs/devices.md): `1` when the stage has an App Store Connect API key.
   * The stack sets it on every function when HANGAR_ASC_* are configured (the devices list says
   * whether the dashboard offers the button); the apple function alone reads the key.
   */
  HANGAR_ASC_ENABLED: z.optional(z.enum(["0", "1"], { error: "must be 1 (or 0)" })),
  /** The API key's issuer id (a UUID, App Store Connect → Users and Access → Integrations). */
  HANGAR_ASC_ISSUER_ID: z.optional(z.string().check(z.regex(/^[0-9a-fA-F-]{36}$/, "must be the API key's issuer id (a UUID)"))),
  /** The API key's id (10 characters). */
  HANGAR_ASC_KEY_ID: z.optional(z.string().check(z.regex(/^[A-Z0-9]{10}$/, "must be the API key's 10-character key id"))),
  /** The Secrets Manager secret holding the .p8 key's PEM text (set by the stack on the apple function only). */
  HANGAR_ASC_PRIVATE_KEY_SECRET_ARN: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:secretsmanager:/, "must be a Secrets Manager secret ARN"))),
  /** Local stack only (the deploy refuses it): the .p8 key as a file path, instead of the secret. */
  HANGAR_ASC_PRIVATE_KEY_FILE: z.optional(z.string().check(z.minLength(1))),
  /** Local stack only (the deploy refuses it): another App Store Connect base URL, for the tests' local fake. */
  HANGAR_ASC_BASE_URL: optionalUrl,
  /** Local stack only: DynamoDB Local and the local object store. Unset on AWS. */
  HANGAR_DYNAMODB_ENDPOINT: optionalUrl,
  HANGAR_S3_ENDPOINT: optionalUrl,
  AWS_REGION: z._default(z.string().check(z.minLength(1)), "us-east-1"),
  /**
   * Shared secret CloudFront sends to the API in `x-hangar-origin-verify` (stacks/web-stack.ts).
   * Only a request carrying it is trusted to name the viewer's host (`x-hangar-viewer-host`),
   * the default base of links when HANGAR_PUBLIC_URL is unset. Unset: the host is never trusted.
   */
  HANGAR_ORIGIN_VERIFY_SECRET: z.optional(z.string().check(z.minLength(32))),
  /**
   * On AWS the same secret lives in Secrets Manager and only its ARN is in the environment:
   * fetched once per container before the first origin check (composition/origin-secret.ts).
   */
  HANGAR_ORIGIN_VERIFY_SECRET_ARN: z.optional(z.string().check(z.regex(/^arn:aws[a-z-]*:secretsmanager:/, "must be a Secrets Manager secret ARN"))),
  /**
   * Sender of account mails: an address or `Name <address>` at the SES identity the stack
   * creates. A bare domain is refused with parseMailFrom's message (SES would reject every send).
   */
  HANGAR_MAIL_FROM: z.optional(
    z.string().check(
      z.refine((v) => mailFromProblem(v) === undefined, { error: (issue) => mailFromProblem(String(issue.input)) ?? "is invalid" }),
    ),
  ),
  /** The SES configuration set whose bounce and complaint events reach mail/ses-events.handler.ts. */
  HANGAR_SES_CONFIGURATION_SET: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, "must be an SES configuration set name"))),
  /**
   * Build mails per second the sender may hand to the mail service (docs/testers.md "Distribution
   * and build mail"): SES's per-second sending quota of the account (14 when production access is
   * granted; 1 in the sandbox). The stack sizes the distribution-mail function from it too.
   */
  HANGAR_BUILD_MAIL_PER_SECOND: intFromEnv(14, 1, 1000),
  /** The build-mail queue's URL (SQS; set by the stack on the functions that distribute). Unset: the in-process sender (local stack). */
  HANGAR_BUILD_MAIL_QUEUE_URL: z.optional(z.url({ protocol: /^https?$/, error: "must be an SQS queue URL" })),
  /** The stage's name (set by the stacks on every function): the `stage` dimension of every metric. */
  HANGAR_STAGE: z.optional(z.string().check(z.minLength(1))),
  /**
   * Whether EMF metrics are printed (observability/metrics.ts): only inside Lambda (Lambda sets
   * AWS_LAMBDA_FUNCTION_NAME), never on the local stack (HANGAR_LOCAL=1), and Powertools'
   * own switches override.
   */
  HANGAR_LOCAL: z.optional(z.string()),
  AWS_LAMBDA_FUNCTION_NAME: z.optional(z.string()),
  POWERTOOLS_METRICS_DISABLED: z.optional(z.string()),
  POWERTOOLS_DEV: z.optional(z.string()),
});
export type Settings = z.infer<typeof Settings>;

function mailFromProblem(value: string): string | undefined {
  try {
    parseMailFrom(value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

let loaded: Settings | undefined;

/**
 * The environment parsed once per container, for the composition roots (root.ts and, for the
 * reaper, housekeeping.ts). The only place that reads process.env.
 */
export function loadSettings(): Settings {
  // A bad environment is a deployment bug: let it surface as a 500, never as a client 400.
  return (loaded ??= Settings.parse(process.env));
}
