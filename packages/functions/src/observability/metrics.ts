import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { logger } from "./logger";

const TRUTHY = new Set(["1", "true", "yes", "on", "y"]);
const FALSY = new Set(["0", "false", "no", "off", "n"]);

/** The settings (settings.schema.ts) that decide whether EMF is printed. */
export interface MetricsSwitches {
  HANGAR_LOCAL?: string | undefined;
  AWS_LAMBDA_FUNCTION_NAME?: string | undefined;
  POWERTOOLS_METRICS_DISABLED?: string | undefined;
  POWERTOOLS_DEV?: string | undefined;
}

/**
 * EMF lines are only worth printing inside Lambda, where CloudWatch turns them into metrics.
 * Locally and in tests they would be noise (and Powertools warns about empty flushes), so
 * they are off unless we run in Lambda; `POWERTOOLS_METRICS_DISABLED` overrides either way
 * (set it to `false` to see the EMF output on a laptop) and `HANGAR_LOCAL=1` always wins.
 */
export function metricsEnabled(env: MetricsSwitches): boolean {
  if (env.HANGAR_LOCAL === "1") return false;
  const flag = env.POWERTOOLS_METRICS_DISABLED?.trim().toLowerCase();
  if (flag !== undefined && TRUTHY.has(flag)) return false;
  if (flag !== undefined && FALSY.has(flag)) return true;
  if (TRUTHY.has(env.POWERTOOLS_DEV?.trim().toLowerCase() ?? "")) return false;
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
}

/**
 * Off until a composition root, which has parsed the settings, switches it on: this module
 * reads no environment itself, and a function that never builds the root (the fallback)
 * records nothing anyway.
 */
let enabled = false;

/** Called by the composition roots with metricsEnabled(settings). */
export function setMetricsEnabled(on: boolean): void {
  enabled = on;
}

/**
 * Called by the composition roots with the parsed settings: switches EMF on or off and adds the
 * `stage` dimension (HANGAR_STAGE, which the stacks set on every function), so two stages in one
 * account never add up into one series. Every metric then carries exactly `service` and `stage`,
 * the dimensions the stacks' alarms and dashboard name.
 */
export function configureMetrics(settings: MetricsSwitches & { HANGAR_STAGE?: string | undefined }): void {
  enabled = metricsEnabled(settings);
  if (settings.HANGAR_STAGE) metrics.setDefaultDimensions({ stage: settings.HANGAR_STAGE });
}

/**
 * Buffered per request and flushed by the `observability()` middleware. Warnings Powertools
 * would print (bad dimension, ...) go through our JSON logger instead of a bare console.
 */
export const metrics = new Metrics({ namespace: "Hangar", serviceName: "hangar", logger });

/** True when flushes print EMF; exported for the middleware and tests. */
export const metricsAreEnabled = (): boolean => enabled;

const isCount = (n: number) => Number.isFinite(n) && n >= 0;

/**
 * The only metrics the service emits; handlers call these instead of `metrics.addMetric` so
 * names and units stay in one place (dashboards and alarms depend on them).
 */
export const record = {
  uploadCompleted(): void {
    if (enabled) metrics.addMetric("UploadsCompleted", MetricUnit.Count, 1);
  },
  /**
   * `reason` goes to EMF metadata, not a dimension: a dimension per reason would multiply the
   * metric series (each one billed) and a free-form reason could explode cardinality. Logs
   * Insights can still group rejections by `rejectReason`.
   */
  uploadRejected(reason: string): void {
    if (!enabled) return;
    metrics.addMetric("UploadsRejected", MetricUnit.Count, 1);
    metrics.addMetadata("rejectReason", reason.slice(0, 128));
  },
  extractionTime(ms: number): void {
    if (enabled && isCount(ms)) metrics.addMetric("ExtractionTime", MetricUnit.Milliseconds, ms);
  },
  bytesRead(n: number): void {
    if (enabled && isCount(n)) metrics.addMetric("BytesRead", MetricUnit.Bytes, n);
  },
  rateLimited(): void {
    if (enabled) metrics.addMetric("RateLimited", MetricUnit.Count, 1);
  },
  /** A person's GET of a download link that was counted (not HEAD, not a preview bot). */
  download(): void {
    if (enabled) metrics.addMetric("Downloads", MetricUnit.Count, 1);
  },
  /** A device's GET of an OTA manifest: one iOS install started. */
  installStart(): void {
    if (enabled) metrics.addMetric("InstallStarts", MetricUnit.Count, 1);
  },
  signIn(): void {
    if (enabled) metrics.addMetric("SignIns", MetricUnit.Count, 1);
  },
  /** A wrong password or unknown address (not a 429: RateLimited counts those). */
  signInFailure(): void {
    if (enabled) metrics.addMetric("SignInFailures", MetricUnit.Count, 1);
  },
  /** A mail handed to SES or the SMTP relay. */
  mailSent(): void {
    if (enabled) metrics.addMetric("MailsSent", MetricUnit.Count, 1);
  },
  /** Addresses SES reported as bounced (permanent or transient) in one event. */
  mailBounces(n: number): void {
    if (enabled && isCount(n) && n > 0) metrics.addMetric("MailBounces", MetricUnit.Count, n);
  },
};

/** Publish what this request recorded; stays silent when nothing was recorded or disabled. */
export function flushMetrics(): void {
  if (!enabled) {
    metrics.clearMetrics();
    return;
  }
  // Powertools warns on every empty flush; most requests (downloads, 404s) record nothing.
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
