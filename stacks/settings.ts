import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Settings, VIEWER_ADDRESS_HEADER } from "@hangar/functions";

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
  rateLimit?: number;
  rateWindowSeconds?: number;
  pendingTtlSeconds?: number;
  /** Optional custom domain of the stage's CloudFront distribution; see docs/deploy.md for the two modes. */
  customDomain?: CustomDomainSettings;
  /** HANGAR_MAIL_FROM: the SES identity (address or domain) account mails are sent from. */
  mailFrom?: string;
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
  /** S3 server access logs of the uploads bucket, into a separate log bucket. */
  bucketAccessLogs: boolean;
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
  rateLimit: "HANGAR_RATE_LIMIT",
  rateWindowSeconds: "HANGAR_RATE_WINDOW_SECONDS",
  pendingTtlSeconds: "HANGAR_PENDING_TTL_SECONDS",
} as const;

/** us-east-1: CloudFront only uses certificates from there, whatever the stage's region. */
const CLOUDFRONT_CERTIFICATE = /^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/;
/** A domain (`example.com`) or an address at one (`hangar@example.com`): what SES verifies. */
const MAIL_IDENTITY = /^(?:[A-Za-z0-9._%+-]{1,64}@)?(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

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

/** Pure: the settings of `stage` given a deploy environment. */
export function resolveStageSettings(stage: string, env: Env): StageSettings {
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
  const mailFrom = text(env, "HANGAR_MAIL_FROM");
  if (mailFrom !== undefined && !MAIL_IDENTITY.test(mailFrom)) {
    throw new StageSettingsError("HANGAR_MAIL_FROM", `expected an SES identity: an address or a domain, got "${mailFrom}"`);
  }
  const origins = (text(env, "HANGAR_CORS_ORIGINS") ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const defaultThrottle = throttle(env, "HANGAR_API_THROTTLE", { rate: 50, burst: 100 });

  const settings: StageSettings = {
    stage,
    production,
    logRetention: retention(env, "HANGAR_LOG_RETENTION", production ? "three_months" : "one_week"),
    logLevel,
    corsOrigins: origins,
    alarms: bool(env, "HANGAR_ALARMS", production),
    throttle: defaultThrottle,
    completeThrottle: throttle(env, "HANGAR_COMPLETE_THROTTLE", { rate: 10, burst: 20 }),
    publicThrottle: throttle(env, "HANGAR_PUBLIC_THROTTLE", { rate: 20, burst: 40 }),
    noncurrentVersionDays: int(env, "HANGAR_NONCURRENT_VERSION_DAYS", 1, 3650) ?? 30,
    bucketAccessLogs: bool(env, "HANGAR_BUCKET_ACCESS_LOGS", production),
  };
  const optional = {
    ...handlerSettings(env),
    completeReservedConcurrency: int(env, "HANGAR_COMPLETE_RESERVED_CONCURRENCY", 1, 1000),
    mailFrom,
    alarmEmail: text(env, "HANGAR_ALARM_EMAIL"),
    customDomain: domainName
      ? { domainName, ...(certificateArn ? { certificateArn } : {}), ...(hostedZone ? { hostedZone } : {}) }
      : undefined,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value !== undefined) Object.assign(settings, { [key]: value });
  }
  return settings;
}

/**
 * Environment of every API function, named exactly as the handlers' settings schema
 * (packages/functions/src/composition/settings.schema.ts). Unset settings are left out so the
 * schema's defaults apply; there is a single source of defaults.
 */
export function functionEnvironment(
  settings: StageSettings,
  resources: { tableName: string; bucketName: string; originVerifySecret?: string },
): Record<string, string> {
  const env: Record<string, string> = {
    HANGAR_TABLE_NAME: resources.tableName,
    HANGAR_BUCKET_NAME: resources.bucketName,
    POWERTOOLS_LOG_LEVEL: settings.logLevel,
  };
  // Behind CloudFront the client's address arrives in this header (web-stack.ts), trusted only
  // next to the origin secret; without the secret there is no proxy to trust.
  if (resources.originVerifySecret) env.HANGAR_CLIENT_IP_HEADER = VIEWER_ADDRESS_HEADER;
  const optional: Record<string, string | number | undefined> = {
    HANGAR_ORIGIN_VERIFY_SECRET: resources.originVerifySecret,
    // A custom domain is known at synth: links use it without any header (see web-stack.ts).
    HANGAR_PUBLIC_URL: settings.publicUrl ?? (settings.customDomain ? `https://${settings.customDomain.domainName}` : undefined),
    HANGAR_MAIL_FROM: settings.mailFrom,
    HANGAR_SHARE_BASE_URL: settings.shareBaseUrl,
    HANGAR_MAX_FILE_SIZE: settings.maxFileSize,
    HANGAR_RATE_LIMIT: settings.rateLimit,
    HANGAR_RATE_WINDOW_SECONDS: settings.rateWindowSeconds,
    HANGAR_PENDING_TTL_SECONDS: settings.pendingTtlSeconds,
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
