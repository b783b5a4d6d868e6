import { defaultUploadSettings, randomIds, systemClock, type UploadSettings } from "@hangar/core";
import { DynamoApiKeyGate, DynamoJsonClient, type DocumentClient, DynamoFileRepository, DynamoKeyCatalog, DynamoProjectCatalog, DynamoRateLimiter, DynamoUsage } from "@hangar/core/dynamo";
import { defaultRateRules, parseRateRuleOverrides, type RateRuleName, type RateRules } from "@hangar/core/rate-rules";
// The signer alone (no S3 client): every function signs URLs, few touch objects.
import { S3UrlSigner } from "@hangar/core/s3-signer";
import { configureMetrics } from "../observability/metrics";
import { once } from "./once";
import { loadSettings, type Settings } from "./settings.schema";

/**
 * The one composition root of the Lambda runtime (and of the local server, which runs the same
 * handlers): reads the environment once, builds SDK clients once per container, and wires
 * adapters into the use cases' ports. Everything is built by `once` on first use, so importing a
 * handler does no I/O.
 *
 * The runtime holds what every function shares. Each family of use cases has a getter that
 * returns exactly core's deps type, with core's port names, built on this runtime:
 * presignDeps (presign.ts), completeDeps (complete.ts), multipartDeps (multipart.ts),
 * dashboardBaseDeps, fileDeps, dashboardDeps, deleteAccountDeps (dashboard*.ts), accountDeps and
 * sessionDeps (accounts.ts, sessions.ts), mailEventDeps (mail-events.ts), and the reaper's
 * reaperDeps (housekeeping.ts, which does not load this runtime). They sit in separate modules
 * because a function's bundle carries what its handler imports: the presign function must not
 * carry the S3 client of complete, nor the keys function the mailer of accounts.
 * Port names are core's: a UrlSigner is `signer`, an ObjectStore `storage`, a MultipartStore
 * `multipart`, a PackageInspector `inspector`; a handler never renames one at the call site.
 */
export interface Runtime {
  settings: Settings;
  upload: UploadSettings;
  /** Strongly consistent reads: a regenerated or revoked secret fails on the very next request. */
  apiKeys: DynamoKeyCatalog;
  /** The API-key request path: secret check, rate window and usage in one write (authenticate). */
  keyGate: DynamoApiKeyGate;
  /** Per-key daily usage counters; undefined when HANGAR_USAGE_COUNTING=off. */
  usage: DynamoUsage | undefined;
  /** Project counters (file count, last upload) that complete keeps up to date. */
  projects: DynamoProjectCatalog;
  /** The shared document client, for composition modules that build more adapters (dashboard). */
  db: DocumentClient;
  /** Every rate rule of the service (core's limits/rate-rules.ts with this stage's changes), one limiter. */
  limits: DynamoRateLimiter<RateRuleName>;
  files: DynamoFileRepository;
  /** Presigns S3 URLs without an S3 client (see S3UrlSigner). */
  signer: S3UrlSigner;
  clock: typeof systemClock;
  ids: typeof randomIds;
}

export const getRuntime = once((): Runtime => {
  const settings = loadSettings();
  configureMetrics(settings);
  const region = settings.AWS_REGION;

  // DynamoDB's JSON protocol on a keep-alive connection, not the SDK client: a third of complete's
  // time was the SDK's CPU per call (document-client.ts).
  const db = new DynamoJsonClient({ region, endpoint: settings.HANGAR_DYNAMODB_ENDPOINT });
  const table = settings.HANGAR_TABLE_NAME;
  const limits = new DynamoRateLimiter(db, table, rateRulesOf(settings));
  const usage = settings.HANGAR_USAGE_COUNTING === "off" ? undefined : new DynamoUsage(db, table);
  return {
    settings,
    upload: {
      ...defaultUploadSettings,
      maxFileSize: settings.HANGAR_MAX_FILE_SIZE,
      pendingTtlSeconds: settings.HANGAR_PENDING_TTL_SECONDS,
      maxMultipartFileSize: settings.HANGAR_MAX_MULTIPART_FILE_SIZE,
      partUrlExpiresSeconds: settings.HANGAR_PART_URL_EXPIRES_SECONDS,
    },
    apiKeys: new DynamoKeyCatalog(db, table),
    keyGate: new DynamoApiKeyGate(db, table, limits, usage),
    usage,
    projects: new DynamoProjectCatalog(db, table),
    db,
    limits,
    files: new DynamoFileRepository(db, table),
    signer: new S3UrlSigner({
      bucket: settings.HANGAR_BUCKET_NAME,
      region,
      ...(settings.HANGAR_S3_ENDPOINT ? { endpoint: settings.HANGAR_S3_ENDPOINT } : {}),
    }),
    clock: systemClock,
    ids: randomIds,
  };
});

/** The default rules, the API keys' own settings, then HANGAR_RATE_RULES (already validated by the schema). */
export function rateRulesOf(settings: Pick<Settings, "HANGAR_RATE_LIMIT" | "HANGAR_RATE_WINDOW_SECONDS" | "HANGAR_RATE_RULES">): RateRules {
  const parsed = parseRateRuleOverrides(settings.HANGAR_RATE_RULES ?? "");
  return {
    ...defaultRateRules,
    apiKey: { limit: settings.HANGAR_RATE_LIMIT, windowSeconds: settings.HANGAR_RATE_WINDOW_SECONDS },
    ...("rules" in parsed ? parsed.rules : {}),
  };
}
