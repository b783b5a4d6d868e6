import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { MailFromError, parseMailFrom, type MailFrom } from "@hangar/core/mail-from";
import { Settings } from "@hangar/functions";

/**
 * The header CloudFront adds to every request to the API (its origin request policy names it,
 * web-stack.ts): `<viewer IP>:<port>`. The functions read the client's address from it, and trust
 * it only next to the origin secret (HANGAR_CLIENT_IP_HEADER).
 */
export const CLIENT_IP_HEADER = "cloudfront-viewer-address";

/**
 * Everything that differs between stages. Values come from the environment of `sst deploy`,
 * which SST fills from `.env`, `.env.<stage>` and `.env.<stage>.local` before the stacks run,
 * so a team configures its stages with files, not code edits. Read once per stage.
 */
export interface StageSettings {
  stage: string;
  /** Production stages keep their data: RETAIN, deletion protection, alarms on by default. */
  production: boolean;
  /** HANGAR_PUBLIC_URL for the handlers; unset → derived from the request's host. */
  publicUrl?: string;
  /** HANGAR_SHARE_BASE_URL for the handlers; unset → same as the public URL. */
  shareBaseUrl?: string;
  maxFileSize?: number;
  /** HANGAR_MAX_MULTIPART_FILE_SIZE for the handlers; unset → their default (30 GiB). */
  maxMultipartFileSize?: number;
  rateLimit?: number;
  rateWindowSeconds?: number;
  /** HANGAR_RATE_RULES: per-rule overrides of the per-client limits (core's limits/rate-rules.ts). */
  rateRules?: string;
  pendingTtlSeconds?: number;
  /** HANGAR_BUILD_MAIL_PER_SECOND: SES's per-second quota, the build-mail sender's pace (docs/testers.md); unset → 14. */
  buildMailPerSecond?: number;
  /** Optional custom domain of the stage's CloudFront distribution; see docs/deploy.md for the two modes. */
  customDomain?: CustomDomainSettings;
  /** HANGAR_MAIL_FROM, parsed: the sender of account mails; its domain is the SES identity the stack creates. */
  mailFrom?: MailFrom;
  /**
   * Route 53 zone of the mail domain, for the DKIM records: HANGAR_MAIL_HOSTED_ZONE, else the
   * custom domain's zone when the mail domain is in it. Unset: the records are stack outputs.
   */
  mailHostedZone?: string;
  /** HANGAR_MAIL_IDENTITY=existing: the domain is verified in SES already (by hand or another stack); do not create it. */
  mailIdentityExists: boolean;
  /** Route 53 zone of a separate share host (HANGAR_SHARE_HOSTED_ZONE), when it is not the custom domain's. */
  shareHostedZone?: string;
  /** Optional AWS WAF web ACL with a per-IP rate-based rule on the distribution (us-east-1 stages only). */
  waf: boolean;
  /** Requests per 5 minutes per IP before WAF blocks (HANGAR_WAF_RATE_LIMIT). */
  wafRateLimit: number;
  /** CloudFront standard logs to a bucket of their own (on for production). */
  cloudfrontLogs: boolean;
  /**
   * Production stages deployed before table names were generated keep `<stage>-hangar-Table`
   * (HANGAR_LEGACY_TABLE_NAME): renaming would replace the table. See docs/deploy.md.
   */
  legacyTableName: boolean;
  /** HANGAR_ORIGIN_SECRET_GENERATION: any new label makes the next deploy send the origin secret's current value (rotation). */
  originSecretGeneration?: string;
  /** Retention of function logs and API access logs. */
  logRetention: LogRetention;
  logLevel: LogLevel;
  /**
   * Other browser origins allowed to PUT/GET the bucket and call the API. Empty (the default):
   * no CORS at all, the dashboard is served from the API's own origin.
   */
  corsOrigins: string[];
  alarms: boolean;
  /** Where alarms notify; without it they only change state in the console. */
  alarmEmail?: string;
  /** API Gateway limits of every route without a budget of its own. */
  throttle: Throttle;
  /** Each route of `complete`: the expensive one (a GB of memory for up to 29 s). */
  completeThrottle: Throttle;
  /** Each unauthenticated route (/share, /download, …): a flood there must not eat CI's capacity. */
  publicThrottle: Throttle;
  /** Opt-in reserved concurrency of `complete`: keeps Lambda capacity for uploads, and caps them. */
  completeReservedConcurrency?: number;
  /** Days a replaced or deleted object version is kept before the lifecycle rule expires it. */
  noncurrentVersionDays: number;
  /**
   * Register with Apple (docs/devices.md): the App Store Connect API key, the .p8 in Secrets
   * Manager (HANGAR_ASC_ISSUER_ID, HANGAR_ASC_KEY_ID, HANGAR_ASC_PRIVATE_KEY_SECRET_ARN). Unset: off.
   */
  appStoreConnect?: AppStoreConnectSettings;
  /**
   * The identity that signs the device enroll profile (docs/devices.md "Signing the profile"): a
   * Secrets Manager secret holding the PEM (HANGAR_ENROLL_SIGNING_SECRET_ARN). Unset: unsigned.
   */
  enrollSigningSecretArn?: string;
  /** S3 server access logs of the uploads bucket, into a separate log bucket. */
  bucketAccessLogs: boolean;
}

export interface AppStoreConnectSettings {
  issuerId: string;
  keyId: string;
  privateKeySecretArn: string;
}

export interface Throttle {
  /** Steady requests per second. */
  rate: number;
  burst: number;
}

export interface CustomDomainSettings {
  domainName: string;
  /**
   * Set: domain managed outside Route 53 (you add the CNAME); no lookup at synth. An ACM
   * certificate in us-east-1, the only region CloudFront takes certificates from.
   */
  certificateArn?: string;
  /** Route 53 zone; SST creates the certificate and records (looked up at deploy). */
  hostedZone?: string;
}

export type LogRetention = Lowercase<keyof typeof RetentionDays>;
export const LOG_LEVELS = ["DEBUG", "INFO", "WARN", "ERROR"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const PRODUCTION_STAGES = new Set(["prod", "production"]);

export class StageSettingsError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid deploy setting ${variable}: ${problem}`);
    this.name = "StageSettingsError";
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (["1", "true", "yes", "on"].includes(value)) return true;
  if (["0", "false", "no", "off"].includes(value)) return false;
  throw new StageSettingsError(name, `expected true or false, got "${value}"`);
}

function int(env: Env, name: string, min: number, max: number): number | undefined {
  const value = text(env, name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new StageSettingsError(name, `expected an integer in [${min}, ${max}], got "${value}"`);
  }
  return n;
}

function retention(env: Env, name: string, fallback: LogRetention): LogRetention {
  const value = text(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (!(value.toUpperCase() in RetentionDays) || value === "infinite") {
    // Infinite retention would make "cost at rest" grow forever; refuse it explicitly.
    throw new StageSettingsError(name, `expected a finite CloudWatch retention such as one_month, got "${value}"`);
  }
  return value as LogRetention;
}

/** Stage settings the functions read, by the handlers' variable names. */
const HANDLER_SETTINGS = {
  publicUrl: "HANGAR_PUBLIC_URL",
  shareBaseUrl: "HANGAR_SHARE_BASE_URL",
  maxFileSize: "HANGAR_MAX_FILE_SIZE",
  maxMultipartFileSize: "HANGAR_MAX_MULTIPART_FILE_SIZE",
  rateLimit: "HANGAR_RATE_LIMIT",
  rateWindowSeconds: "HANGAR_RATE_WINDOW_SECONDS",
  rateRules: "HANGAR_RATE_RULES",
  pendingTtlSeconds: "HANGAR_PENDING_TTL_SECONDS",
  buildMailPerSecond: "HANGAR_BUILD_MAIL_PER_SECOND",
} as const;

/** us-east-1: CloudFront only uses certificates from there, whatever the stage's region. */
const CLOUDFRONT_CERTIFICATE = /^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
const ZONE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** `name` is `zone` or a name inside it. */
export const inZone = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/** The Route 53 zone of the custom domain: the one set, else the domain's last two labels. */
export function domainZone(settings: StageSettings): string | undefined {
  const domain = settings.customDomain;
  if (!domain || domain.certificateArn) return undefined;
  return domain.hostedZone ?? domain.domainName.split(".").slice(-2).join(".");
}

/** HANGAR_WAF_RATE_LIMIT's default: 2,000 requests per 5 minutes per IP (~7/s sustained). */
export const DEFAULT_WAF_RATE_LIMIT = 2000;

function throttle(env: Env, prefix: string, fallback: Throttle): Throttle {
  return {
    rate: int(env, `${prefix}_RATE`, 1, 10_000) ?? fallback.rate,
    burst: int(env, `${prefix}_BURST`, 1, 5_000) ?? fallback.burst,
  };
}

/**
 * Validated by the handlers' own schema, so the deploy refuses exactly what a function would
 * refuse at its first request, with bounds defined once (settings.schema.ts).
 */
function handlerSettings(env: Env): Partial<Pick<StageSettings, keyof typeof HANDLER_SETTINGS>> {
  const given: Record<string, string> = {};
  for (const name of Object.values(HANDLER_SETTINGS)) {
    const value = text(env, name);
    if (value !== undefined) given[name] = value;
  }
  const parsed = Settings.safeParse({ HANGAR_TABLE_NAME: "-", HANGAR_BUCKET_NAME: "-", ...given });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new StageSettingsError(name, `"${given[name]}" is not valid (${issue.message})`);
  }
  const settings: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(HANDLER_SETTINGS)) {
    if (name in given) settings[key] = parsed.data[name];
  }
  return settings;
}

/**
 * Settings of the local stack only: a deployed stage must never call loopback receivers nor
 * shorten the retry schedule, so a deploy environment that names one is refused rather than ignored.
 */
export const LOCAL_ONLY_SETTINGS = ["HANGAR_WEBHOOK_ALLOW_LOOPBACK", "HANGAR_WEBHOOK_RETRY_SCHEDULE"] as const;

/**
 * Settings of Register with Apple that only the local stack may have (docs/devices.md): a key read
 * from a file, and another App Store Connect than Apple's (the tests' fake). A deployed stage reads
 * the key from Secrets Manager and talks to Apple only.
 */
export const LOCAL_ONLY_ASC_SETTINGS = ["HANGAR_ASC_PRIVATE_KEY_FILE", "HANGAR_ASC_BASE_URL"] as const;

/**
 * The enroll profile's signing identity (docs/devices.md): a deployed stage reads it from Secrets
 * Manager; a PEM file is the local stack's form only.
 */
function enrollSigningSecretArn(env: Env): string | undefined {
  if (text(env, "HANGAR_ENROLL_SIGNING_PEM_FILE") !== undefined) {
    throw new StageSettingsError("HANGAR_ENROLL_SIGNING_PEM_FILE", "is a setting of the local stack only (docs/devices.md): a deployed stage reads the signing identity from Secrets Manager (HANGAR_ENROLL_SIGNING_SECRET_ARN).");
  }
  const arn = text(env, "HANGAR_ENROLL_SIGNING_SECRET_ARN");
  if (arn !== undefined && !/^arn:aws[a-z-]*:secretsmanager:/.test(arn)) {
    throw new StageSettingsError("HANGAR_ENROLL_SIGNING_SECRET_ARN", `"${arn}" is not valid (must be a Secrets Manager secret ARN)`);
  }
  return arn;
}

/** What the devices function alone gets beside the common environment: where its signing identity is. */
export function enrollSigningEnvironment(settings: Pick<StageSettings, "enrollSigningSecretArn">): Record<string, string> {
  return settings.enrollSigningSecretArn ? { HANGAR_ENROLL_SIGNING_SECRET_ARN: settings.enrollSigningSecretArn } : {};
}

const ASC_SETTINGS = { issuerId: "HANGAR_ASC_ISSUER_ID", keyId: "HANGAR_ASC_KEY_ID", privateKeySecretArn: "HANGAR_ASC_PRIVATE_KEY_SECRET_ARN" } as const;

/** The App Store Connect key of the stage: all three settings or none, each checked by the handlers' schema. */
function appStoreConnectSettings(env: Env): AppStoreConnectSettings | undefined {
  for (const name of LOCAL_ONLY_ASC_SETTINGS) {
    if (text(env, name) !== undefined) {
      throw new StageSettingsError(name, "is a setting of the local stack only (docs/devices.md): a deployed stage reads the App Store Connect key from Secrets Manager (HANGAR_ASC_PRIVATE_KEY_SECRET_ARN) and calls Apple only.");
    }
  }
  const given = Object.values(ASC_SETTINGS).filter((name) => text(env, name) !== undefined);
  if (given.length === 0) return undefined;
  const missing = Object.values(ASC_SETTINGS).filter((name) => text(env, name) === undefined);
  if (missing.length) throw new StageSettingsError(missing[0]!, `required with ${given.join(", ")}: Register with Apple needs the issuer id, the key id and the key's secret ARN`);
  const values = Object.fromEntries(Object.values(ASC_SETTINGS).map((name) => [name, text(env, name)!]));
  const parsed = Settings.safeParse({ HANGAR_TABLE_NAME: "-", HANGAR_BUCKET_NAME: "-", ...values });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new StageSettingsError(name, `"${values[name]}" is not valid (${issue.message})`);
  }
  return { issuerId: values[ASC_SETTINGS.issuerId]!, keyId: values[ASC_SETTINGS.keyId]!, privateKeySecretArn: values[ASC_SETTINGS.privateKeySecretArn]! };
}

/** What the apple function alone gets beside the common environment: the key's ids and its secret's ARN. */
export function appStoreConnectEnvironment(settings: Pick<StageSettings, "appStoreConnect">): Record<string, string> {
  const asc = settings.appStoreConnect;
  if (!asc) return {};
  return { HANGAR_ASC_ISSUER_ID: asc.issuerId, HANGAR_ASC_KEY_ID: asc.keyId, HANGAR_ASC_PRIVATE_KEY_SECRET_ARN: asc.privateKeySecretArn };
}

/** Pure: the settings of `stage` given a deploy environment. */
export function resolveStageSettings(stage: string, env: Env): StageSettings {
  for (const name of LOCAL_ONLY_SETTINGS) {
    if (text(env, name) !== undefined) {
      throw new StageSettingsError(name, "is a setting of the local stack only (docs/webhooks.md); a deployed stage never calls loopback receivers nor shortens webhook retries. Remove it from the deploy environment.");
    }
  }
  const production = bool(env, "HANGAR_PRODUCTION", PRODUCTION_STAGES.has(stage));
  const logLevel = (text(env, "HANGAR_LOG_LEVEL")?.toUpperCase() ?? "INFO") as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new StageSettingsError("HANGAR_LOG_LEVEL", `expected one of ${LOG_LEVELS.join(", ")}`);
  }
  const domainName = text(env, "HANGAR_DOMAIN_NAME");
  const certificateArn = text(env, "HANGAR_DOMAIN_CERTIFICATE_ARN");
  const hostedZone = text(env, "HANGAR_DOMAIN_HOSTED_ZONE");
  if (!domainName && (certificateArn || hostedZone)) {
    throw new StageSettingsError("HANGAR_DOMAIN_NAME", "required when a certificate or hosted zone is given");
  }
  if (certificateArn && !CLOUDFRONT_CERTIFICATE.test(certificateArn)) {
    throw new StageSettingsError("HANGAR_DOMAIN_CERTIFICATE_ARN", "expected an ACM certificate ARN in us-east-1 (CloudFront's region)");
  }
  const mailFromText = text(env, "HANGAR_MAIL_FROM");
  let mailFrom: MailFrom | undefined;
  try {
    mailFrom = mailFromText === undefined ? undefined : parseMailFrom(mailFromText);
  } catch (error) {
    // The parser's message says what to write instead (e.g. an address at a bare domain).
    if (error instanceof MailFromError) throw new StageSettingsError("HANGAR_MAIL_FROM", error.message);
    throw error;
  }
  const zoneSetting = (name: string) => {
    const zone = text(env, name)?.toLowerCase();
    if (zone !== undefined && !ZONE.test(zone)) throw new StageSettingsError(name, `expected a Route 53 zone name such as example.com, got "${zone}"`);
    return zone;
  };
  const mailZone = zoneSetting("HANGAR_MAIL_HOSTED_ZONE");
  const shareZone = zoneSetting("HANGAR_SHARE_HOSTED_ZONE");
  const mailIdentity = text(env, "HANGAR_MAIL_IDENTITY")?.toLowerCase() ?? "create";
  if (mailIdentity !== "create" && mailIdentity !== "existing") {
    throw new StageSettingsError("HANGAR_MAIL_IDENTITY", `expected "create" (the default) or "existing", got "${mailIdentity}"`);
  }
  const origins = (text(env, "HANGAR_CORS_ORIGINS") ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const defaultThrottle = throttle(env, "HANGAR_API_THROTTLE", { rate: 200, burst: 400 });

  const settings: StageSettings = {
    stage,
    production,
    logRetention: retention(env, "HANGAR_LOG_RETENTION", production ? "three_months" : "one_week"),
    logLevel,
    corsOrigins: origins,
    alarms: bool(env, "HANGAR_ALARMS", production),
    throttle: defaultThrottle,
    // Ceilings far above one client's application limits (see docs/deploy.md, "Load model"):
    // 1,000 uploads a minute is ~17 completes/s on average and bursts of a few times that.
    completeThrottle: throttle(env, "HANGAR_COMPLETE_THROTTLE", { rate: 100, burst: 200 }),
    publicThrottle: throttle(env, "HANGAR_PUBLIC_THROTTLE", { rate: 200, burst: 400 }),
    noncurrentVersionDays: int(env, "HANGAR_NONCURRENT_VERSION_DAYS", 1, 3650) ?? 30,
    bucketAccessLogs: bool(env, "HANGAR_BUCKET_ACCESS_LOGS", production),
    mailIdentityExists: mailIdentity === "existing",
    waf: bool(env, "HANGAR_WAF", false),
    // WAF's own bounds for a rate-based rule's limit (per 5-minute window).
    wafRateLimit: int(env, "HANGAR_WAF_RATE_LIMIT", 10, 2_000_000_000) ?? DEFAULT_WAF_RATE_LIMIT,
    cloudfrontLogs: bool(env, "HANGAR_CLOUDFRONT_LOGS", production),
    legacyTableName: bool(env, "HANGAR_LEGACY_TABLE_NAME", false),
  };
  const optional = {
    ...handlerSettings(env),
    completeReservedConcurrency: int(env, "HANGAR_COMPLETE_RESERVED_CONCURRENCY", 1, 1000),
    mailFrom,
    shareHostedZone: shareZone,
    originSecretGeneration: text(env, "HANGAR_ORIGIN_SECRET_GENERATION"),
    alarmEmail: text(env, "HANGAR_ALARM_EMAIL"),
    appStoreConnect: appStoreConnectSettings(env),
    enrollSigningSecretArn: enrollSigningSecretArn(env),
    customDomain: domainName
      ? { domainName, ...(certificateArn ? { certificateArn } : {}), ...(hostedZone ? { hostedZone } : {}) }
      : undefined,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(settings, { [key]: value });
  }
  // DKIM records go where the domain's DNS is: the mail zone, else the site's zone if it holds the domain.
  const siteZone = domainZone(settings);
  const mailHostedZone = mailZone ?? (mailFrom && siteZone && inZone(mailFrom.domain, siteZone) ? siteZone : undefined);
  if (mailHostedZone !== undefined) settings.mailHostedZone = mailHostedZone;
  return settings;
}

/**
 * Environment of every API function, named exactly as the handlers' settings schema
 * (packages/functions/src/composition/settings.schema.ts). Unset settings are left out so the
 * schema's defaults apply; there is a single source of defaults.
 *
 * The origin secret is not in it: only its ARN, read by the functions at cold start (they may
 * secretsmanager:GetSecretValue on it and nothing else), so the value is in no template and no
 * function configuration.
 */
export function functionEnvironment(
  settings: StageSettings,
  resources: { tableName: string; bucketName: string; originVerifySecretArn?: string; sesConfigurationSet?: string; webhookQueueUrl?: string },
): Record<string, string> {
  const env: Record<string, string> = {
    HANGAR_TABLE_NAME: resources.tableName,
    HANGAR_BUCKET_NAME: resources.bucketName,
    // The `stage` dimension of the custom metrics (namespace Hangar), so stages in one account do not mix.
    HANGAR_STAGE: settings.stage,
    POWERTOOLS_LOG_LEVEL: settings.logLevel,
  };
  // Behind CloudFront the client's address arrives in this header (web-stack.ts), trusted only
  // next to the origin secret; without the secret there is no proxy to trust.
  if (resources.originVerifySecretArn) env.HANGAR_CLIENT_IP_HEADER = CLIENT_IP_HEADER;
  const optional: Record<string, string | number | undefined> = {
    HANGAR_ORIGIN_VERIFY_SECRET_ARN: resources.originVerifySecretArn,
    // A custom domain is known at synth: links use it without any header (see web-stack.ts).
    HANGAR_PUBLIC_URL: settings.publicUrl ?? (settings.customDomain ? `https://${settings.customDomain.domainName}` : undefined),
    HANGAR_MAIL_FROM: settings.mailFrom?.header,
    HANGAR_SES_CONFIGURATION_SET: resources.sesConfigurationSet,
    // Where events and webhook deliveries are queued (docs/webhooks.md).
    HANGAR_WEBHOOK_QUEUE_URL: resources.webhookQueueUrl,
    HANGAR_SHARE_BASE_URL: settings.shareBaseUrl,
    HANGAR_MAX_FILE_SIZE: settings.maxFileSize,
    HANGAR_MAX_MULTIPART_FILE_SIZE: settings.maxMultipartFileSize,
    HANGAR_RATE_LIMIT: settings.rateLimit,
    HANGAR_RATE_WINDOW_SECONDS: settings.rateWindowSeconds,
    HANGAR_RATE_RULES: settings.rateRules,
    HANGAR_PENDING_TTL_SECONDS: settings.pendingTtlSeconds,
    HANGAR_BUILD_MAIL_PER_SECOND: settings.buildMailPerSecond,
    // Register with Apple is on (the devices list tells the dashboard); the key itself goes to the apple function only.
    HANGAR_ASC_ENABLED: settings.appStoreConnect ? "1" : undefined,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) env[key] = String(value);
  }
  return env;
}

/** The stacks' accessor: settings of the app's stage from the deploy environment. */
export function stageSettings(stage: string): StageSettings {
  return resolveStageSettings(stage, process.env);
}
